"""2-D convolution of float32 images followed by Leaky ReLU, fused into one kernel."""

import inspect
import warnings

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "fused_leaky_relu_conv2d"
SIGNATURE = ("fused_leaky_relu_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, "
             "negative_slope=0.01, inplace=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["bias", "dilation", "groups", "inplace", "negative_slope", "padding", "stride"]
# Beyond the upstream test (edge although their inputs look ordinary).
TIERS = {"same-even-kernel": "edge", "valid": "edge", "slope-above-1": "edge", "slope-negative": "edge",
         "outliers": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute leaky_relu(conv2d(input, weight, bias, stride, padding, dilation, groups), negative_slope)
in full float32 precision (no TF32), i.e. torch.nn.functional.conv2d followed by
torch.nn.functional.leaky_relu.
`input` is float32 (N, C_in, H, W); `weight` is float32 (C_out, C_in / groups, kH, kW); `bias` is
None or float32 (C_out,). Any of them may be non-contiguous. `stride` and `dilation` are an int or a
pair (h, w); `padding` is an int, a pair (zeros added on both sides of each spatial dimension),
'valid' (none) or 'same' (stride 1 only: total padding dilation * (k - 1) per dimension, floor of half
of it before, the rest after). `groups` splits the channels: output channel o sees only the input
channels of its group g = o // (C_out / groups). The convolution is a cross-correlation (no kernel
flip): conv[n, o, i, j] = bias[o] + sum over c in the group, r, s of
input[n, c, i * stride_h - pad_top + r * dilation_h, j * stride_w - pad_left + s * dilation_w]
* weight[o, c - g * C_in / groups, r, s], positions outside the input reading 0, with output size
H_out = floor((H + pad_total_h - dilation_h * (kH - 1) - 1) / stride_h) + 1 (likewise W_out).
Then an element conv > 0 is kept and any other becomes negative_slope * conv; `negative_slope` is
a Python float (default 0.01, any value, also negative or above 1). `inplace` (default False) only
says the activation may overwrite the convolution's own (fresh) result; it never modifies the
inputs. Return a new float32 tensor (N, C_out, H_out, W_out); the inputs must not be modified. A
fused kernel applies the activation to the accumulator before storing, so the pre-activation tensor
is never written to memory.
"""

# Each output is a K = C_in / groups * kH * kW term float32 dot product whose summation order differs
# between implementations; its error grows like sqrt(K) * eps32 * RMS (<= 2.2e-6 of the RMS here,
# K <= 576). atol = 5e-5 of the output's RMS leaves room for transform-based (Winograd/FFT) GPU
# algorithms; the slope multiply adds one rounding (covered by rtol). A missing tap, channel or bias
# term moves outputs by about RMS / sqrt(K) >= 4e-2 of the RMS; a wrong slope moves the negative half.
TOLERANCE = {torch.float32: Tolerance(atol=5e-5, rtol=1e-4)}


def reference(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, negative_slope=0.01,
              inplace=False):
    with warnings.catch_warnings():
        # padding='same' with an even kernel warns that PyTorch pads a copy of the input; harmless.
        warnings.simplefilter("ignore", UserWarning)
        conv = F.conv2d(input, weight, bias, stride, padding, dilation, groups)
    return F.leaky_relu(conv, negative_slope=negative_slope, inplace=inplace)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("3x3-bias", r(2, 4, 9, 11), r(6, 4, 3, 3), bias=r(6))
    yield Case("3x3-pad1-slope", r(2, 8, 10, 10), r(16, 8, 3, 3), padding=1, negative_slope=0.1)
    yield Case("3x3-s2-p1-bias", r(2, 8, 15, 13), r(12, 8, 3, 3), bias=r(12), stride=2, padding=1)
    yield Case("rect-kernel-tuple-args", r(1, 5, 12, 9), r(7, 5, 3, 5), bias=r(7), stride=(2, 1), padding=(0, 2))
    yield Case("dilation-2", r(2, 4, 13, 13), r(8, 4, 3, 3), padding=2, dilation=2)
    yield Case("dilation-tuple", r(1, 6, 11, 16), r(5, 6, 3, 3), bias=r(5), stride=(1, 2), padding=(1, 3),
               dilation=(1, 3))
    yield Case("groups-2-slope", r(2, 8, 9, 9), r(6, 4, 3, 3), bias=r(6), groups=2, negative_slope=0.2)
    yield Case("depthwise", r(2, 8, 12, 12), r(8, 1, 3, 3), bias=r(8), padding=1, groups=8)
    yield Case("groups-4-dilated", r(2, 8, 10, 7), r(12, 2, 3, 3), stride=1, padding=(2, 1), dilation=(2, 1),
               groups=4)
    yield Case("1x1", r(2, 32, 7, 7), r(24, 32, 1, 1), bias=r(24))
    yield Case("deep-K-576", r(1, 64, 6, 6), r(32, 64, 3, 3), bias=r(32), padding=1)
    yield Case("stem-7x7-s2-p3", r(1, 3, 20, 20), r(8, 3, 7, 7), bias=r(8), stride=2, padding=3)
    yield Case("shifted-bias", r(2, 4, 8, 8), r(6, 4, 3, 3), bias=g.uniform(6, low=-3.0, high=3.0), padding=1)
    # Beyond the upstream test: string paddings, in-place flag, layouts, outliers.
    yield Case("same-even-kernel", r(1, 3, 10, 9), r(5, 3, 4, 2), bias=r(5), padding="same")
    yield Case("valid", r(2, 3, 8, 8), r(4, 3, 3, 2), bias=r(4), padding="valid")
    yield Case("inplace", r(2, 4, 7, 9), r(6, 4, 3, 3), bias=r(6), padding=1, negative_slope=0.3, inplace=True)
    yield Case("slope-above-1", r(1, 4, 8, 8), r(5, 4, 3, 3), bias=r(5), negative_slope=1.5)
    yield Case("slope-negative", r(1, 4, 8, 8), r(5, 4, 3, 3), padding=1, negative_slope=-0.5)
    yield Case("outliers", g.heavy_tailed(2, 4, 10, 10, scale=2.0), r(8, 4, 3, 3), bias=r(8), padding=1)
    yield Case("strided-input", g.strided(r(2, 4, 9, 10)), r(6, 4, 3, 3), bias=g.strided(r(6)), padding=1)
    yield Case("channels-last", _channels_last(r(2, 8, 9, 9)), _channels_last(r(8, 8, 3, 3)), bias=r(8),
               padding=1)


def perf_cases(g: Inputs):
    r = g.randn
    # upstream's 3-channel 3x3 stem at its largest 1408^2 size (64 outputs, not 6, so not launch-bound),
    # and ResNet-like layers
    yield Case("stem-1x3x1408x1408-to-64", r(1, 3, 1408, 1408), r(64, 3, 3, 3), bias=r(64), padding=1,
               negative_slope=0.1)
    yield Case("resnet-3x3-32x64x56x56", r(32, 64, 56, 56), r(64, 64, 3, 3), bias=r(64), padding=1)
    yield Case("resnet-3x3-s2-32x128x56x56-to-256", r(32, 128, 56, 56), r(256, 128, 3, 3), bias=r(256),
               stride=2, padding=1)
    yield Case("resnext-g32-32x256x28x28", r(32, 256, 28, 28), r(256, 8, 3, 3), bias=r(256), padding=1,
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
    return Cost(flops=2.0 * macs + 2.0 * output.numel(), bytes=float(moved))  # + compare, multiply
