"""Cosine of a float32 signal followed by 1-D average pooling (kernel size, stride, zero padding,
ceil mode, count_include_pad)."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_cos_avg_pool1d"
SIGNATURE = "fused_cos_avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["ceil_mode", "kernel_size", "padding", "stride"]
# Arguments up to 1e4 need cos's accurate argument reduction; the upstream test draws normal inputs.
TIERS = {"large-arguments": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Take the cosine of every element of `input`, then average-pool the result along the last dimension,
like torch.nn.functional.avg_pool1d(torch.cos(input), kernel_size, stride, padding, ceil_mode,
count_include_pad). `input` is float32 of shape (N, C, L) or (C, L), possibly non-contiguous.
`kernel_size` k, `stride` s and `padding` p are ints or 1-tuples; stride=None means s = k; 0 <= p <= k/2.
The cosine signal is extended by p ZEROS on both ends (the padding is not cos(0)); window l starts at
l*s - p and covers k positions. Output length: floor((L + 2p - k) / s) + 1, or with ceil_mode=True
ceil((L + 2p - k) / s) + 1, dropping the last window if it would start at or beyond L + p (so with
ceil_mode a last, partial window may run past the padded end). Each output is the sum of the cosines
in its window divided by: with count_include_pad=True (default) the number of its positions inside
[-p, L + p) (k, except for a partial last window in ceil mode); with count_include_pad=False the
number of its positions inside the input [0, L). cos must be accurate for large arguments (the
cosine of the float32 value itself); NaN or inf in the input gives NaN in the windows that contain
it. Fuse both steps (no intermediate of cosines). Return a new float32 tensor of shape
(N, C, L_out) (or (C, L_out)); the input must not be modified.
"""


def reference(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return F.avg_pool1d(torch.cos(input), kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                        count_include_pad=count_include_pad)


def cost(case: Case, output) -> Cost:
    k = bind_arguments(reference, case)["kernel_size"]
    k = k[0] if isinstance(k, (tuple, list)) else k
    x = case.args[0]
    # A cosine per input element (~20 operations with its argument reduction), k adds and a scaling
    # per output; the input read once, the output written once.
    return Cost(flops=float(20 * x.numel() + k * output.numel()),
                bytes=float(numel_bytes(x) + numel_bytes(output)))


def cases(g: Inputs):
    yield Case("example", g.tensor([[[1.0, 2.0, 3.0, 4.0, 5.0]]]), 2, stride=1)
    yield Case("k3-default-stride", g.randn(4, 8, 50), 3)
    yield Case("k4-s2-overlap", g.randn(2, 5, 101, std=2.0), 4, stride=2)
    yield Case("k5-s2-p2", g.heavy_tailed(3, 4, 97, scale=2.0), 5, stride=2, padding=2)
    # k even with the largest allowed padding: the first and last windows are half zeros.
    yield Case("k4-s1-p2", g.uniform(2, 3, 64, low=-3.0, high=3.0), 4, stride=1, padding=2)
    yield Case("k2-s5-p1", g.randn(3, 7, 83), 2, stride=5, padding=1)
    yield Case("k1-s3", g.randn(2, 3, 29), 1, stride=3)
    yield Case("drop-tail", g.randn(5, 6, 10), 3, stride=3)
    # ceil_mode: a last partial window (divisor clipped to the padded end), and one that is dropped.
    yield Case("ceil-k3-s2", g.randn(4, 8, 50), 3, stride=2, ceil_mode=True)
    yield Case("ceil-k4-s3-p2", g.randn(3, 5, 10), 4, stride=3, padding=2, ceil_mode=True)
    yield Case("ceil-k2-s4-p1-drop", g.randn(3, 5, 10), 2, stride=4, padding=1, ceil_mode=True)
    yield Case("ceil-exact-fit", g.randn(2, 4, 64), 4, stride=4, ceil_mode=True)
    yield Case("unbatched-2d", g.randn(7, 333), 3, stride=1, padding=1)
    yield Case("tuple-args", g.randn(2, 6, 90), (4,), stride=(3,), padding=(2,), ceil_mode=True)
    yield Case("global-window", g.randn(3, 4, 64), 64)
    yield Case("long-rows", g.randn(2, 2, 4000, std=3.0), 8, stride=8)
    # Edge: count_include_pad=False, large arguments, special values, layouts, sizes.
    yield Case("no-pad-count-p2", g.randn(3, 4, 97), 5, stride=2, padding=2, count_include_pad=False)
    yield Case("no-pad-count-ceil", g.randn(3, 5, 10), 4, stride=3, padding=2, ceil_mode=True, count_include_pad=False)
    yield Case("large-arguments", g.uniform(2, 3, 200, low=-1e4, high=1e4), 3, stride=2, padding=1)
    x = g.randn(2, 3, 40)
    x[0, 1, 5] = float("nan")
    x[1, 2, 20] = float("inf")
    yield Case("nan-inf", x, 4, stride=2, padding=1)
    yield Case("strided", g.strided(g.randn(3, 6, 40)), 3, stride=2, padding=1)
    yield Case("transposed", g.transposed(g.randn(4, 16, 90)), 6, stride=4, padding=3, ceil_mode=True)
    yield Case("length-1", g.randn(3, 5, 1), 1)
    yield Case("empty-batch", g.randn(0, 4, 20), 3)


def perf_cases(g: Inputs):
    yield Case("32x256x8192-k3", g.randn(32, 256, 8192, std=2.0), 3)
    yield Case("64x512x4096-k2-s2-ceil", g.randn(64, 512, 4095, std=2.0), 2, stride=2, ceil_mode=True)
    yield Case("32x512x8192-k5-s1-p2", g.randn(32, 512, 8192, std=2.0), 5, stride=1, padding=2)
