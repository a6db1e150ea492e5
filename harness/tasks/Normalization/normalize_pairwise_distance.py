"""Row-wise p-norm distances between two float32 tensors, normalized along one dimension."""

import torch

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "normalize_pairwise_distance"
SIGNATURE = ("normalize_pairwise_distance(x1, x2, p_distance=2.0, eps_distance=1e-06, keepdim=False, "
             "p_norm=2, dim_norm=1, eps_norm=1e-12)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim_norm", "p_distance"]
DIFFICULTY = 3
DESCRIPTION = """
`x1` and `x2` are float32 tensors of the same shape (..., D) with at least two dimensions (either
may be non-contiguous). First compute, for every position of the leading dimensions, the
p_distance-norm of the difference along the LAST dimension and add eps_distance:
d = (sum_k |x1[..., k] - x2[..., k]|^p_distance)^(1/p_distance) + eps_distance, or
max_k |x1[..., k] - x2[..., k]| + eps_distance when p_distance = float('inf'). d has shape x1.shape[:-1],
or x1.shape[:-1] + (1,) when keepdim=True (the reduced dimension kept with size 1); an empty last
dimension gives a norm of 0 (not combined with p_distance = inf). Then normalize d along dimension dim_norm of d (an int, negative values
count from the end; default 1): out = d / max(||d||, eps_norm), where ||d|| is the p_norm-norm of the
values of d along dim_norm (same formula, p_norm = float('inf') meaning the largest absolute value),
taken separately for every position of d's other dimensions and broadcast back. Return out, a new
float32 tensor of d's shape. p_distance and p_norm are positive (default 2; 1 gives sums of absolute
values) or inf; eps_distance >= 0 (default 1e-6) and eps_norm > 0 (default 1e-12). So a slice whose
norm is below eps_norm is divided by eps_norm (an all-zero slice gives zeros). NaN propagates: a NaN
in a row makes its distance NaN, and with it every output of the slice normalized together with it.
Values are small enough that the p-th powers and their sums fit in float32. The inputs must not be
modified.
"""


def reference(x1, x2, p_distance=2.0, eps_distance=1e-06, keepdim=False, p_norm=2, dim_norm=1, eps_norm=1e-12):
    d = torch.norm(x1 - x2, p=p_distance, dim=-1, keepdim=keepdim) + eps_distance
    return d / torch.norm(d, p=p_norm, dim=dim_norm, keepdim=True).clamp(min=eps_norm)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). Every sum here adds nonnegative
# terms (|difference|^p, then d^p), so any summation order errs by at most ~sqrt(D) eps32 relative
# (~1e-6 at D = 129), and x1 - x2 rounds identically everywhere; |v|^p computed as 2^(p log2|v|)
# adds a few ulp. A wrong exponent, a missing root, eps added inside the norm instead of after it,
# or a norm over the wrong dimension moves outputs by far more than 1e-4.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x1, x2 = args["x1"], args["x2"]
    # Per element: a subtract, a multiply and an add (p = 2); the normalization is per output.
    return Cost(flops=3.0 * x1.numel() + 4.0 * output.numel(),
                bytes=float(numel_bytes(x1) + numel_bytes(x2) + numel_bytes(output)))


def _scaled_rows(g: Inputs, b: int, n: int, d: int, small: list[int], big: list[int]):
    """x1, x2 of shape (b, n, d) whose slices along dim 1 have distance norms far below (rows of
    ``small``, scaled by 1e-3) or far above (``big``, scaled by 10) 50: for eps_norm = 50."""
    x1, x2 = g.randn(b, n, d), g.randn(b, n, d)
    for i in small:
        x2[i] = x1[i] + 1e-3 * (x2[i] - x1[i])
    for i in big:
        x2[i] = x1[i] + 10.0 * (x2[i] - x1[i])
    return x1, x2


def cases(g: Inputs):
    inf = float("inf")
    # The upstream example: two 2-vectors per input, normalized along dim 0 of the distances.
    a = g.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = g.tensor([[1.0, 2.5], [2.5, 4.0]])
    yield Case("example-p2", a, b, p_distance=2.0, dim_norm=0)
    yield Case("example-p1", a, b, p_distance=1.0, dim_norm=0)
    # (batch, items, features) as upstream, odd sizes; distances normalized over the items.
    yield Case("bnd-p2", g.randn(16, 64, 32), g.randn(16, 64, 32), p_distance=2.0, dim_norm=1)
    yield Case("bnd-p1", g.randn(16, 64, 32), g.randn(16, 64, 32), p_distance=1.0, dim_norm=1)
    yield Case("outliers", g.heavy_tailed(12, 50, 37, scale=2.0), g.heavy_tailed(12, 50, 37), dim_norm=1)
    yield Case("dim0-p3", g.randn(9, 33, 70), g.uniform(9, 33, 70, low=-1.0, high=1.0), p_distance=3.0, dim_norm=0)
    yield Case("pinf", g.randn(5, 40, 129), g.randn(5, 40, 129), p_distance=inf, dim_norm=1)
    yield Case("2d-dim0", g.randn(7, 300), g.randn(7, 300), dim_norm=0)
    yield Case("4d-p1.5", g.randn(3, 5, 7, 16), g.randn(3, 5, 7, 16), p_distance=1.5, dim_norm=2)
    yield Case("defaults", g.uniform(6, 20, 9, low=-3.0, high=3.0), g.uniform(6, 20, 9, low=-3.0, high=3.0))
    # Identical rows: their distance is eps_distance alone.
    x1 = g.randn(4, 30, 12)
    x2 = g.randn(4, 30, 12)
    x2[:, ::3] = x1[:, ::3]
    yield Case("identical-rows", x1, x2, dim_norm=1)
    # Other keywords: keepdim, the normalizing norm's p, both epsilons.
    yield Case("keepdim", g.randn(8, 20, 24), g.randn(8, 20, 24), keepdim=True, dim_norm=1)
    yield Case("keepdim-last", g.randn(8, 20, 24), g.randn(8, 20, 24), keepdim=True, dim_norm=-1)
    yield Case("pnorm1", g.randn(10, 25, 16), g.randn(10, 25, 16), p_norm=1, dim_norm=1)
    yield Case("pnorm3-pdist1", g.randn(10, 25, 16), g.randn(10, 25, 16), p_distance=1.0, p_norm=3.0, dim_norm=0)
    yield Case("pnorm-inf", g.randn(10, 25, 16), g.randn(10, 25, 16), p_norm=inf, dim_norm=1)
    yield Case("eps-distance-large", g.randn(6, 18, 10, std=0.1), g.randn(6, 18, 10, std=0.1),
               eps_distance=0.5, dim_norm=1)
    # eps_norm = 50 clamps the slices of batch 0 and 2 (norms ~0.03) but not those of 1 and 3 (~300).
    yield Case("eps-norm-clamps", *_scaled_rows(g, 4, 24, 12, small=[0, 2], big=[1, 3]), eps_norm=50.0, dim_norm=1)
    # eps_distance = 0 and a slice of identical rows: its norm is 0, clamped to eps_norm, giving 0s.
    x1 = g.randn(5, 16, 8)
    x2 = g.randn(5, 16, 8)
    x2[2] = x1[2]
    yield Case("zero-slice", x1, x2, eps_distance=0.0, dim_norm=1)
    yield Case("negative-dim", g.randn(6, 10, 12), g.randn(6, 10, 12), dim_norm=-2)
    # Layouts.
    yield Case("strided", g.strided(g.randn(6, 21, 33)), g.randn(6, 21, 33), dim_norm=1)
    yield Case("transposed", g.transposed(g.randn(40, 50)), g.transposed(g.randn(40, 50)), dim_norm=0)
    yield Case("permuted", g.randn(12, 9, 20).permute(1, 0, 2), g.randn(9, 12, 20), p_distance=1.0, dim_norm=1)
    # NaN spreads over its normalized slice (batch 1 here).
    x1 = g.randn(3, 20, 16)
    x1[1, 4, 7] = float("nan")
    yield Case("nan", x1, g.randn(3, 20, 16), dim_norm=1)
    x1 = g.randn(3, 20, 16)
    x1[2, 9, 0] = float("nan")
    yield Case("nan-pinf", x1, g.randn(3, 20, 16), p_distance=inf, p_norm=inf, dim_norm=1)
    # Magnitudes: differences ~1e14 (squares ~1e28, inside float32), and ~1e-8 with eps_distance = 0.
    yield Case("large-magnitude", g.randn(4, 10, 16, std=1e14), g.randn(4, 10, 16, std=1e14), dim_norm=1)
    yield Case("tiny-values", g.randn(4, 10, 16, std=1e-8), g.randn(4, 10, 16, std=1e-8),
               eps_distance=0.0, dim_norm=1)
    yield Case("empty-batch", g.randn(0, 5, 8), g.randn(0, 5, 8), dim_norm=1)
    yield Case("empty-features", g.randn(4, 6, 0), g.randn(4, 6, 0), dim_norm=1)


def perf_cases(g: Inputs):
    # Upstream's (16, N, 128) shapes up to N = 32768: two 268 MB inputs.
    yield Case("16x8192x128", g.randn(16, 8192, 128), g.randn(16, 8192, 128), dim_norm=1)
    yield Case("16x32768x128", g.randn(16, 32768, 128), g.randn(16, 32768, 128), dim_norm=1)
    yield Case("16x32768x128-p1", g.randn(16, 32768, 128), g.randn(16, 32768, 128), p_distance=1.0, dim_norm=1)
    yield Case("16x32768x128-dim0", g.randn(16, 32768, 128), g.randn(16, 32768, 128), dim_norm=0)
