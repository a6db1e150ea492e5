"""2-D adaptive average pooling of float32 feature maps to a requested output size."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "adaptive_avg_pool2d"
SIGNATURE = "adaptive_avg_pool2d(input, output_size)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Adaptive 2-D average pooling, like torch.nn.functional.adaptive_avg_pool2d(input, output_size).
`input` is a float32 tensor of shape (N, C, H, W) or (C, H, W), possibly non-contiguous (e.g.
channels-last). `output_size` is an int S (meaning (S, S)) or a pair (S_h, S_w) whose entries are
positive ints or None (None keeps that input dimension: S_h = H or S_w = W). Output position
(i, j) of every (n, c) plane is the mean of the input rectangle rows [floor(i*H/S_h),
ceil((i+1)*H/S_h)) x columns [floor(j*W/S_w), ceil((j+1)*W/S_w)), i.e. its sum divided by the
number of elements in that rectangle. Windows may differ in size and overlap when H or W is not a
multiple of the output size, and S may exceed the input size (then windows hold one or two
elements). Return a new float32 tensor of shape (N, C, S_h, S_w) (or (C, S_h, S_w) for a 3-D input);
its memory layout does not matter. The input must not be modified.
"""


def reference(input, output_size):
    return F.adaptive_avg_pool2d(input, output_size)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    yield Case("uneven-overlap", g.randn(2, 3, 9, 9), (5, 7))
    yield Case("int-size", g.randn(2, 8, 10, 9), 7)
    yield Case("none-height", g.randn(2, 4, 10, 9), (None, 4))
    yield Case("none-width", g.uniform(2, 4, 11, 6, low=-1.0, high=3.0), (5, None))
    yield Case("global", g.randn(4, 16, 7, 7, mean=1.0), 1)
    yield Case("even-2x2", g.randn(2, 5, 16, 16), (8, 8))
    yield Case("identity", g.randn(2, 3, 6, 5), (6, 5))
    yield Case("upsample", g.randn(2, 3, 3, 4), (5, 9))
    yield Case("unbatched-3d", g.randn(6, 11, 13), (4, 3))
    yield Case("single-row", g.randn(2, 3, 1, 50), (1, 7))
    yield Case("big-windows", g.randn(2, 2, 64, 60), (3, 2))
    # One 100x100 window: longer than one tile, so kernels must loop over it.
    yield Case("long-window", g.randn(1, 2, 100, 100, mean=0.5), 1)
    yield Case("outliers", g.heavy_tailed(2, 4, 23, 17, scale=2.0), (6, 5))
    yield Case("large-offset", g.uniform(1, 4, 15, 21, low=500.0, high=501.0), (4, 6))
    yield Case("strided", g.strided(g.randn(2, 3, 12, 20)), (5, 6))
    yield Case("transposed", g.transposed(g.randn(2, 3, 14, 19)), (3, 4))
    yield Case("channels-last", _channels_last(g.randn(2, 6, 13, 11)), (4, 4))
    yield Case("size-1-input", g.randn(3, 2, 1, 1), (2, 3))


def perf_cases(g: Inputs):
    yield Case("resnet-global-256x2048x7x7", g.randn(256, 2048, 7, 7), 1)
    yield Case("feature-64x256x56x56-to-7x7", g.randn(64, 256, 56, 56), (7, 7))
    yield Case("image-4x3x4096x4096-to-1000x1000", g.randn(4, 3, 4096, 4096), (1000, 1000))


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    # about one add per input element (windows overlap a little) and one divide per output
    return Cost(flops=float(x.numel() + output.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))
