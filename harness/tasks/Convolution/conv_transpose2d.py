"""2-D transposed convolution of float32 images with stride, padding, output_padding, groups, dilation."""

import inspect

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "conv_transpose2d"
SIGNATURE = ("conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, "
             "groups=1, dilation=1)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["bias", "groups", "output_padding", "padding", "stride"]
DIFFICULTY = 4
DESCRIPTION = """
2-D transposed convolution ("deconvolution", the gradient of conv2d with respect to its input) like
torch.nn.functional.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
dilation), in full float32 precision (no TF32). `input` is float32 (N, C_in, H, W) or unbatched
(C_in, H, W); `weight` is float32 (C_in, C_out / groups, kH, kW) (note: input channels first);
`bias` is None or float32 (C_out,). Any of them may be non-contiguous. `stride`, `padding`,
`output_padding` and `dilation` are each an int or a pair (h, w); output_padding is smaller than
stride or dilation in each dimension. Output size H_out = (H - 1) * stride_h - 2 * padding_h +
dilation_h * (kH - 1) + output_padding_h + 1 (same for W). Every input pixel scatters
in[n, c, i, j] * weight[c, o', r, s] into out[n, g * C_out / groups + o', i * stride_h - padding_h +
r * dilation_h, j * stride_w - padding_w + s * dilation_w], where g = c // (C_in / groups) is the
group of input channel c and o' < C_out / groups; contributions landing outside the output are
dropped, and `bias[o]` is added to every output pixel of channel o (also pixels that receive no
contribution). output_padding only enlarges the output at the bottom/right. Return a new float32
tensor (N, C_out, H_out, W_out) (or (C_out, H_out, W_out) for an unbatched input). The inputs must
not be modified.
"""

# Each output sums up to K = C_in / groups * kH * kW products in float32 in an order that differs
# between implementations (and cuDNN's algorithms). The error grows like sqrt(K) * eps32 * (RMS of
# the output): on these cases (K <= 432) a tiled tl.dot kernel and PyTorch's CPU path stay within
# 1e-6 of the RMS of the float64 result. atol = 5e-5 of the RMS leaves room for other GPU
# algorithms, while a real bug (one missing tap or channel) changes outputs by >= ~5e-2 of the RMS.
TOLERANCE = {torch.float32: Tolerance(atol=5e-5, rtol=1e-4)}


def reference(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return F.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("s2-p1-op1-bias", r(2, 8, 6, 6), r(8, 6, 3, 3), r(6), stride=2, padding=1, output_padding=1)
    yield Case("plain-s1", r(2, 4, 7, 9), r(4, 5, 3, 3))
    yield Case("dcgan-k4-s2-p1", r(2, 6, 5, 5), r(6, 4, 4, 4), r(4), stride=2, padding=1)
    yield Case("tuple-args", r(1, 4, 5, 4), r(4, 6, 3, 4), r(6), stride=(2, 3), padding=(1, 0),
               output_padding=(1, 2))
    yield Case("groups-2", r(2, 8, 6, 6), r(8, 3, 3, 3), r(6), stride=2, padding=1, output_padding=1,
               groups=2)
    yield Case("depthwise-s2", r(2, 4, 7, 7), r(4, 1, 3, 3), r(4), stride=2, groups=4)
    yield Case("dilation-2", r(2, 4, 6, 6), r(4, 5, 3, 3), padding=1, dilation=2)
    # stride 2 with dilation 2: one output phase receives every tap, the other only the bias.
    yield Case("s2-dilation-2-op1", r(1, 4, 5, 5), r(4, 3, 3, 3), r(3), stride=2, output_padding=1,
               dilation=2)
    # output_padding >= stride is allowed when below the dilation.
    yield Case("op-below-dilation", r(1, 3, 6, 6), r(3, 4, 3, 3), r(4), output_padding=2, dilation=3)
    yield Case("1x1-s2-gaps", r(2, 8, 5, 5), r(8, 6, 1, 1), r(6), stride=2)
    yield Case("stride-3-kernel-2", r(1, 4, 5, 6), r(4, 3, 2, 2), r(3), stride=3, padding=(1, 0))
    yield Case("many-channels", r(1, 48, 5, 5), r(48, 16, 3, 3), r(16), stride=2, padding=1,
               output_padding=1)
    yield Case("k5-p2-s1", r(2, 3, 8, 8), r(3, 4, 5, 5), r(4), padding=2)
    yield Case("positional-all", r(2, 4, 4, 5), r(4, 2, 3, 3), r(4), 2, 1, 1, 2, 2)
    yield Case("unbatched", r(4, 5, 5), r(4, 3, 3, 3), r(3), stride=2, padding=1)
    yield Case("outliers", g.heavy_tailed(2, 4, 6, 6, scale=2.0), r(4, 4, 3, 3), r(4), stride=2)
    yield Case("positive-uniform", g.uniform(2, 5, 6, 6, low=0.0, high=3.0), g.uniform(5, 3, 3, 3),
               g.uniform(3, low=-1.0, high=1.0), stride=2, padding=1, output_padding=1)
    yield Case("strided-input", g.strided(r(2, 4, 6, 7)), r(4, 5, 3, 3), g.strided(r(5)), stride=2, padding=1)
    yield Case("channels-last", _channels_last(r(2, 6, 5, 5)), _channels_last(r(6, 4, 3, 3)), r(4),
               stride=2)
    yield Case("transposed-input", g.transposed(r(2, 3, 7, 5)), r(3, 4, 2, 3), r(4), stride=(2, 1),
               padding=(0, 1))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("unet-up-k2s2-16x256x32x32-to-128", r(16, 256, 32, 32), r(256, 128, 2, 2), r(128), stride=2)
    yield Case("decoder-k3s2p1op1-32x128x56x56-to-64", r(32, 128, 56, 56), r(128, 64, 3, 3), r(64),
               stride=2, padding=1, output_padding=1)
    yield Case("dcgan-k4s2p1-64x256x16x16-to-128", r(64, 256, 16, 16), r(256, 128, 4, 4), r(128),
               stride=2, padding=1)
    yield Case("grouped-g16-k4s2p1-32x256x28x28", r(32, 256, 28, 28), r(256, 16, 4, 4), r(256),
               stride=2, padding=1, groups=16)


def cost(case: Case, output) -> Cost:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    a = bound.arguments
    x, w = a["input"], a["weight"]
    macs = x.numel() * w[0].numel()  # every input pixel meets C_out / groups * kH * kW weights
    moved = numel_bytes(x) + numel_bytes(w) + numel_bytes(output)
    if a["bias"] is not None:
        moved += numel_bytes(a["bias"])
    return Cost(flops=2.0 * macs, bytes=float(moved))
