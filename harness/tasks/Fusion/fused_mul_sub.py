"""input * other_mul - alpha * other_sub on float32, with broadcasting, scalar operands and out=."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "fused_mul_sub"
SIGNATURE = "fused_mul_sub(input, other_mul, other_sub, alpha=1, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha"]
DIFFICULTY = 2
DESCRIPTION = """
Compute input * other_mul - alpha * other_sub elementwise in one pass. `input` is a float32 tensor
of any shape (possibly non-contiguous, 0-d or empty). `other_mul` and `other_sub` are each either a
float32 tensor or a Python number. All tensors broadcast against each other with the usual rules
(size-1 or missing leading dimensions stretch; the result has the common shape, which may be larger
than `input`'s). `alpha` is a Python number (default 1) that scales `other_sub` only. The result is
float32 and follows IEEE arithmetic (inf - inf is NaN, NaN propagates). When `out` is None return a
new tensor; when `out` is given (a float32 tensor of the broadcast shape, possibly non-contiguous)
write the result into it and return `out` itself. The inputs are never modified.
"""

# A multiply, a scaling and a subtraction per output element.
FLOPS_PER_ELEMENT = 3


def reference(input, other_mul, other_sub, alpha=1, out=None):
    product = torch.mul(input, other_mul)
    return torch.sub(product, other_sub, alpha=alpha, out=out)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    a = g.tensor([0.0, -0.0, 1.0, -1.0, 2.5, -4.0, inf, -inf, inf, nan, 3.5, 0.125, 7.0, 2.0])
    b = g.tensor([0.0, 5.0, -1.0, 2.0, -2.5, 1.0, 1.0, 5.0, 0.0, 1.0, 2.0, -8.0, -0.5, 3.0])
    c = g.tensor([1.0, 0.0, -1.0, 2.0, 1.5, -3.0, 1.0, -inf, 1.0, 2.0, nan, 4.0, 1.0, 6.0])
    yield Case("edge-values", a, b, c)
    yield Case("edge-values-alpha", a, b, c, alpha=0.5)
    yield Case("same-shape-odd", g.randn(1003), g.randn(1003), g.randn(1003))
    yield Case("alpha-2", g.randn(33, 65), g.uniform(33, 65, low=-4.0, high=4.0), g.randn(33, 65), alpha=2)
    yield Case("alpha-negative-3d", g.heavy_tailed(3, 37, 129, scale=2.0), g.randn(3, 37, 129),
               g.randn(3, 37, 129), alpha=-1.5)
    yield Case("alpha-zero", g.randn(4099), g.randn(4099), g.randn(4099), alpha=0)
    yield Case("scalars", g.randn(4099), 2.0, 1.0)
    yield Case("scalar-mul", g.uniform(17, 129, low=-10.0, high=10.0), -1.75, g.randn(17, 129), alpha=0.5)
    yield Case("scalar-sub-int", g.randn(31, 70), g.randn(31, 70), 3, alpha=2)
    yield Case("zero-dim-tensors", g.randn(31, 7), g.randn(), g.randn(), alpha=-3.0)
    yield Case("zero-dim-all", g.randn(), g.randn(), g.randn())
    yield Case("broadcast-row-col", g.randn(40, 129), g.randn(129), g.randn(40, 1), alpha=2.0)
    yield Case("broadcast-input-smaller", g.randn(129), g.randn(17, 129), g.randn(1, 129))
    yield Case("broadcast-middle", g.randn(6, 1, 50), g.randn(6, 33, 1), g.randn(50), alpha=1.5)
    yield Case("broadcast-5d", g.randn(2, 3, 1, 5, 7), g.randn(3, 4, 1, 7), g.randn(5, 1), alpha=0.25)
    yield Case("strided-transposed", g.strided(g.randn(48, 97)), g.transposed(g.randn(48, 97)),
               g.strided(g.randn(48, 97), step=3), alpha=1.25)
    yield Case("extreme-values", g.tensor([1e20, -1e20, 3e38]), g.tensor([1e18, 1e18, 2.0]),
               g.tensor([1e38, -1e38, 3e38]), alpha=0.5)
    # Products below float32's smallest normal beside ordinary results, not beside the extreme ones
    # above (whose RMS would scale the tolerance's absolute part past every ordinary value).
    yield Case("tiny-values", g.tensor([1e-20, 2.0, -3.0]), g.tensor([1e-20, 1.5, 0.5]),
               g.tensor([1e-38, 1.0, -2.0]), alpha=0.5)
    yield Case("empty", g.randn(0, 5), g.randn(0, 1), 1.0)
    yield Case("out", g.randn(64, 300), g.randn(64, 300), g.randn(64, 300), alpha=0.75, out=g.randn(64, 300))
    yield Case("out-strided-broadcast", g.randn(17, 1), g.randn(129), g.randn(17, 129), alpha=-2.0,
               out=g.strided(g.randn(17, 129)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24), g.randn(1 << 24), g.randn(1 << 24))
    yield Case("64M-alpha", g.randn(1 << 26), g.randn(1 << 26), g.randn(1 << 26), alpha=0.5)
    yield Case("8192x8192-broadcast-row", g.randn(8192, 8192), g.randn(8192), g.randn(8192, 1), alpha=2.0)
    yield Case("64M-out", g.randn(1 << 26), g.randn(1 << 26), g.randn(1 << 26), out=g.randn(1 << 26))
