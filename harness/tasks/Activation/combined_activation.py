"""Matrix product followed by sigmoid, tanh, an elementwise scale and a bias (float32)."""

import math

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "combined_activation"
SIGNATURE = "combined_activation(input, weight1, weight2, bias, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Compute Y = tanh(sigmoid(X @ W1)) * W2 + b in float32. `input` (X) has shape (*, N, D_in), where *
is any number of leading batch dimensions (none for a plain matrix); `weight1` (W1) has shape
(D_in, D_out) and is shared by every batch entry, so X @ W1 has shape (*, N, D_out). sigmoid and
tanh are applied elementwise to that product, the result is multiplied elementwise by `weight2`
and then `bias` is added; both are broadcast against the (*, N, D_out) result by the usual
broadcasting rules (e.g. shape (D_out,), (N, D_out), (N, 1) or a per-batch shape), and the output
has shape (*, N, D_out). Any argument may be non-contiguous. The product must be accurate to float32
(no reduced-precision inputs such as TF32). `out` is keyword-only: when it is given (a float32
tensor of the output's shape) write the result into it and return `out` itself; otherwise return a
new tensor. The inputs are not modified.
"""


def reference(input, weight1, weight2, bias, *, out=None):
    # torch.matmul is torch.mm for 2-D inputs and also accepts the documented batch dimensions.
    z = torch.matmul(input, weight1)
    t = torch.tanh(torch.sigmoid(z))
    return torch.add(torch.mul(t, weight2), bias, out=out)


def cost(case: Case, output) -> Cost:
    x, w1 = case.args[0], case.args[1]
    rows = math.prod(x.shape[:-1])
    d_in, d_out = w1.shape
    tensors = list(case.args[:4])
    moved = sum(numel_bytes(t) for t in tensors) + numel_bytes(output)
    # The matrix product dominates; sigmoid, tanh, mul and add add ~10 flops per output element.
    return Cost(flops=2.0 * rows * d_in * d_out + 10.0 * rows * d_out, bytes=float(moved))


def cases(g: Inputs):
    # Inputs are scaled so that X @ W1 spans roughly [-6, 6]: both the steep middle of the sigmoid
    # and its saturated tails are exercised, so an error in the product shows in the output.
    def mat(n, d_in, d_out, std=1.0):
        return g.randn(n, d_in, std=std), g.randn(d_in, d_out, std=2.0 / math.sqrt(d_in))

    x, w1 = mat(64, 96, 80)
    yield Case("mm-64x96x80", x, w1, g.randn(80), g.randn(80))
    x, w1 = mat(33, 17, 45)
    yield Case("odd-sizes", x, w1, g.randn(45), g.uniform(45, low=-1.0, high=1.0))
    x, w1 = mat(1, 5, 3)
    yield Case("single-row", x, w1, g.randn(3), g.randn(3))
    x, w1 = mat(7, 1, 19)
    yield Case("d_in-1", x, w1, g.randn(19), g.randn(19))
    x, w1 = mat(40, 70, 1)
    yield Case("d_out-1", x, w1, g.randn(40, 1), g.randn(1))
    x, w1 = mat(48, 64, 50)
    yield Case("full-weight2-column-bias", x, w1, g.randn(48, 50), g.randn(48, 1))
    x = g.heavy_tailed(37, 72, scale=1.0, outlier_scale=20.0)
    yield Case("outliers-saturating", x, g.randn(72, 56, std=0.5), g.randn(1, 56), g.randn(56))
    x = g.uniform(50, 31, low=-2.0, high=2.0)
    yield Case("uniform", x, g.uniform(31, 60, low=-0.5, high=0.5), g.uniform(60, low=-3.0, high=3.0),
               g.randn(50, 60))
    x, w1 = mat(24, 40, 36)
    yield Case("batched-3d", g.randn(3, 24, 40), w1, g.randn(36), g.randn(36))
    yield Case("batched-4d-per-batch-weight2", g.randn(2, 3, 10, 24),
               g.randn(24, 33, std=0.4), g.randn(3, 1, 33), g.randn(10, 33))
    x, w1 = mat(45, 52, 38)
    yield Case("noncontiguous", g.strided(x), g.transposed(w1), g.strided(g.randn(38)),
               g.randn(38))
    x, w1 = mat(64, 96, 80)
    yield Case("out", x, w1, g.randn(80), g.randn(80), out=g.randn(64, 80))
    yield Case("out-transposed", g.randn(40, 50), g.randn(50, 30, std=0.3), g.randn(30), g.randn(30),
               out=g.transposed(g.randn(40, 30)))
    yield Case("out-batched", g.randn(2, 21, 30), g.randn(30, 26, std=0.4), g.randn(26),
               g.randn(21, 26), out=g.randn(2, 21, 26))
    # a bias read as dense (stride 1) picks up the NaN gaps
    x, w1 = mat(30, 24, 36)
    yield Case("strided-bias", x, w1, g.randn(36), g.strided(g.randn(30, 36)))


def perf_cases(g: Inputs):
    def case(label, n, d_in, d_out, batch=()):
        x = g.randn(*batch, n, d_in)
        w1 = g.randn(d_in, d_out, std=1.0 / math.sqrt(d_in))
        return Case(label, x, w1, g.randn(d_out), g.randn(d_out))
    yield case("1024x1024x1024", 1024, 1024, 1024)
    yield case("2048x2048x2048", 2048, 2048, 2048)
    yield case("batch8x512x4096x4096", 512, 4096, 4096, batch=(8,))
    yield case("4096x4096x4096", 4096, 4096, 4096)
