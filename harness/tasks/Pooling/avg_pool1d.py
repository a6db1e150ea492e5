"""1-D average pooling of a float32 signal with kernel size, stride and zero padding."""

import inspect

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "avg_pool1d"
SIGNATURE = "avg_pool1d(input, kernel_size, stride=None, padding=0)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_KWARGS = ["kernel_size", "padding", "stride"]
DIFFICULTY = 2
DESCRIPTION = """
Average-pool a float32 signal along its last dimension, like
torch.nn.functional.avg_pool1d(input, kernel_size, stride=stride, padding=padding) with PyTorch's
defaults for everything else (ceil_mode=False, count_include_pad=True). `input` has shape
(N, C, L) or (C, L) and may be non-contiguous. `kernel_size` k, `stride` s and `padding` p are ints
or 1-tuples of an int; `stride=None` (the default) means s = k; p defaults to 0 and is at most k/2.
The signal is conceptually extended by p zeros on both ends; output position l (0 <= l < L_out,
L_out = floor((L + 2p - k) / s) + 1) is the sum of the k (padded) values starting at index
l*s - p, divided by k: padded zeros count towards the divisor. Trailing input values that do not
fill a whole window are dropped. Return a new float32 tensor of shape (N, C, L_out) (or (C, L_out)
for a 2-D input). The input must not be modified.
"""


def reference(input, kernel_size, stride=None, padding=0):
    return F.avg_pool1d(input, kernel_size, stride=stride, padding=padding)


def cases(g: Inputs):
    yield Case("k3-default-stride", g.randn(4, 8, 50), 3)
    yield Case("k4-s2-overlap", g.randn(2, 5, 101), 4, stride=2)
    yield Case("k5-s2-p2", g.heavy_tailed(3, 4, 97, scale=2.0), 5, stride=2, padding=2)
    # k even with the largest allowed padding: the first and last windows are half zeros.
    yield Case("k4-s1-p2", g.uniform(2, 3, 64, low=1.0, high=3.0), 4, stride=1, padding=2)
    # stride larger than the window: inputs between windows are skipped.
    yield Case("k2-s5-p1", g.randn(3, 7, 83), 2, stride=5, padding=1)
    yield Case("k1-copy", g.randn(2, 3, 17), 1)
    yield Case("k1-s3", g.randn(2, 3, 29), 1, stride=3)
    # L not a multiple of the stride: the incomplete last window is dropped.
    yield Case("drop-tail", g.randn(5, 6, 10), 3, stride=3)
    yield Case("unbatched-2d", g.randn(7, 333), 3, stride=1, padding=1)
    yield Case("tuple-args", g.randn(2, 6, 90), (4,), stride=(3,), padding=(2,))
    yield Case("global-window", g.randn(3, 4, 64, mean=2.0), 64)
    yield Case("large-offset", g.uniform(2, 4, 200, low=1000.0, high=1001.0), 7, stride=3, padding=3)
    yield Case("strided", g.strided(g.randn(3, 6, 40)), 3, stride=2, padding=1)
    yield Case("transposed", g.transposed(g.randn(4, 16, 90)), 6, stride=4, padding=3)
    yield Case("length-1", g.randn(3, 5, 1), 1)
    yield Case("long-rows", g.randn(2, 2, 4000), 8, stride=8)


def perf_cases(g: Inputs):
    yield Case("32x256x8192-k3-s2-p1", g.randn(32, 256, 8192), 3, stride=2, padding=1)
    yield Case("32x512x8192-k2", g.randn(32, 512, 8192), 2)
    yield Case("64x512x8192-k5-s1-p2", g.randn(64, 512, 8192), 5, stride=1, padding=2)


def cost(case: Case, output) -> Cost:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    k = bound.arguments["kernel_size"]
    k = k[0] if isinstance(k, (tuple, list)) else k
    # k - 1 adds and one scaling per output
    return Cost(flops=float(output.numel() * k), bytes=float(numel_bytes(case.args[0]) + numel_bytes(output)))
