"""2-D convolution of float32 images plus alpha times a tensor or number, fused, optionally into out=."""

import inspect
import warnings

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "fused_conv2d_add"
SIGNATURE = ("fused_conv2d_add(input, weight, bias=None, other=None, stride=1, padding=0, dilation=1, groups=1, "
             "alpha=1, out=None)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "bias", "other", "padding", "stride"]
# Beyond the upstream test (edge although their inputs look ordinary).
TIERS = {"same-even-kernel": "edge", "valid": "edge", "other-per-channel": "edge",
         "other-broadcast-batch": "edge", "outliers": "edge"}
DIFFICULTY = 4
DESCRIPTION = """
Compute conv2d(input, weight, bias, stride, padding, dilation, groups) + alpha * other in full
float32 precision (no TF32), i.e. torch.nn.functional.conv2d followed by torch.add(..., other,
alpha=alpha).
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
Then alpha * other is added: `other` is None (nothing is added, alpha is ignored), a Python number,
or a float32 tensor broadcastable to the convolution's shape (N, C_out, H_out, W_out) -- the full
shape, a per-channel (C_out, 1, 1), a (1, C_out, H_out, W_out), ... -- possibly non-contiguous.
`alpha` is a Python number (default 1). If `out` is None return a new float32 tensor
(N, C_out, H_out, W_out); otherwise `out` is a float32 tensor of that shape (possibly a
non-contiguous view): write the result into it and return `out` itself. The inputs must not be
modified. A fused kernel adds alpha * other to the accumulator before storing, so the convolution's
own result is never written to memory.
"""

# Each output is a K = C_in / groups * kH * kW term float32 dot product whose summation order differs
# between implementations; its error grows like sqrt(K) * eps32 * RMS (<= 2.2e-6 of the RMS here,
# K <= 576). atol = 5e-5 of the output's RMS leaves room for transform-based (Winograd/FFT) GPU
# algorithms; the scaled addition adds two roundings (rtol). A missing tap, channel or bias term moves
# outputs by about RMS / sqrt(K) >= 4e-2 of the RMS; a wrong alpha or broadcast moves them by O(1).
TOLERANCE = {torch.float32: Tolerance(atol=5e-5, rtol=1e-4)}


def reference(input, weight, bias=None, other=None, stride=1, padding=0, dilation=1, groups=1, alpha=1,
              out=None):
    with warnings.catch_warnings():
        # padding='same' with an even kernel warns that PyTorch pads a copy of the input; harmless.
        warnings.simplefilter("ignore", UserWarning)
        conv = F.conv2d(input, weight, bias, stride, padding, dilation, groups)
    result = conv if other is None else torch.add(conv, other, alpha=alpha)
    return result if out is None else out.copy_(result)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("3x3-bias-other-alpha", r(1, 3, 5, 5), r(2, 3, 3, 3), bias=r(2), other=r(1, 2, 5, 5), padding=1,
               alpha=0.5)
    yield Case("scalar-other", r(1, 3, 5, 5), r(2, 3, 3, 3), bias=r(2), other=3, padding=1)
    yield Case("3x3-pad1-other", r(2, 8, 10, 10), r(16, 8, 3, 3), other=r(2, 16, 10, 10), padding=1)
    yield Case("s2-p1-bias-other", r(2, 8, 15, 13), r(12, 8, 3, 3), bias=r(12), other=r(2, 12, 8, 7),
               stride=2, padding=1, alpha=-2.0)
    yield Case("rect-kernel-tuple-args", r(1, 5, 12, 9), r(7, 5, 3, 5), bias=r(7), other=r(1, 7, 5, 9),
               stride=(2, 1), padding=(0, 2), alpha=0.25)
    yield Case("no-other", r(2, 4, 9, 11), r(6, 4, 3, 3), bias=r(6), padding=1)
    yield Case("float-scalar-int-alpha", r(2, 4, 9, 9), r(6, 4, 3, 3), other=-1.5, alpha=3)
    yield Case("deep-K-576", r(1, 64, 6, 6), r(32, 64, 3, 3), bias=r(32), other=r(1, 32, 6, 6), padding=1)
    yield Case("1x1-residual", r(2, 32, 7, 7), r(24, 32, 1, 1), bias=r(24), other=r(2, 24, 7, 7))
    # Beyond the upstream test: dilation, groups, broadcast and strided `other`, out=, layouts.
    yield Case("dilation-groups", r(2, 8, 10, 7), r(12, 2, 3, 3), other=r(2, 12, 10, 7), padding=(2, 1),
               dilation=(2, 1), groups=4, alpha=0.7)
    yield Case("depthwise", r(2, 8, 12, 12), r(8, 1, 3, 3), bias=r(8), other=r(2, 8, 12, 12), padding=1, groups=8)
    yield Case("same-even-kernel", r(1, 3, 10, 9), r(5, 3, 4, 2), bias=r(5), other=r(1, 5, 10, 9), padding="same")
    yield Case("valid", r(2, 3, 8, 8), r(4, 3, 3, 2), other=r(2, 4, 6, 7), padding="valid")
    yield Case("other-per-channel", r(2, 4, 9, 9), r(6, 4, 3, 3), bias=r(6), other=r(6, 1, 1), padding=1, alpha=2)
    yield Case("other-broadcast-batch", r(3, 4, 8, 8), r(5, 4, 3, 3), other=r(1, 5, 8, 8), padding=1)
    yield Case("other-strided", r(2, 4, 9, 10), r(6, 4, 3, 3), bias=r(6), other=g.strided(r(2, 6, 9, 10)), padding=1)
    yield Case("out", r(2, 4, 7, 9), r(6, 4, 3, 3), bias=r(6), other=r(2, 6, 7, 9), padding=1,
               out=g.randn(2, 6, 7, 9))
    yield Case("out-strided-scalar", r(1, 4, 7, 9), r(6, 4, 3, 3), other=2.0, padding=1, alpha=-1,
               out=g.strided(g.randn(1, 6, 7, 9)))
    yield Case("strided-input", g.strided(r(2, 4, 9, 10)), r(6, 4, 3, 3), bias=g.strided(r(6)), other=r(2, 6, 9, 10),
               padding=1)
    yield Case("channels-last", _channels_last(r(2, 8, 9, 9)), _channels_last(r(8, 8, 3, 3)), bias=r(8),
               other=_channels_last(r(2, 8, 9, 9)), padding=1)
    yield Case("outliers", g.heavy_tailed(2, 4, 10, 10, scale=2.0), r(8, 4, 3, 3), bias=r(8),
               other=r(2, 8, 10, 10), padding=1, alpha=0.5)


def perf_cases(g: Inputs):
    r = g.randn
    # upstream's 16 x 32 channel 3x3 layer with a full-size residual
    yield Case("upstream-16x32x256x256", r(16, 32, 256, 256), r(32, 32, 3, 3), other=r(16, 32, 256, 256),
               padding=1)
    yield Case("upstream-16x32x512x512-bias-alpha", r(16, 32, 512, 512), r(32, 32, 3, 3), bias=r(32),
               other=r(16, 32, 512, 512), padding=1, alpha=0.5)
    yield Case("resnet-3x3-32x64x56x56-residual", r(32, 64, 56, 56), r(64, 64, 3, 3), bias=r(64),
               other=r(32, 64, 56, 56), padding=1)
    yield Case("resnet-3x3-64x256x14x14-residual", r(64, 256, 14, 14), r(256, 256, 3, 3), bias=r(256),
               other=r(64, 256, 14, 14), padding=1)


def cost(case: Case, output) -> Cost:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    a = bound.arguments
    w = a["weight"]
    macs = output.numel() * w[0].numel()  # each output: C_in / groups * kH * kW products
    moved = numel_bytes(a["input"]) + numel_bytes(w) + numel_bytes(output)  # out= is only written
    flops = 2.0 * macs
    for name in ("bias", "other"):
        if isinstance(a[name], torch.Tensor):
            moved += numel_bytes(a[name])
    if a["other"] is not None:
        flops += 2.0 * output.numel()  # a multiply-add per output
    return Cost(flops=flops, bytes=float(moved))
