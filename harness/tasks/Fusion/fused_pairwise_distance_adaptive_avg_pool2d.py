"""Adaptive average pooling of two float32 feature maps, then the p-norm distance along the last axis."""

import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_pairwise_distance_adaptive_avg_pool2d"
SIGNATURE = "fused_pairwise_distance_adaptive_avg_pool2d(x1, x2, output_size, p=2.0, eps=1e-06, keepdim=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "keepdim", "output_size", "p"]
DIFFICULTY = 4
DESCRIPTION = """
`x1` and `x2` are float32 tensors of one shape, (N, C, H, W) or (C, H, W), possibly non-contiguous.
1. Pool both like torch.nn.functional.adaptive_avg_pool2d(x, output_size): `output_size` is an int
   S (meaning (S, S)) or a pair (S_h, S_w) of positive ints or None (None keeps that input size);
   pooled[..., i, j] is the mean of the input rectangle rows [floor(i*H/S_h), ceil((i+1)*H/S_h)) x
   columns [floor(j*W/S_w), ceil((j+1)*W/S_w)) (windows may differ in size and overlap).
2. Compute torch.nn.functional.pairwise_distance(pooled1, pooled2, p, eps, keepdim): the p-norm
   along the LAST dimension (the S_w pooled columns) of pooled1 - pooled2 + eps (eps added to every
   component before the norm): out[..., i] = (sum_j |pooled1[..., i, j] - pooled2[..., i, j] + eps|^p)^(1/p),
   the largest |.| for p = float('inf'). `p` > 0 (default 2.0), `eps` >= 0 (default 1e-6).
The result has shape x1.shape[:-2] + (S_h,), i.e. (N, C, S_h) for 4-D inputs, or with a trailing
dimension of size 1, (N, C, S_h, 1), when keepdim=True. Return a new float32 tensor; the inputs must
not be modified.
"""


def reference(x1, x2, output_size, p=2.0, eps=1e-06, keepdim=False):
    pooled1 = F.adaptive_avg_pool2d(x1, output_size)
    pooled2 = F.adaptive_avg_pool2d(x2, output_size)
    return F.pairwise_distance(pooled1, pooled2, p=p, eps=eps, keepdim=keepdim)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). Each pooled value is a mean of a
# window (a few ulp whatever the summation order), the difference of two such means loses at most
# ulp(max|pooled|) to cancellation, and the norm sums S_w nonnegative terms: the distances here are
# O(0.1..10) with errors ~1e-6 relative. A window off by one row, a sum instead of a mean, the norm
# over the wrong axis, eps added after the root or keepdim ignored are caught.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["x1"], args["x2"]
    # one add per input element for the windows, then per pooled pair a subtract, add and power
    return Cost(flops=2.0 * a.numel() + 4.0 * output.numel(), bytes=float(numel_bytes(a) + numel_bytes(b)
                                                                         + numel_bytes(output)))


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    inf = float("inf")
    # Upstream-like: (N, C, H, W) pairs halved by the pooling, several p, eps and keepdim.
    yield Case("halve", g.randn(4, 3, 16, 16), g.randn(4, 3, 16, 16), (8, 8))
    yield Case("halve-keepdim", g.randn(2, 3, 12, 20), g.randn(2, 3, 12, 20), (6, 10), keepdim=True)
    yield Case("p1-eps", g.randn(2, 4, 10, 9), g.randn(2, 4, 10, 9), (5, 3), p=1.0, eps=1e-3)
    yield Case("p3", g.randn(3, 2, 15, 14), g.uniform(3, 2, 15, 14, low=-1.0, high=1.0), (4, 7), p=3.0)
    yield Case("int-size", g.randn(2, 5, 11, 13), g.randn(2, 5, 11, 13), 6)
    yield Case("uneven-overlap", g.randn(2, 3, 9, 9), g.randn(2, 3, 9, 9), (5, 7), eps=0.0)
    yield Case("none-height", g.randn(2, 2, 7, 12), g.randn(2, 2, 7, 12), (None, 5), p=1.5)
    yield Case("global-cols", g.randn(2, 3, 20, 30), g.randn(2, 3, 20, 30), (4, 1), keepdim=True)
    yield Case("upsample", g.randn(2, 3, 3, 4), g.randn(2, 3, 3, 4), (5, 9))
    yield Case("big-windows", g.randn(1, 2, 64, 60, mean=0.5), g.randn(1, 2, 64, 60), (3, 2))
    yield Case("outliers", g.heavy_tailed(2, 4, 23, 17, scale=2.0), g.heavy_tailed(2, 4, 23, 17), (6, 5))
    # Edge: p = inf, 3-D inputs, layouts.
    yield Case("p-inf", g.randn(2, 3, 12, 12), g.randn(2, 3, 12, 12), (6, 4), p=inf)
    yield Case("unbatched-3d", g.randn(5, 11, 13), g.randn(5, 11, 13), (4, 3))
    yield Case("strided", g.strided(g.randn(2, 3, 12, 20)), g.randn(2, 3, 12, 20), (5, 6))
    yield Case("channels-last", _channels_last(g.randn(2, 6, 13, 11)), _channels_last(g.randn(2, 6, 13, 11)), (4, 4),
               keepdim=True)


def perf_cases(g: Inputs):
    # Upstream's (16, 3, H, W) maps halved per axis: 201 MB and 805 MB per input.
    yield Case("16x3x1024x1024-to-512", g.randn(16, 3, 1024, 1024), g.randn(16, 3, 1024, 1024), (512, 512))
    yield Case("16x3x2048x2048-to-1024", g.randn(16, 3, 2048, 2048), g.randn(16, 3, 2048, 2048), (1024, 1024))
    yield Case("64x256x56x56-to-7-p1", g.randn(64, 256, 56, 56), g.randn(64, 256, 56, 56), (7, 7), p=1.0)
