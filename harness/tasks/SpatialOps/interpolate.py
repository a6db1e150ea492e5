"""Resize float32 1-D signals or 2-D images (nearest, nearest-exact, (bi)linear, bicubic, area)."""

import inspect

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_with_allowance, interpolation_allowance
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "interpolate"
SIGNATURE = "interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_KWARGS = ["align_corners", "mode", "scale_factor", "size"]
DIFFICULTY = 3
DESCRIPTION = """
Resize a float32 tensor like torch.nn.functional.interpolate(input, size=size,
scale_factor=scale_factor, mode=mode, align_corners=align_corners) (recompute_scale_factor and
antialias left at their defaults). `input` is (N, C, L) (resized along L) or (N, C, H, W) (resized
along H and W), possibly non-contiguous. Exactly one of `size` (an int or a tuple with one int per
resized dimension: the output sizes) and `scale_factor` (a float or a tuple of floats) is given;
with a scale factor s the output size is floor(in_size * s). Return a new float32 tensor
(N, C, out sizes...). Per dimension, with input size I and output size O, a float32 `scale` is
used: if align_corners is true (interpolating modes only), scale = (I-1)/(O-1) (0 when O == 1);
otherwise scale = 1/s when `scale_factor` was given (NOT I/O: floor makes them differ) and I/O
when `size` was given. Modes:
- 'nearest' (default): source index min(floor(o * scale), I-1), computed in float32.
- 'nearest-exact': source index min(floor((o + 0.5) * scale), I-1).
- 'linear' (3-D input only), 'bilinear' (4-D only): source coordinate x = o * scale when
  align_corners, else x = (o + 0.5) * scale - 0.5 clamped below at 0; i0 = floor(x),
  i1 = min(i0 + 1, I-1), weight w = x - i0; value (1-w)*in[i0] + w*in[i1], separably in H and W.
- 'bicubic' (4-D only): x as for bilinear but WITHOUT the clamp at 0; i = floor(x), t = x - i; the
  four taps i-1..i+2 (each index clamped into [0, I-1]) are weighted by the cubic convolution
  kernel with a = -0.75: W(d) = (a+2)|d|^3 - (a+3)|d|^2 + 1 for |d| <= 1,
  a|d|^3 - 5a|d|^2 + 8a|d| - 4a for 1 < |d| < 2, with d = t+1, t, 1-t, 2-t; applied separably
  (16 taps). Results may overshoot the input range.
- 'area': adaptive average pooling to the output size: output o averages input indices
  [floor(o*I/O), ceil((o+1)*I/O)) (a rectangle for 4-D inputs).
align_corners: None (default) means False for the interpolating modes; it must be None for
'nearest', 'nearest-exact' and 'area' (PyTorch raises ValueError otherwise). The input must not be
modified.
"""
# Not tested (PyTorch's CPU and CUDA kernels disagree): 'nearest' with a scale_factor whose output
# size equals the input size or twice it while 1/s is not exactly I/O (e.g. s = 1.05 on 10 pixels):
# the CPU kernel then copies (or halves the index) instead of using floor(o / s). 5-D inputs
# ('trilinear' etc.) and antialias are out of scope.


CHECK_NOTE = ("(bi)linear and bicubic: the default tolerance plus the effect of two float32 roundings "
              "of the source coordinate (whether a*b+c is fused into one FMA is the compiler's choice, "
              "on both sides), bounded by the interpolant's slope times max|input|; nearest and area: "
              "the default tolerance")


def check(case: Case, output, expected):
    args = bind_arguments(reference, case)
    x = args["input"]
    # Both sides use the same float32 scale; the coordinate scale*o (+ offset) may differ by two roundings.
    allowance = interpolation_allowance(args["mode"], x.shape[2:], 2, x)
    return check_with_allowance(output, expected, torch.full_like(expected, allowance, dtype=torch.float64))


def reference(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return F.interpolate(input, size=size, scale_factor=scale_factor, mode=mode,
                         align_corners=align_corners)


def _channels_last(t):
    return t.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)


def cases(g: Inputs):
    # nearest: upsampling by size, by a non-integer factor (scale 1/1.7 != 5/8), downsampling.
    yield Case("nearest-size-up", g.randn(2, 3, 5, 7), size=(12, 9))
    yield Case("nearest-scale-1.7", g.randn(2, 3, 5, 6), scale_factor=1.7)
    yield Case("nearest-down", g.randn(2, 3, 17, 13), (6, 5), None, "nearest")
    yield Case("nearest-int-size", g.uniform(2, 3, 7, 4, low=-2.0, high=2.0), size=9)
    yield Case("nearest-1d-x2", g.randn(2, 4, 37), scale_factor=2.0)
    yield Case("nearest-1d-down", g.randn(2, 4, 50), size=13, mode="nearest")
    yield Case("nearest-exact", g.randn(2, 3, 7, 9), size=(11, 4), mode="nearest-exact")
    yield Case("nearest-exact-tuple-scale", g.randn(2, 3, 10, 6), scale_factor=(0.6, 1.5),
               mode="nearest-exact")
    yield Case("nearest-exact-1d", g.randn(3, 2, 23), size=41, mode="nearest-exact")
    # bilinear / linear, both corner conventions, size and scale_factor (scale 1/2.5 != 5/12).
    yield Case("bilinear-up", g.randn(2, 3, 6, 7), size=(13, 17), mode="bilinear")
    yield Case("bilinear-up-align", g.randn(2, 3, 6, 7), size=(11, 5), mode="bilinear",
               align_corners=True)
    yield Case("bilinear-scale-2.5", g.randn(2, 3, 5, 4), scale_factor=2.5, mode="bilinear",
               align_corners=False)
    yield Case("bilinear-down-align-scale", g.randn(2, 2, 16, 12), scale_factor=(0.5, 0.75),
               mode="bilinear", align_corners=True)
    yield Case("bilinear-down", g.heavy_tailed(2, 2, 19, 23, scale=2.0), size=(7, 10), mode="bilinear")
    yield Case("bilinear-to-one-row-align", g.randn(2, 3, 6, 7), size=(1, 5), mode="bilinear",
               align_corners=True)
    yield Case("bilinear-from-1x1", g.randn(2, 3, 1, 1), size=(4, 3), mode="bilinear")
    yield Case("linear-1d", g.randn(3, 4, 50), size=77, mode="linear")
    yield Case("linear-1d-align-scale", g.randn(2, 3, 40), scale_factor=0.55, mode="linear",
               align_corners=True)
    # bicubic: overshoot at the borders, clamped taps, downsampling.
    yield Case("bicubic-up", g.randn(2, 3, 8, 6), size=(15, 13), mode="bicubic")
    yield Case("bicubic-align-scale", g.randn(2, 3, 7, 5), scale_factor=1.5, mode="bicubic",
               align_corners=True)
    yield Case("bicubic-down", g.uniform(1, 3, 20, 20, low=-1.0, high=1.0), size=(9, 7),
               mode="bicubic", align_corners=False)
    # area = adaptive average pooling (uneven windows), also with a scale factor.
    yield Case("area", g.randn(2, 3, 13, 10), size=(5, 4), mode="area")
    yield Case("area-1d-scale", g.randn(2, 3, 25), scale_factor=0.5, mode="area")
    # Non-contiguous inputs.
    yield Case("bilinear-strided", g.strided(g.randn(2, 3, 9, 11)), size=(14, 6), mode="bilinear")
    yield Case("bicubic-transposed", g.transposed(g.randn(2, 3, 8, 10)), size=(12, 12),
               mode="bicubic")
    yield Case("nearest-channels-last", _channels_last(g.randn(2, 5, 6, 7)), scale_factor=3.0)
    yield Case("large-offset-bilinear", g.uniform(1, 2, 9, 9, low=1000.0, high=1001.0),
               size=(20, 16), mode="bilinear", align_corners=True)


def perf_cases(g: Inputs):
    yield Case("fpn-nearest-x2-32x256x64x64", g.randn(32, 256, 64, 64), scale_factor=2.0)
    yield Case("seg-bilinear-8x64x128x128-to-512", g.randn(8, 64, 128, 128), size=(512, 512),
               mode="bilinear", align_corners=False)
    yield Case("bicubic-down-16x3x1024x1024-to-512", g.randn(16, 3, 1024, 1024), size=(512, 512),
               mode="bicubic", align_corners=True)
    yield Case("area-down-16x64x256x256-to-128", g.randn(16, 64, 256, 256), size=(128, 128),
               mode="area")


_FLOPS_PER_OUTPUT = {"nearest": 1, "nearest-exact": 1, "linear": 6, "bilinear": 12, "bicubic": 60}


def cost(case: Case, output) -> Cost:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    x = bound.arguments["input"]
    mode = bound.arguments["mode"]
    if mode == "area":
        flops = x.numel() + output.numel()
    else:
        flops = _FLOPS_PER_OUTPUT[mode] * output.numel()
    return Cost(flops=float(flops), bytes=float(numel_bytes(x) + numel_bytes(output)))
