"""2-D convolution, batch normalization (inference or training, running-statistics update) and ReLU, fused."""

import warnings

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "fused_relu_batch_norm_conv2d"
SIGNATURE = ("fused_relu_batch_norm_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, "
             "running_mean=None, running_var=None, bn_weight=None, bn_bias=None, training=False, momentum=0.1, "
             "eps=1e-05, inplace=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["bias", "bn_bias", "bn_weight", "dilation", "eps", "groups", "inplace", "input", "momentum",
               "padding", "running_mean", "running_var", "stride", "training", "weight"]
# Beyond the upstream test (edge although their inputs look ordinary).
TIERS = {"train-no-running-stats": "edge", "train-gamma-only": "edge", "eval-beta-only-valid": "edge",
         "train-shifted-mean": "edge"}
DIFFICULTY = 4
DESCRIPTION = """
Compute relu(batch_norm(conv2d(input, weight, bias, stride, padding, dilation, groups), running_mean,
running_var, bn_weight, bn_bias, training, momentum, eps)) in full float32 precision (no TF32), i.e.
torch.nn.functional.conv2d, then torch.nn.functional.batch_norm, then torch.nn.functional.relu.
Convolution: `input` is float32 (N, C_in, H, W); `weight` is float32 (C_out, C_in / groups, kH, kW);
`bias` is None or float32 (C_out,); any of them may be non-contiguous. `stride` and `dilation` are an
int or a pair (h, w); `padding` is an int, a pair (zeros on both sides), 'valid' or 'same' (stride 1
only: total dilation * (k - 1) per dimension, floor of half before). Output channel o sees only the
input channels of its group g = o // (C_out / groups); no kernel flip:
conv[n, o, i, j] = bias[o] + sum over c in the group, r, s of
input[n, c, i * stride_h - pad_top + r * dilation_h, j * stride_w - pad_left + s * dilation_w]
* weight[o, c - g * C_in / groups, r, s] (positions outside the input read 0), shape
(N, C_out, H_out, W_out) with H_out = floor((H + pad_total_h - dilation_h * (kH - 1) - 1) / stride_h) + 1.
Batch norm per output channel o: `bn_weight` (gamma) and `bn_bias` (beta) are float32 (C_out,),
possibly non-contiguous, or None (meaning 1 and 0). With training=False (default) `running_mean`
and `running_var` (float32 (C_out,), possibly non-contiguous) are required and used as the
statistics; nothing is modified.
With training=True the statistics are those of the batch: over the n = N * H_out * W_out values of
channel o, mean = sum / n and the biased variance var = sum((conv - mean)^2) / n (n >= 2); if the
running tensors are given (they may both be None in training) they are updated IN PLACE:
running_mean = (1 - momentum) * running_mean + momentum * mean,
running_var = (1 - momentum) * running_var + momentum * var * n / (n - 1).
normalized = (conv - mean) / sqrt(var + eps) * gamma[o] + beta[o]; `momentum` is a float in [0, 1]
(default 0.1), `eps` a float > 0 (default 1e-5). Finally every element becomes max(normalized, 0).
`inplace` only says the ReLU may overwrite the (fresh) normalized tensor; inputs other than the
running tensors are never modified. Compute the batch statistics with a numerically stable method
(two-pass, or merging per-tile partial statistics), never as E[x^2] - E[x]^2. Return a new float32
tensor (N, C_out, H_out, W_out). In inference the normalization folds into the convolution's
epilogue (one kernel); in training the statistics need a global reduction before normalizing.
"""

# Each convolution output is a K = C_in / groups * kH * kW term float32 dot product (K <= 576 here),
# summed in an order that differs between implementations: error ~ sqrt(K) * eps32 * RMS(conv), at
# most 2.2e-6 of the conv's RMS. Normalization divides by the channel's std (training) or
# sqrt(running_var + eps) and multiplies by gamma, scaling value and error alike, so relative to the
# output's RMS the error stays ~1e-5 at most when each channel's mean is comparable to its spread (true
# of these cases: biases and running means are O(1) against conv outputs of std >= 1). atol = 5e-5 of
# the output RMS (as for conv2d) plus rtol 1e-4 covers that and the few roundings of the statistics.
# Running statistics are compared with the same bound; updating running_var with the biased
# variance errs by momentum / (n - 1) relative, >= 7e-4 on the small-n cases here, and E[x^2] - E[x]^2
# or a missing eps, momentum or gamma is off by far more.
TOLERANCE = {torch.float32: Tolerance(atol=5e-5, rtol=1e-4)}


def reference(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, running_mean=None,
              running_var=None, bn_weight=None, bn_bias=None, training=False, momentum=0.1, eps=1e-05,
              inplace=False):
    with warnings.catch_warnings():
        # padding='same' with an even kernel warns that PyTorch pads a copy of the input; harmless.
        warnings.simplefilter("ignore", UserWarning)
        conv = F.conv2d(input, weight, bias, stride, padding, dilation, groups)
    normalized = F.batch_norm(conv, running_mean, running_var, bn_weight, bn_bias, training, momentum, eps)
    return F.relu(normalized, inplace=inplace)


def _bn(g: Inputs, c: int, k: int):
    """running_mean, running_var, bn_weight, bn_bias for a conv whose outputs have variance ~k."""
    rm, rv = g.randn(c), g.uniform(c, low=0.5 * k, high=2.0 * k)
    return dict(running_mean=rm, running_var=rv, bn_weight=g.uniform(c, low=0.5, high=1.5), bn_bias=g.randn(c))


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    r = g.randn
    yield Case("train-3x3-pad1", r(1, 3, 5, 5), r(6, 3, 3, 3), padding=1, training=True, **_bn(g, 6, 27))
    yield Case("train-s2-no-affine", r(2, 3, 9, 9), r(6, 3, 3, 3), padding=1, stride=2, training=True,
               running_mean=g.randn(6), running_var=g.uniform(6, low=0.5, high=2.0))
    yield Case("eval-3x3-bias", r(2, 4, 9, 11), r(6, 4, 3, 3), bias=r(6), padding=1, **_bn(g, 6, 36))
    yield Case("eval-no-affine", r(2, 4, 8, 8), r(8, 4, 3, 3), running_mean=g.randn(8),
               running_var=g.uniform(8, low=18.0, high=72.0))
    yield Case("eval-eps", r(2, 1, 9, 9), r(6, 1, 3, 3), bias=r(6), padding=1, eps=2.0, **_bn(g, 6, 9))
    yield Case("train-bias-momentum-eps", r(2, 8, 10, 10), r(16, 8, 3, 3), bias=r(16), padding=1, training=True,
               momentum=0.3, eps=1e-3, **_bn(g, 16, 72))
    yield Case("train-dilation-groups", r(2, 8, 10, 9), r(12, 2, 3, 3), bias=r(12), padding=2, dilation=2,
               groups=4, training=True, **_bn(g, 12, 18))
    yield Case("eval-dilation-groups", r(2, 8, 10, 9), r(12, 2, 3, 3), padding=(2, 1), dilation=(2, 1), groups=4,
               **_bn(g, 12, 18))
    yield Case("train-tuple-args", r(2, 5, 12, 9), r(7, 5, 3, 5), bias=r(7), stride=(2, 1), padding=(0, 2),
               training=True, **_bn(g, 7, 75))
    yield Case("train-deep-K-576", r(1, 64, 6, 6), r(32, 64, 3, 3), padding=1, training=True, **_bn(g, 32, 576))
    yield Case("train-many-tiles", r(4, 4, 20, 20), r(8, 4, 3, 3), bias=r(8), padding=1, training=True,
               momentum=0.5, **_bn(g, 8, 36))
    yield Case("train-n2", r(2, 3, 3, 3), r(5, 3, 3, 3), training=True, momentum=0.3, **_bn(g, 5, 27))
    yield Case("train-momentum-1", r(2, 4, 7, 7), r(6, 4, 3, 3), padding=1, training=True, momentum=1.0,
               **_bn(g, 6, 36))
    yield Case("eval-inplace", r(1, 4, 7, 9), r(6, 4, 3, 3), padding=1, inplace=True, **_bn(g, 6, 36))
    # Beyond the upstream test: no running statistics in training, gamma or beta alone, string
    # paddings, a shifted channel mean, layouts.
    yield Case("train-no-running-stats", r(2, 4, 8, 8), r(6, 4, 3, 3), bias=r(6), padding=1, training=True,
               bn_weight=g.randn(6), bn_bias=g.randn(6))
    yield Case("train-gamma-only", r(2, 4, 8, 8), r(6, 4, 3, 3), padding="same", training=True,
               running_mean=g.randn(6), running_var=g.uniform(6, low=0.5, high=2.0), bn_weight=g.randn(6))
    yield Case("eval-beta-only-valid", r(2, 3, 8, 8), r(4, 3, 3, 2), padding="valid", running_mean=g.randn(4),
               running_var=g.uniform(4, low=9.0, high=36.0), bn_bias=g.randn(4))
    yield Case("train-shifted-mean", r(2, 4, 8, 8), r(6, 4, 3, 3), bias=g.uniform(6, low=10.0, high=20.0),
               padding=1, training=True, **_bn(g, 6, 36))
    yield Case("train-strided-input-stats", g.strided(r(2, 4, 9, 10)), r(6, 4, 3, 3), bias=g.strided(r(6)),
               padding=1, training=True,
               running_mean=g.strided(g.randn(6)), running_var=g.strided(g.uniform(6, low=0.5, high=2.0)))
    yield Case("eval-channels-last", _channels_last(r(2, 8, 9, 9)), _channels_last(r(8, 8, 3, 3)), bias=r(8),
               padding=1, **_bn(g, 8, 72))
    # gamma, beta and the running statistics read as dense (stride 1) in inference pick up the NaN gaps
    yield Case("eval-strided-bn-params", r(2, 4, 9, 9), r(6, 4, 3, 3), bias=r(6), padding=1,
               **{k: g.strided(v) for k, v in _bn(g, 6, 36).items()})


def perf_cases(g: Inputs):
    r = g.randn
    # upstream's inference shape (256 -> 512 channels, 3x3, 128^2), in inference and in training
    yield Case("eval-1x256x128x128-to-512", r(1, 256, 128, 128), r(512, 256, 3, 3), padding=1, **_bn(g, 512, 2304))
    yield Case("train-1x256x128x128-to-512", r(1, 256, 128, 128), r(512, 256, 3, 3), padding=1, training=True,
               **_bn(g, 512, 2304))
    # a ResNet layer in training
    yield Case("train-resnet-32x64x56x56", r(32, 64, 56, 56), r(64, 64, 3, 3), padding=1, training=True,
               **_bn(g, 64, 576))


def cost(case: Case, output) -> Cost:
    a = bind_arguments(reference, case)
    w = a["weight"]
    macs = output.numel() * w[0].numel()  # each output: C_in / groups * kH * kW products
    # training: an add for the sum, a multiply-add for the second moment, a multiply-add to normalize;
    # inference: one multiply-add (scale and shift folded per channel); + the ReLU's max
    flops = 2.0 * macs + (6.0 if a["training"] else 3.0) * output.numel()
    moved = numel_bytes(a["input"]) + numel_bytes(w) + numel_bytes(output)
    for name in ("bias", "bn_weight", "bn_bias"):
        if a[name] is not None:
            moved += numel_bytes(a[name])
    for name in ("running_mean", "running_var"):  # (C,) each: counted once, like the other arguments
        if a[name] is not None:
            moved += numel_bytes(a[name])
    return Cost(flops=flops, bytes=float(moved))
