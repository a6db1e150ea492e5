"""2-D convolution (cross-correlation) of float32 images with stride, padding, dilation and groups."""

import inspect
import warnings

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "conv2d"
SIGNATURE = "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dilation", "padding", "stride"]
DIFFICULTY = 4
DESCRIPTION = """
2-D convolution like torch.nn.functional.conv2d(input, weight, bias, stride, padding, dilation,
groups), in full float32 precision (no TF32). `input` is float32 (N, C_in, H, W) or unbatched
(C_in, H, W); `weight` is float32 (C_out, C_in / groups, kH, kW); `bias` is None or float32 (C_out,).
Any of them may be non-contiguous. `stride` and `dilation` are an int or a pair (h, w). `padding`
is an int, a pair (pad_h, pad_w) (that many zeros on both sides), 'valid' (no padding) or 'same'
(only with stride 1: total padding dilation * (k - 1) per dimension, floor of half of it before and
the rest after, so the output keeps the input's spatial size even for even kernels). `groups`
splits the channels: output channel o uses only input channels of its group
g = o // (C_out / groups), i.e. [g * C_in / groups, (g + 1) * C_in / groups). Output size
H_out = floor((H + pad_before + pad_after - dilation_h * (kH - 1) - 1) / stride_h) + 1 (same for W),
and out[n, o, i, j] = bias[o] + sum over c in the group, r < kH, s < kW of
in[n, c, i * stride_h - pad_h_before + r * dilation_h, j * stride_w - pad_w_before + s * dilation_w]
* weight[o, c - g * C_in / groups, r, s], with positions outside the input reading 0 (no kernel flip).
Return a new float32 tensor (N, C_out, H_out, W_out) (or (C_out, H_out, W_out) for an unbatched
input). The inputs must not be modified.
"""

# Each output is a dot product of K = C_in / groups * kH * kW terms, summed in float32 in an order
# that differs between implementations (cuDNN may also pick Winograd/FFT algorithms, whose transforms
# add rounding). The error grows like sqrt(K) * eps32 * (RMS of the output): on these cases (K <= 576)
# both a tiled tl.dot kernel and PyTorch's CPU path stay within 2.2e-6 of the RMS of the float64
# result. atol = 5e-5 of the RMS leaves room for transform-based GPU algorithms, while a real bug (one
# missing tap or channel) changes outputs by about RMS / sqrt(K) >= 4e-2 of the RMS.
TOLERANCE = {torch.float32: Tolerance(atol=5e-5, rtol=1e-4)}


def reference(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    with warnings.catch_warnings():
        # padding='same' with an even kernel warns that PyTorch pads a copy of the input; harmless.
        warnings.simplefilter("ignore", UserWarning)
        return F.conv2d(input, weight, bias, stride, padding, dilation, groups)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("3x3-bias", r(2, 4, 9, 11), r(6, 4, 3, 3), r(6))
    yield Case("3x3-pad1", r(2, 8, 10, 10), r(16, 8, 3, 3), padding=1)
    yield Case("3x3-s2-p1-bias", r(2, 8, 15, 13), r(12, 8, 3, 3), r(12), stride=2, padding=1)
    yield Case("rect-kernel-tuple-args", r(1, 5, 12, 9), r(7, 5, 3, 5), r(7), stride=(2, 1), padding=(0, 2))
    yield Case("dilation-2", r(2, 4, 13, 13), r(8, 4, 3, 3), None, 1, 2, 2)
    yield Case("dilation-tuple", r(1, 6, 11, 16), r(5, 6, 3, 3), r(5), stride=(1, 2), padding=(1, 3),
               dilation=(1, 3))
    yield Case("groups-2", r(2, 8, 9, 9), r(6, 4, 3, 3), r(6), groups=2)
    yield Case("depthwise", r(2, 8, 12, 12), r(8, 1, 3, 3), r(8), padding=1, groups=8)
    yield Case("groups-4-multiplier", r(2, 8, 10, 7), r(12, 2, 3, 3), None, stride=1, padding=(2, 1),
               dilation=(2, 1), groups=4)
    yield Case("1x1", r(2, 32, 7, 7), r(24, 32, 1, 1), r(24))
    yield Case("1x1-s2-shortcut", r(2, 16, 9, 9), r(20, 16, 1, 1), stride=2)
    yield Case("same-even-kernel", r(1, 3, 10, 9), r(5, 3, 4, 2), r(5), padding="same")
    yield Case("same-dilated", r(2, 4, 8, 11), r(6, 4, 3, 3), padding="same", dilation=(2, 3))
    yield Case("valid", r(2, 3, 8, 8), r(4, 3, 3, 2), r(4), padding="valid")
    yield Case("deep-K-576", r(1, 64, 6, 6), r(32, 64, 3, 3), r(32), padding=1)
    yield Case("stem-7x7-s2-p3", r(1, 3, 20, 20), r(8, 3, 7, 7), r(8), stride=2, padding=3)
    yield Case("kernel-larger-than-input", r(1, 2, 3, 3), r(4, 2, 5, 5), r(4), padding=2)
    yield Case("tiny", r(1, 1, 6, 5), r(1, 1, 5, 5))
    yield Case("unbatched", r(3, 8, 8), r(4, 3, 3, 3), r(4), padding=1)
    yield Case("outliers", g.heavy_tailed(2, 4, 10, 10, scale=2.0), r(8, 4, 3, 3), r(8), padding=1)
    yield Case("positive-uniform", g.uniform(2, 6, 9, 9, low=0.0, high=4.0), g.uniform(5, 6, 3, 3),
               g.uniform(5, low=-1.0, high=1.0), stride=2)
    yield Case("strided-input", g.strided(r(2, 4, 9, 10)), r(6, 4, 3, 3), g.strided(r(6)), padding=1)
    yield Case("channels-last", _channels_last(r(2, 8, 9, 9)), _channels_last(r(8, 8, 3, 3)), r(8),
               padding=1)
    yield Case("transposed-input", g.transposed(r(2, 3, 11, 8)), r(4, 3, 2, 3), r(4), stride=(1, 2))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("resnet-3x3-32x64x56x56", r(32, 64, 56, 56), r(64, 64, 3, 3), r(64), padding=1)
    yield Case("resnet-3x3-s2-32x128x56x56-to-256", r(32, 128, 56, 56), r(256, 128, 3, 3), r(256),
               stride=2, padding=1)
    yield Case("resnet-1x1-32x256x56x56-to-64", r(32, 256, 56, 56), r(64, 256, 1, 1), r(64))
    yield Case("resnet-3x3-64x256x14x14", r(64, 256, 14, 14), r(256, 256, 3, 3), r(256), padding=1)
    yield Case("resnext-g32-32x256x28x28", r(32, 256, 28, 28), r(256, 8, 3, 3), r(256), padding=1,
               groups=32)


def cost(case: Case, output) -> Cost:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    a = bound.arguments
    w = a["weight"]
    macs = output.numel() * w[0].numel()  # each output: C_in / groups * kH * kW products
    moved = numel_bytes(a["input"]) + numel_bytes(w) + numel_bytes(output)
    if a["bias"] is not None:
        moved += numel_bytes(a["bias"])
    return Cost(flops=2.0 * macs, bytes=float(moved))
