"""p-norm distance between the rows of two float32 matrices after p-normalizing every row."""

import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_pairwise_distance_normalize"
SIGNATURE = ("fused_pairwise_distance_normalize(x1, x2, p_norm=2.0, eps_norm=1e-12, eps_distance=1e-06, "
             "keepdim=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps_distance", "eps_norm", "keepdim", "p_norm"]
DIFFICULTY = 2
DESCRIPTION = """
`x1` and `x2` are float32 matrices of shape (N, D) (either may be non-contiguous). With p = p_norm
(a positive float, default 2.0, or float('inf')) and ||v||_p = (sum_k |v_k|^p)^(1/p) (max_k |v_k| for
p = inf):
1. normalize every row of both inputs, u = x / max(||x||_p, eps_norm) (as
   torch.nn.functional.normalize(x, p, dim=1, eps=eps_norm): a row whose norm is below eps_norm is
   divided by eps_norm instead; eps_norm > 0, default 1e-12);
2. out[i] = ||u1[i] - u2[i] + eps_distance||_p, the norm of the row difference with eps_distance
   (>= 0, default 1e-6) added to every component first (as torch.nn.functional.pairwise_distance).
Return a new float32 tensor of shape (N,), or (N, 1) when keepdim=True. The inputs must not be
modified.
"""


def reference(x1, x2, p_norm=2.0, eps_norm=1e-12, eps_distance=1e-06, keepdim=False):
    u1 = F.normalize(x1, p=p_norm, dim=1, eps=eps_norm)
    u2 = F.normalize(x2, p=p_norm, dim=1, eps=eps_norm)
    return F.pairwise_distance(u1, u2, p=p_norm, eps=eps_distance, keepdim=keepdim)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). Every norm sums D nonnegative terms
# (error <= ~sqrt(D) eps32 relative in any order), |v|^p evaluated as 2^(p log2|v|) adds a few ulp of
# relative error per term, and the distances here are O(0.1..1): all far below 1e-4. A wrong p in
# one of the two norms, eps_distance added after the root or dropped, eps_norm added instead of used
# as a floor, or keepdim ignored are caught.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["x1"], args["x2"]
    # per element: squares for both norms, then a scale, subtract, add and square for the distance
    return Cost(flops=8.0 * a.numel(), bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(output)))


def cases(g: Inputs):
    inf = float("inf")
    # Upstream-like (N, D) rows: the default p = 2 and other p, eps values and keepdim.
    yield Case("default", g.randn(64, 128), g.randn(64, 128))
    yield Case("keepdim", g.randn(37, 50), g.randn(37, 50), keepdim=True)
    yield Case("p1", g.randn(40, 33), g.randn(40, 33), p_norm=1.0)
    yield Case("p3-keepdim", g.randn(25, 70), g.uniform(25, 70, low=-1.0, high=1.0), p_norm=3.0, keepdim=True)
    yield Case("p-half", g.randn(20, 19), g.randn(20, 19), p_norm=0.5)
    yield Case("eps-distance-big", g.randn(30, 16), g.randn(30, 16), eps_distance=0.05)
    yield Case("eps-distance-0", g.randn(30, 16), g.randn(30, 16), eps_distance=0.0)
    # eps_norm above some rows' norms: those rows are divided by eps_norm, not by their norm.
    yield Case("eps-norm-floor", g.randn(32, 24) * g.uniform(32, 1, low=0.1, high=10.0), g.randn(32, 24),
               eps_norm=3.0)
    a = g.randn(50, 64)
    yield Case("similar-rows", a, a + 0.3 * g.randn(50, 64), eps_norm=1e-6, eps_distance=1e-4)
    yield Case("wide-row", g.randn(8, 3000), g.randn(8, 3000))
    yield Case("outliers", g.heavy_tailed(64, 40, scale=3.0), g.heavy_tailed(64, 40), p_norm=2.0)
    # Edge: p = inf, layouts, an all-zero row, extreme magnitudes.
    yield Case("p-inf", g.randn(30, 45), g.randn(30, 45), p_norm=inf)
    yield Case("transposed", g.transposed(g.randn(40, 24)), g.randn(40, 24), keepdim=True)
    yield Case("strided", g.randn(33, 17), g.strided(g.randn(33, 17)), p_norm=1.0)
    z = g.randn(10, 8)
    z[4] = 0.0
    yield Case("zero-row", z, g.randn(10, 8))
    yield Case("huge-values", g.randn(20, 30, std=1e15), g.randn(20, 30, std=1e15))


def perf_cases(g: Inputs):
    # Upstream's (N, 128) rows, grown to fill an H200 (268 MB and 1.07 GB per input).
    yield Case("524288x128", g.randn(1 << 19, 128), g.randn(1 << 19, 128))
    yield Case("2097152x128-p1-keepdim", g.randn(1 << 21, 128), g.randn(1 << 21, 128), p_norm=1.0, keepdim=True)
    yield Case("65536x1024-p3", g.randn(65536, 1024), g.randn(65536, 1024), p_norm=3.0)
