"""Sample float32 images at normalised grid locations (bilinear, nearest or bicubic, 3 padding modes)."""

import inspect

import torch
import torch.nn.functional as F

from harness.checks import check_with_allowance, interpolation_allowance
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "grid_sample"
SIGNATURE = "grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["align_corners", "mode", "padding_mode"]
DIFFICULTY = 4
DESCRIPTION = """
Sample a batch of images at arbitrary locations, like torch.nn.functional.grid_sample(input, grid,
mode=mode, padding_mode=padding_mode, align_corners=align_corners), for 4-D inputs. `input` is a
float32 (N, C, H, W) tensor and `grid` a float32 (N, H_out, W_out, 2) tensor (both possibly
non-contiguous); grid[n, i, j] = (x, y) is a location normalised to [-1, 1] (x along W, y along H;
values outside [-1, 1] are allowed). Return a new float32 (N, C, H_out, W_out) tensor where
output[n, :, i, j] samples input[n] at grid[n, i, j].
Unnormalisation to pixel coordinates (size S = W for x, H for y): with align_corners=True, -1 and 1
are the centres of the corner pixels, ix = (x + 1) / 2 * (S - 1); with align_corners=False (default)
they are the outer edges of the corner pixels, ix = ((x + 1) * S - 1) / 2.
padding_mode decides what lies outside the image: 'zeros' (default): out-of-range pixels read as 0;
'border': the coordinate is clamped into [0, S - 1]; 'reflection': the coordinate is reflected at the
borders (repeatedly, for far-away points) - at the corner-pixel centres (0 and S - 1) when
align_corners=True, at the image edges (-0.5 and S - 0.5) when False, then clamped into [0, S - 1].
mode: 'bilinear' (default): padding is applied to (ix, iy), then the four neighbours
floor(ix)+{0,1} x floor(iy)+{0,1} are blended with bilinear weights, a neighbour outside the image
contributing 0. 'nearest': padding is applied to (ix, iy), which are then rounded to the nearest
integer (halves to even) and read (0 if outside). 'bicubic': (ix, iy) are NOT padded; the 4x4
neighbours floor(ix)-1..floor(ix)+2 (same for y) are each mapped through the padding mode
(clamped, reflected, or read as 0 when outside) and blended with the cubic convolution kernel,
a = -0.75: weight (a+2)|d|^3 - (a+3)|d|^2 + 1 for |d| <= 1, a|d|^3 - 5a|d|^2 + 8a|d| - 4a for
1 < |d| < 2, d the distance to the tap. The inputs must not be modified.
"""
# NaN in the grid is not tested: PyTorch's CPU and CUDA kernels clamp it to different borders.

CHECK_NOTE = ("mode='nearest' outputs whose sample point lies within 1e-3 pixel of a rounding "
              "boundary are not compared (float32 rounding of the coordinate may pick either "
              "neighbour); bilinear and bicubic outputs get, besides the float32 tolerance, the effect "
              "of 8 float32 roundings of each coordinate (the interpolant's slope times max|input|).")


_COORDINATE_ROUNDINGS = 8


def reference(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    return F.grid_sample(input, grid, mode=mode, padding_mode=padding_mode, align_corners=align_corners)


def _args(case: Case) -> dict:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return bound.arguments


def _pixel_coords(coord: torch.Tensor, size: int, padding_mode: str, align_corners: bool) -> torch.Tensor:
    """Exact (float64) padded source coordinate of bilinear/nearest sampling."""
    c = coord.double()
    c = (c + 1) / 2 * (size - 1) if align_corners else ((c + 1) * size - 1) / 2
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


def near_rounding_boundary(grid: torch.Tensor, H: int, W: int, padding_mode: str, align_corners: bool,
                           margin: float = 1e-3) -> torch.Tensor:
    """(N, H_out, W_out) mask of nearest-mode samples whose rounding is numerically ambiguous."""
    amb = torch.zeros(grid.shape[:-1], dtype=torch.bool, device=grid.device)
    for k, size in ((0, W), (1, H)):
        c = _pixel_coords(grid[..., k], size, padding_mode, align_corners)
        frac = c - torch.floor(c)
        amb |= (frac - 0.5).abs() < margin
    return amb


def check(case: Case, output, expected):
    a = _args(case)
    if a["mode"] != "nearest" or not isinstance(output, torch.Tensor) or output.shape != expected.shape:
        # unnormalizing and reflecting a coordinate rounds it about four times on each side
        allowance = interpolation_allowance(a["mode"], a["input"].shape[-2:], _COORDINATE_ROUNDINGS, a["input"])
        return check_with_allowance(output, expected, torch.full_like(expected, allowance, dtype=torch.float64))
    H, W = a["input"].shape[-2:]
    amb = near_rounding_boundary(a["grid"].to(expected.device), H, W, a["padding_mode"], a["align_corners"])
    amb = amb[:, None].expand_as(expected)
    out = output.to(expected.device).clone()
    out[amb] = expected[amb]
    return compare_outputs(out, expected)


def _grid(g: Inputs, n, h, w, lim):
    return g.uniform(n, h, w, 2, low=-lim, high=lim)


def cases(g: Inputs):
    # Every mode x padding mode x align_corners, on small images; grids reach outside [-1, 1]
    # (far outside for 'reflection', so points are reflected several times).
    shapes = [(2, 3, 9, 11, 7, 8), (1, 4, 6, 13, 9, 5), (2, 2, 10, 7, 6, 10)]
    i = 0
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding_mode in ("zeros", "border", "reflection"):
            for align in (False, True):
                n, c, h, w, ho, wo = shapes[i % len(shapes)]
                i += 1
                lim = 3.5 if padding_mode == "reflection" else 1.3
                yield Case(f"{mode}-{padding_mode}-align{int(align)}", g.randn(n, c, h, w),
                           _grid(g, n, ho, wo, lim), mode=mode, padding_mode=padding_mode,
                           align_corners=align)
    yield Case("defaults", g.randn(2, 3, 8, 8), _grid(g, 2, 5, 6, 1.1))
    yield Case("positional-args", g.randn(1, 2, 7, 9), _grid(g, 1, 8, 8, 1.2), "bicubic", "border", True)
    # Grid values exactly at +-1 and 0 (corner pixels / image centre).
    edge = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0])
    eg = torch.stack(torch.meshgrid(edge, edge, indexing="xy"), dim=-1)[None].repeat(2, 1, 1, 1)
    yield Case("grid-edges-bilinear-align", g.randn(2, 3, 6, 9), g.tensor(eg), align_corners=True)
    yield Case("grid-edges-bicubic", g.randn(2, 3, 6, 9), g.tensor(eg), mode="bicubic")
    # Degenerate 1-pixel-wide/high images: the reflection span is zero with align_corners=True.
    yield Case("one-column-reflection-align", g.randn(2, 3, 5, 1), _grid(g, 2, 4, 6, 2.0),
               padding_mode="reflection", align_corners=True)
    yield Case("one-row-bicubic-reflection", g.randn(2, 3, 1, 6), _grid(g, 2, 4, 6, 2.0),
               mode="bicubic", padding_mode="reflection")
    yield Case("one-pixel-border", g.randn(1, 3, 1, 1), _grid(g, 1, 3, 4, 1.5), padding_mode="border")
    # Outliers in the image; non-contiguous image and grid.
    yield Case("outliers", g.heavy_tailed(2, 3, 12, 12, scale=2.0), _grid(g, 2, 10, 10, 1.2))
    yield Case("strided-input", g.strided(g.randn(2, 3, 8, 10)), _grid(g, 2, 7, 7, 1.2),
               mode="bicubic", padding_mode="reflection")
    grid_t = g.uniform(2, 2, 6, 9, low=-1.2, high=1.2).permute(0, 2, 3, 1)  # (N, H, W, 2), x/y planes
    yield Case("strided-grid", g.randn(2, 5, 7, 8), grid_t, padding_mode="border")
    yield Case("transposed-input", g.transposed(g.randn(2, 3, 9, 12)), _grid(g, 2, 6, 6, 1.2),
               mode="nearest", padding_mode="reflection", align_corners=True)
    yield Case("upsampling-grid", g.randn(1, 2, 4, 5), _grid(g, 1, 24, 30, 1.0), mode="bicubic",
               align_corners=True)


def perf_cases(g: Inputs):
    yield Case("stn-bilinear-64x32x128x128", g.randn(64, 32, 128, 128), _grid(g, 64, 128, 128, 1.0))
    yield Case("nearest-border-32x64x96x96", g.randn(32, 64, 96, 96), _grid(g, 32, 96, 96, 1.1),
               mode="nearest", padding_mode="border")
    yield Case("bicubic-reflection-16x3x2048x2048", g.randn(16, 3, 2048, 2048),
               _grid(g, 16, 1024, 1024, 1.0), mode="bicubic", padding_mode="reflection",
               align_corners=True)


_FLOPS_PER_OUTPUT = {"nearest": 1, "bilinear": 8, "bicubic": 40}


def cost(case: Case, output) -> Cost:
    a = _args(case)
    moved = numel_bytes(a["input"]) + numel_bytes(a["grid"]) + numel_bytes(output)
    return Cost(flops=float(_FLOPS_PER_OUTPUT[a["mode"]] * output.numel()), bytes=float(moved))
