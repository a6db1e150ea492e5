"""conv2d -> batch norm (batch statistics) -> ReLU -> dropout, fused (float32), judged by the mask's structure."""

import math
import warnings

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_dropout_relu_batch_norm_conv2d"
SIGNATURE = ("fused_dropout_relu_batch_norm_conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, "
             "groups=1, p=0.5, training=True, inplace=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["groups", "inplace", "p", "padding", "stride", "training"]
DIFFICULTY = 3
DESCRIPTION = """
Compute, with fused Triton code in float32: x = F.conv2d(input, weight, bias, stride, padding,
dilation, groups), then x = F.batch_norm(x, None, None, training=True) (normalise each output
channel with the mean and the biased variance of that channel over the batch and both spatial
dims, eps = 1e-5, no affine weight or bias, no running statistics), then ReLU, then
F.dropout(x, p=p, training=training). `input` is a float32 (N, C_in, H, W) tensor, `weight` a
float32 (C_out, C_in / groups, kH, kW) tensor, `bias` None or a float32 (C_out,) vector. `stride`
and `dilation` are an int or a pair (h, w); `padding` an int, a pair, 'valid' or 'same' (stride 1
only; the odd extra zero goes after); `groups` splits the channels as in conv2d (output channel o
sees the input channels of group o // (C_out / groups)). Each channel must have more than one value
(N * H_out * W_out > 1). Dropout zeroes each element independently with probability `p`
(0 <= p <= 1) and multiplies every kept element by 1/(1-p); p = 0 keeps everything, p = 1 zeroes
everything. `training` is True in every call (batch norm without running statistics is defined
only in training mode; PyTorch raises for training=False). `inplace` only says whether ReLU and
dropout may overwrite the internal convolution result: it changes nothing visible, and the inputs
are never modified. Return a new contiguous float32 (N, C_out, H_out, W_out) tensor. Float32 accuracy
is required: no TF32 rounding (tl.dot with input_precision="ieee"); compute the variance stably
(it is a global reduction over many programs: combine per-tile means and centred sums of squares,
not a running sum of squares). The random mask does not have to reproduce PyTorch's random
numbers, but it must be fresh on every call (draw the seed in Python, e.g. from os.urandom or the
random module: PyTorch's random functions count as PyTorch compute in the wrapper) and independent
across positions. Inputs may be non-contiguous. The check is statistical: every element must be 0
or its kept value relu(normalised x)/(1-p) to float32 accuracy, and the number of dropped elements
and the mask's independence must be plausible for independent draws.
"""

CHECK_NOTE = (
    "Each element must be exactly 0 or relu(xh)/(1-p), xh the float64 batch-normalised float64 "
    "convolution, within 1/(1-p) * err(xh) (ReLU is 1-Lipschitz), where err(xh) = (e + mean(e))/sigma "
    "+ |xh| (rms(e)/sigma + (8 sqrt(count) + 8) u32) with e = 8 sqrt(K) u32 conv(|input|, |weight|) + "
    "u32 (|x| + |bias|) the convolution's float32 error (K taps per output, count values per channel, "
    "sigma = sqrt(var + eps)); the mask (known wherever relu(xh) exceeds that bound) must drop "
    "Binomial(n, p) elements, agree across power-of-two and row distances as independent draws do, "
    "and differ between calls (Bernstein bounds, false-alarm rate 1e-9 per test). p = 0 and p = 1 are "
    "the same check with every element kept or dropped. training=False is not exercised: the "
    "upstream reference raises for it."
)

F32 = torch.float32
U32 = unit_roundoff(F32)
EPS = 1e-5  # F.batch_norm's default
_HISTORY_ATTR = "dropout_history"


def reference(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, p=0.5, training=True,
              inplace=False):
    with warnings.catch_warnings():
        # padding='same' with an even kernel warns that PyTorch pads a copy of the input; harmless.
        warnings.simplefilter("ignore", UserWarning)
        x = F.conv2d(input, weight, bias, stride, padding, dilation, groups)
    x = F.batch_norm(x, running_mean=None, running_var=None, training=training)
    x = F.relu(x, inplace=inplace)
    return F.dropout(x, p=p, training=training, inplace=inplace)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    conv = dict(stride=args["stride"], padding=args["padding"], dilation=args["dilation"], groups=args["groups"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        z = F.conv2d(x.double(), w.double(), None if b is None else b.double(), **conv)
        mag = F.conv2d(x.double().abs(), w.double().abs(), None, **conv)
    taps = w[0].numel()
    e = 8 * math.sqrt(max(taps, 1)) * U32 * mag + U32 * z.abs()
    if b is not None:
        e = e + U32 * b.double().abs()[None, :, None, None]
    dims = (0, 2, 3)
    count = z.numel() // max(z.shape[1], 1)
    mean = z.mean(dim=dims, keepdim=True)
    sigma = (z.var(dim=dims, unbiased=False, keepdim=True) + EPS).sqrt()
    xh = (z - mean) / sigma
    err = ((e + e.mean(dim=dims, keepdim=True)) / sigma
           + xh.abs() * (e.square().mean(dim=dims, keepdim=True).sqrt() / sigma + (8 * math.sqrt(count) + 8) * U32))
    p = float(args["p"]) if args["training"] else 0.0
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    kept = scale * xh.clamp_min(0)
    return check_dropout(output, kept, 0.0, p, kept_bound=scale * err + U32 * kept + torch.finfo(F32).tiny,
                         dtype=F32, history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    w, b = args["weight"], args["bias"]
    macs = output.numel() * w[0].numel()  # each output: C_in / groups * kH * kW products
    moved = numel_bytes(args["input"]) + numel_bytes(w) + numel_bytes(output) + (numel_bytes(b) if b is not None else 0)
    # the convolution, then mean/variance, normalise, ReLU and dropout (about 8 flops) per output
    return Cost(flops=2.0 * macs + 8.0 * output.numel(), bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: the published test's keywords (stride, padding, groups, p, training, inplace)
    yield case("3x3-pad1", r(2, 4, 12, 12), r(8, 4, 3, 3), r(8), padding=1)
    yield case("p0.2-stride2", r(2, 6, 17, 15), r(12, 6, 3, 3), r(12), stride=2, padding=1, p=0.2)
    yield case("p0.7-nobias", r(1, 3, 20, 20), r(16, 3, 3, 3), padding=1, p=0.7)
    yield case("groups2-inplace", r(2, 8, 10, 10), r(8, 4, 3, 3), r(8), padding=1, groups=2, inplace=True)
    yield case("depthwise", r(2, 8, 12, 12), r(8, 1, 3, 3), r(8), padding=1, groups=8, p=0.3)
    yield case("repeat-a", r(2, 4, 10, 10), r(8, 4, 3, 3), r(8), padding=1, p=0.4)
    yield case("repeat-b", r(2, 4, 10, 10), r(8, 4, 3, 3), r(8), padding=1, p=0.4)
    yield case("training-explicit", r(2, 3, 14, 14), r(10, 3, 5, 5), r(10), padding=2, training=True)
    yield case("p0", r(2, 4, 9, 9), r(6, 4, 3, 3), r(6), padding=1, p=0.0)
    yield case("p1", r(2, 4, 9, 9), r(6, 4, 3, 3), r(6), padding=1, p=1.0)
    # edge: dilation, tuple and string padding, layouts, shifted channels (mean far from 0)
    yield case("dilation-tuples", r(1, 5, 16, 14), r(7, 5, 3, 3), r(7), stride=(1, 2), padding=(2, 1),
               dilation=(2, 1), p=0.5)
    yield case("padding-same", r(2, 3, 11, 13), r(9, 3, 4, 4), r(9), padding="same", p=0.5)
    yield case("padding-valid", r(2, 3, 11, 13), r(9, 3, 3, 3), r(9), padding="valid", p=0.5)
    yield case("channels-last", r(2, 6, 10, 10).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
               g.transposed(r(8, 6, 3, 3)), r(8), padding=1, p=0.5)
    yield case("strided-input", g.strided(r(2, 4, 12, 12)), r(8, 4, 3, 3), r(8), padding=1, p=0.5)
    yield case("shifted-bias", r(2, 4, 12, 12), r(8, 4, 3, 3), r(8, mean=1000.0), padding=1, p=0.5)
    # a channel variance below eps: eps must sit inside the square root
    yield case("small-variance", r(2, 4, 10, 10, std=0.01), r(8, 4, 3, 3, std=0.01), None, padding=1, p=0.5)
    yield case("1x1-two-values", r(2, 5, 1, 1), r(6, 5, 1, 1), r(6), p=0.5)
    # a bias read as dense (stride 1) picks up the NaN gaps (batch norm cancels the bias itself)
    yield case("strided-bias", r(2, 4, 10, 10), r(8, 4, 3, 3), g.strided(r(8)), padding=1, p=0.5)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("1x3x512^2->64", r(1, 3, 512, 512), r(64, 3, 3, 3), r(64), padding=1)
    yield Case("1x3x1024^2->64", r(1, 3, 1024, 1024), r(64, 3, 3, 3), r(64), padding=1)
    yield Case("1x3x2048^2->64", r(1, 3, 2048, 2048), r(64, 3, 3, 3), r(64), padding=1)
    yield Case("8x64x128^2->64", r(8, 64, 128, 128), r(64, 64, 3, 3), r(64), padding=1, p=0.1)
