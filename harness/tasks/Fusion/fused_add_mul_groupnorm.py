"""(input1 + input2) * input2 followed by group normalization with a per-channel affine, float32."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_add_mul_groupnorm"
SIGNATURE = "fused_add_mul_groupnorm(input1, input2, weight, bias, num_groups, eps=1e-05, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "num_groups"]
DIFFICULTY = 2
DESCRIPTION = """
Compute m = (input1 + input2) * input2 elementwise and apply group normalization to m, like
torch.nn.functional.group_norm(m, num_groups, weight, bias, eps). `input1` is a float32 tensor of
shape (N, C) or (N, C, d1, d2, ...) (any number of trailing dimensions); `input2` is a float32
tensor broadcastable to input1's shape (same shape, or e.g. (C, 1, 1) per channel). Either may be
non-contiguous. `weight` and `bias` are float32 (C,) tensors, possibly non-contiguous too.
`num_groups` (int) divides C; group k of sample n holds channels [k*C/G, (k+1)*C/G) and all their
trailing positions, and is normalized with its own mean and biased variance (divide by the element
count):
out[n, c, ...] = (m[n, c, ...] - mean[n, k]) / sqrt(var[n, k] + eps) * weight[c] + bias[c].
`eps` is a float > 0 (default 1e-5). Compute the statistics in float32 with a numerically stable
method (two-pass or Welford/Chan merging of partial statistics). If `out` (keyword-only) is None,
return a new float32 tensor of input1's shape; otherwise `out` is a float32 tensor of that shape
(possibly non-contiguous): write the result into it and return `out` itself. An input with N = 0
gives an empty result. The inputs must not be modified.
"""


def reference(input1, input2, weight, bias, num_groups, eps=1e-05, *, out=None):
    m = torch.mul(torch.add(input1, input2), input2)
    o = F.group_norm(m, num_groups, weight=weight, bias=bias, eps=eps)
    if out is not None:
        out.copy_(o)
        return out
    return o


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the output's RMS). The outputs are O(1)
# normalized values; a stable float32 mean/variance over a group of n elements errs by about
# sqrt(n) * eps32 relative to the group's spread (~1e-5 at n = 10^4 even with a plain sequential
# sum), far below a wrong eps, a variance with n - 1, a wrong group mapping or a missing affine.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["input1"], args["input2"]
    params = numel_bytes(args["weight"]) + numel_bytes(args["bias"])
    # per element: add, multiply, sum and sum of squares for the statistics, one multiply-add to apply
    return Cost(flops=6.0 * output.numel(),
                bytes=float(numel_bytes(a) + numel_bytes(b) + params + numel_bytes(output)))


def _affine(g: Inputs, c: int):
    return g.randn(c), g.randn(c)


def cases(g: Inputs):
    # Upstream-like (N, C, H, W) inputs of equal shapes, several group counts and eps.
    yield Case("4d-g2", g.randn(2, 4, 5, 5), g.randn(2, 4, 5, 5), *_affine(g, 4), 2)
    yield Case("4d-g4-eps", g.randn(3, 8, 7, 9), g.randn(3, 8, 7, 9), *_affine(g, 8), 4, eps=1e-3)
    yield Case("4d-g1", g.randn(2, 6, 11, 13), g.randn(2, 6, 11, 13), *_affine(g, 6), 1)
    yield Case("4d-g-eq-c", g.randn(2, 6, 10, 3), g.randn(2, 6, 10, 3), *_affine(g, 6), 6, eps=0.1)
    yield Case("large-group", g.randn(2, 4, 60, 70), g.randn(2, 4, 60, 70), *_affine(g, 4), 2)
    yield Case("3d", g.randn(5, 12, 33), g.uniform(5, 12, 33, low=-2.0, high=2.0), *_affine(g, 12), 3)
    yield Case("2d", g.randn(7, 16), g.randn(7, 16), *_affine(g, 16), 4)
    yield Case("5d", g.randn(2, 4, 3, 5, 7), g.randn(2, 4, 3, 5, 7), *_affine(g, 4), 2)
    yield Case("shifted", g.randn(3, 4, 9, 9, mean=2.0), g.randn(3, 4, 9, 9, mean=-1.0), *_affine(g, 4), 2)
    yield Case("outliers", g.heavy_tailed(2, 6, 12, 12, scale=2.0), g.randn(2, 6, 12, 12), *_affine(g, 6), 3)
    # Edge: broadcast and strided inputs, out=, empty batch.
    yield Case("broadcast-per-channel", g.randn(2, 6, 8, 9), g.randn(6, 1, 1), *_affine(g, 6), 3)
    yield Case("broadcast-row", g.randn(3, 4, 5, 17), g.randn(17), *_affine(g, 4), 2)
    yield Case("strided", g.strided(g.randn(2, 4, 6, 10)), g.strided(g.randn(2, 4, 6, 10)), *_affine(g, 4), 2)
    # a mean far above the spread (input2 = 1): a one-pass float32 variance cancels
    yield Case("large-mean", g.randn(2, 4, 8, 8, mean=40.0), g.tensor([1.0] * 4).view(4, 1, 1), *_affine(g, 4), 2)
    cl = g.randn(2, 8, 5, 7).to(memory_format=torch.channels_last)
    yield Case("channels-last", cl, g.randn(2, 8, 5, 7), *_affine(g, 8), 4)
    yield Case("out", g.randn(2, 6, 7, 7), g.randn(2, 6, 7, 7), *_affine(g, 6), 3, eps=1e-4,
               out=g.randn(2, 6, 7, 7))
    yield Case("empty", g.randn(0, 4, 3, 3), g.randn(0, 4, 3, 3), *_affine(g, 4), 2)
    # weight and bias read as dense (stride 1) pick up the NaN gaps; out written as dense misses its view
    yield Case("strided-affine-out", g.randn(2, 6, 5, 7), g.randn(2, 6, 5, 7), g.strided(g.randn(6)),
               g.strided(g.randn(6)), 3, out=g.strided(g.randn(2, 6, 5, 7)))


def perf_cases(g: Inputs):
    # Upstream's (16, 64, 128, W) shapes with 8 groups: 134 MB and 537 MB per input.
    for w in (256, 1024):
        yield Case(f"16x64x128x{w}-g8", g.randn(16, 64, 128, w), g.randn(16, 64, 128, w), *_affine(g, 64), 8)
    yield Case("32x256x56x56-g32", g.randn(32, 256, 56, 56), g.randn(32, 256, 56, 56), *_affine(g, 256), 32)
