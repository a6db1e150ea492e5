"""Adaptive 2-D average pooling of float32 feature maps followed by the logistic sigmoid."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_sigmoid_adaptive_avg_pool2d"
SIGNATURE = "fused_sigmoid_adaptive_avg_pool2d(input, output_size)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Compute torch.sigmoid(torch.nn.functional.adaptive_avg_pool2d(input, output_size)). `input` is a
float32 tensor of shape (N, C, H, W) or (C, H, W), possibly non-contiguous (e.g. channels-last).
`output_size` is an int S (meaning (S, S)) or a pair (S_h, S_w) of positive ints or None (None keeps
that input size). Pooled position (i, j) of every plane is the mean of the input rectangle rows
[floor(i*H/S_h), ceil((i+1)*H/S_h)) x columns [floor(j*W/S_w), ceil((j+1)*W/S_w)) (windows may
differ in size and overlap; S may exceed the input size); the output is 1 / (1 + exp(-mean)), which
must be 0 or 1 (not NaN) where the mean is hugely negative or positive. Return a new float32 tensor
of shape (N, C, S_h, S_w) (or (C, S_h, S_w) for a 3-D input); its memory layout does not matter. The
input must not be modified.
"""


def reference(input, output_size):
    return torch.sigmoid(F.adaptive_avg_pool2d(input, output_size))


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). A window mean carries a few ulp in
# any summation order and the sigmoid's slope is at most 1/4, so outputs in (0, 1) err by ~1e-7; a
# window off by one row or column, a sum instead of a mean, or a sigmoid of the wrong sign is caught.


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    # about one add per input element, then a divide and a sigmoid (3) per output
    return Cost(flops=float(x.numel() + 4 * output.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    # Upstream-like (N, C, H, W) maps pooled to half size and to 1x1.
    yield Case("halve", g.randn(2, 3, 16, 16, std=3.0), (8, 8))
    yield Case("global", g.randn(4, 8, 7, 7, mean=0.5), (1, 1))
    yield Case("uneven-overlap", g.randn(2, 3, 9, 9, std=3.0), (5, 7))
    yield Case("int-size", g.randn(2, 8, 10, 9, std=2.0), 7)
    yield Case("none-height", g.randn(2, 4, 10, 9, std=2.0), (None, 4))
    yield Case("none-width", g.uniform(2, 4, 11, 6, low=-3.0, high=3.0), (5, None))
    yield Case("identity", g.randn(2, 3, 6, 5, std=4.0), (6, 5))
    yield Case("upsample", g.randn(2, 3, 3, 4, std=2.0), (5, 9))
    yield Case("big-windows", g.randn(2, 2, 64, 60, mean=0.3), (3, 2))
    yield Case("long-window", g.randn(1, 2, 100, 100, mean=0.2), 1)
    yield Case("outliers", g.heavy_tailed(2, 4, 23, 17, scale=2.0), (6, 5))
    # Edge: 3-D input, layouts, saturating means.
    yield Case("unbatched-3d", g.randn(6, 11, 13, std=2.0), (4, 3))
    yield Case("strided", g.strided(g.randn(2, 3, 12, 20, std=2.0)), (5, 6))
    yield Case("transposed", g.transposed(g.randn(2, 3, 14, 19, std=2.0)), (3, 4))
    yield Case("channels-last", _channels_last(g.randn(2, 6, 13, 11, std=2.0)), (4, 4))
    yield Case("saturating", g.randn(2, 3, 8, 8, std=500.0), (4, 4))


def perf_cases(g: Inputs):
    # Upstream's maps at H200 scale (201-805 MB in).
    yield Case("16x3x2048x2048-to-1024", g.randn(16, 3, 2048, 2048), (1024, 1024))
    yield Case("8x8x2048x2048-to-256", g.randn(8, 8, 2048, 2048), (256, 256))
    yield Case("64x256x56x56-to-7", g.randn(64, 256, 56, 56), (7, 7))
