"""Warp float32 images by per-sample 2-D affine matrices: affine_grid followed by grid_sample."""

import inspect

import torch
import torch.nn.functional as F

from harness.checks import check_with_allowance, interpolation_allowance
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "grid_sample_with_affine"
SIGNATURE = ("grid_sample_with_affine(input, theta, size, mode='bilinear', padding_mode='zeros', "
             "align_corners=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_KWARGS = ["align_corners", "mode", "padding_mode"]
DIFFICULTY = 3
DESCRIPTION = """
Apply a per-sample affine warp to a batch of images: compute
grid = torch.nn.functional.affine_grid(theta, size, align_corners=align_corners) and return
torch.nn.functional.grid_sample(input, grid, mode=mode, padding_mode=padding_mode,
align_corners=align_corners). `input` is float32 (N, C, H, W), `theta` float32 (N, 2, 3) (both
possibly non-contiguous), `size` the target size (N, C, H_out, W_out) (a torch.Size or tuple of
ints; only H_out and W_out matter besides N). Result: a new float32 (N, C, H_out, W_out) tensor.
The sampling grid: output pixel (i, j) has normalised base coordinates (x_j, y_i), where with
align_corners=True x_j = -1 + 2j / (W_out - 1) and with align_corners=False (default)
x_j = (2j + 1) / W_out - 1 (pixel centres), likewise y_i with H_out; a size of 1 gives coordinate 0.
Its sampling location is (x, y) = theta[n] @ (x_j, y_i, 1), normalised to [-1, 1] over the input.
Sampling then follows grid_sample for 4-D inputs: unnormalise to pixels (S = W for x, H for y):
ix = (x + 1) / 2 * (S - 1) if align_corners else ((x + 1) * S - 1) / 2. padding_mode 'zeros'
(default): pixels outside read as 0; 'border': clamp the coordinate into [0, S - 1]; 'reflection':
reflect it (repeatedly) at 0 and S - 1 when align_corners, at -0.5 and S - 0.5 otherwise, then clamp
into [0, S - 1]. mode 'bilinear' (default): pad (ix, iy), blend the 4 neighbours floor()+{0,1} with
bilinear weights, neighbours outside counting 0. 'nearest': pad, round to the nearest integer
(halves to even), read (0 outside). 'bicubic': do not pad (ix, iy); map each of the 4x4 taps
floor(ix)-1..floor(ix)+2 (same in y) through the padding mode and blend them with the cubic
convolution kernel, a = -0.75: (a+2)|d|^3 - (a+3)|d|^2 + 1 for |d| <= 1,
a|d|^3 - 5a|d|^2 + 8a|d| - 4a for 1 < |d| < 2. The inputs must not be modified.
"""

CHECK_NOTE = ("mode='nearest' outputs whose sample point lies within 1e-3 pixel of a rounding "
              "boundary are not compared (float32 rounding of the warped coordinate may pick either "
              "neighbour); bilinear and bicubic outputs get, besides the float32 tolerance, the effect "
              "of 16 float32 roundings of each coordinate (the interpolant's slope times max|input|).")


_COORDINATE_ROUNDINGS = 16


def reference(input, theta, size, mode="bilinear", padding_mode="zeros", align_corners=False):
    grid = F.affine_grid(theta, size, align_corners=align_corners)
    return F.grid_sample(input, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)


def _args(case: Case) -> dict:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return bound.arguments


def _base(n: int, align_corners: bool, device) -> torch.Tensor:
    if n <= 1:
        return torch.zeros(max(n, 0), dtype=torch.float64, device=device)
    j = torch.arange(n, dtype=torch.float64, device=device)
    return -1 + 2 * j / (n - 1) if align_corners else (2 * j + 1) / n - 1


def _exact_grid(theta: torch.Tensor, size, align_corners: bool) -> torch.Tensor:
    """The sampling grid in float64, (N, H_out, W_out, 2)."""
    th = theta.double()
    ho, wo = int(size[-2]), int(size[-1])
    xs = _base(wo, align_corners, th.device)
    ys = _base(ho, align_corners, th.device)
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    base = torch.stack([xx, yy, torch.ones_like(xx)], dim=-1)  # (H, W, 3)
    return torch.einsum("hwk,nck->nhwc", base, th)


def _pixel_coords(coord: torch.Tensor, size: int, padding_mode: str, align_corners: bool) -> torch.Tensor:
    c = (coord + 1) / 2 * (size - 1) if align_corners else ((coord + 1) * size - 1) / 2
    if padding_mode == "border":
        c = c.clamp(0, size - 1)
    elif padding_mode == "reflection":
        lo, hi = (0.0, size - 1.0) if align_corners else (-0.5, size - 0.5)
        span = hi - lo
        if span <= 0:
            c = torch.zeros_like(c)
        else:
            d = (c - lo).abs()
            flips = torch.floor(d / span)
            extra = d - flips * span
            c = torch.where(flips % 2 == 0, lo + extra, hi - extra)
        c = c.clamp(0, size - 1)
    return c


def near_rounding_boundary(a: dict, margin: float = 1e-3) -> torch.Tensor:
    """(N, H_out, W_out) mask of nearest-mode samples whose rounding is numerically ambiguous."""
    grid = _exact_grid(a["theta"], a["size"], a["align_corners"])
    H, W = a["input"].shape[-2:]
    amb = torch.zeros(grid.shape[:-1], dtype=torch.bool, device=grid.device)
    for k, s in ((0, W), (1, H)):
        c = _pixel_coords(grid[..., k], s, a["padding_mode"], a["align_corners"])
        amb |= ((c - torch.floor(c)) - 0.5).abs() < margin
    return amb


def check(case: Case, output, expected):
    a = _args(case)
    if a["mode"] != "nearest" or not isinstance(output, torch.Tensor) or output.shape != expected.shape:
        # building the grid (theta @ base) and unnormalizing and reflecting it round a coordinate about eight times on each side
        allowance = interpolation_allowance(a["mode"], a["input"].shape[-2:], _COORDINATE_ROUNDINGS, a["input"])
        return check_with_allowance(output, expected, torch.full_like(expected, allowance, dtype=torch.float64))
    amb = near_rounding_boundary(a).to(expected.device)[:, None].expand_as(expected)
    out = output.to(expected.device).clone()
    out[amb] = expected[amb]
    return compare_outputs(out, expected)


def _theta(g: Inputs, n: int, zoom: float = 1.0) -> torch.Tensor:
    """Random rotation + anisotropic scale + shear + translation, scaled by `zoom` (> 1 reaches
    outside the input)."""
    # Drawn from g, then combined on the CPU in float64 so every device gets the same matrices.
    ang = g.uniform(n, low=-3.1, high=3.1, dtype=torch.float64).cpu()
    sc = g.uniform(n, 2, low=0.6, high=1.3, dtype=torch.float64).cpu() * zoom
    shear = g.uniform(n, low=-0.3, high=0.3, dtype=torch.float64).cpu()
    tr = g.uniform(n, 2, low=-0.4, high=0.4, dtype=torch.float64).cpu() * zoom
    c, s = torch.cos(ang), torch.sin(ang)
    t = torch.empty(n, 2, 3, dtype=torch.float64)
    t[:, 0, 0] = sc[:, 0] * c
    t[:, 0, 1] = -sc[:, 0] * s + shear
    t[:, 0, 2] = tr[:, 0]
    t[:, 1, 0] = sc[:, 1] * s
    t[:, 1, 1] = sc[:, 1] * c
    t[:, 1, 2] = tr[:, 1]
    return g.tensor(t)


def cases(g: Inputs):
    # Upstream's example: identity transform with a 2x smaller output.
    ident = g.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    yield Case("identity-downsample", g.randn(1, 3, 16, 16), ident, torch.Size([1, 3, 8, 8]))
    # Every mode x padding mode x align_corners; zoom > 1 samples outside the input (far outside
    # for 'reflection', so points are reflected several times).
    shapes = [(2, 3, 9, 11, 7, 8), (1, 4, 6, 13, 9, 5), (2, 2, 10, 7, 6, 10)]
    i = 0
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding_mode in ("zeros", "border", "reflection"):
            for align in (False, True):
                n, c, h, w, ho, wo = shapes[i % len(shapes)]
                i += 1
                zoom = 2.5 if padding_mode == "reflection" else 1.2
                yield Case(f"{mode}-{padding_mode}-align{int(align)}", g.randn(n, c, h, w),
                           _theta(g, n, zoom), torch.Size([n, c, ho, wo]), mode=mode,
                           padding_mode=padding_mode, align_corners=align)
    yield Case("positional-args", g.randn(2, 2, 8, 7), _theta(g, 2), (2, 2, 9, 6), "bicubic",
               "reflection", True)
    yield Case("upsample-rotate", g.randn(1, 2, 5, 4), _theta(g, 1), torch.Size([1, 2, 20, 24]),
               mode="bicubic", padding_mode="border")
    yield Case("one-pixel-output", g.randn(3, 2, 6, 6), _theta(g, 3), torch.Size([3, 2, 1, 1]))
    yield Case("one-row-output", g.randn(2, 3, 7, 9), _theta(g, 2), torch.Size([2, 3, 1, 12]),
               padding_mode="border")
    yield Case("outliers", g.heavy_tailed(2, 3, 12, 12, scale=2.0), _theta(g, 2), torch.Size([2, 3, 10, 10]))
    yield Case("strided-input", g.strided(g.randn(2, 3, 8, 10)), _theta(g, 2, 1.5),
               torch.Size([2, 3, 7, 7]), padding_mode="reflection")
    theta_t = _theta(g, 2).transpose(1, 2).contiguous().transpose(1, 2)  # column-major matrices
    yield Case("strided-theta", g.randn(2, 5, 7, 8), theta_t, torch.Size([2, 5, 6, 9]),
               mode="bicubic", align_corners=True)
    yield Case("transposed-input", g.transposed(g.randn(2, 3, 9, 12)), _theta(g, 2),
               torch.Size([2, 3, 6, 6]), mode="nearest", padding_mode="border")


def perf_cases(g: Inputs):
    yield Case("stn-bilinear-64x32x128x128", g.randn(64, 32, 128, 128), _theta(g, 64),
               torch.Size([64, 32, 128, 128]))
    yield Case("nearest-border-32x64x112x112", g.randn(32, 64, 112, 112), _theta(g, 32),
               torch.Size([32, 64, 112, 112]), mode="nearest", padding_mode="border")
    yield Case("bicubic-reflection-16x3x1024x1024", g.randn(16, 3, 1024, 1024), _theta(g, 16, 1.5),
               torch.Size([16, 3, 1024, 1024]), mode="bicubic", padding_mode="reflection",
               align_corners=True)


_FLOPS_PER_OUTPUT = {"nearest": 1, "bilinear": 8, "bicubic": 40}


def cost(case: Case, output) -> Cost:
    a = _args(case)
    moved = numel_bytes(a["input"]) + numel_bytes(a["theta"]) + numel_bytes(output)
    return Cost(flops=float(_FLOPS_PER_OUTPUT[a["mode"]] * output.numel()), bytes=float(moved))
