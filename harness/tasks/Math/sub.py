"""input - alpha * other on float32 tensors with broadcasting, a scalar other, and out=."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "sub"
SIGNATURE = "sub(input, other, *, alpha=1, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "out"]
DIFFICULTY = 2
DESCRIPTION = """
Compute input - alpha * other elementwise, like torch.subtract(input, other, alpha=alpha, out=out).
`input` is a float32 tensor; `other` is a float32 tensor or a Python number. The two broadcast
against each other with PyTorch's rules (either may have size-1 or missing leading dimensions, so
the result can be larger than both; a 0-d tensor acts as a scalar), and either may be
non-contiguous. `alpha` (keyword-only, default 1) is a Python int or float that scales `other`.
IEEE semantics apply: inf - inf is NaN, NaN propagates, and results beyond the float32 range become
+-inf. The result is float32 with the broadcast shape. If `out` is None return a new tensor;
otherwise `out` is a float32 tensor of the broadcast shape (possibly a strided view): write the
result into it and return `out` itself. The inputs must not be modified.
"""

# One multiply-add per element.
FLOPS_PER_ELEMENT = 2


def reference(input, other, *, alpha=1, out=None):
    return torch.subtract(input, other, alpha=alpha, out=out)


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    yield Case("edge-values",
               g.tensor([0.0, -0.0, 1.0, inf, -inf, nan, inf, 5.0, -3e38, 3e38, 2.0, -7.5]),
               g.tensor([0.0, 0.0, 1.0, inf, -inf, 1.0, 5.0, nan, 3e38, -3e38, -inf, 2.5]))
    yield Case("same-shape-odd", g.randn(4099), g.randn(4099))
    yield Case("alpha-2", g.randn(64, 300), g.randn(64, 300), alpha=2)
    yield Case("alpha-negative-float", g.uniform(3, 37, 129, low=-5.0, high=5.0),
               g.heavy_tailed(3, 37, 129), alpha=-0.5)
    yield Case("broadcast-row-alpha-int", g.randn(37, 129), g.randn(129), alpha=3)
    yield Case("broadcast-column", g.uniform(33, 65, low=-2.0, high=2.0), g.randn(33, 1))
    # The result (7, 33, 65) is larger than either operand.
    yield Case("broadcast-both-ways", g.randn(7, 1, 65), g.randn(1, 33, 1), alpha=1.5)
    yield Case("broadcast-4d", g.randn(2, 3, 1, 17), g.randn(3, 5, 1), alpha=0.5)
    yield Case("broadcast-5d", g.randn(2, 1, 3, 4, 5), g.randn(3, 1, 5), alpha=-3)
    yield Case("broadcast-input-smaller", g.randn(65), g.randn(9, 65), alpha=-2)
    yield Case("scalar-other", g.randn(2049), 2.5, alpha=2)
    yield Case("int-scalar-other", g.uniform(1000, low=-10.0, high=10.0), 3)
    yield Case("0d-tensor-other", g.randn(17, 31), g.tensor(1.75), alpha=0.25)
    yield Case("0d-both", g.tensor(3.5), g.tensor(-1.25))
    yield Case("empty", g.randn(0, 5), g.randn(0, 5))
    yield Case("strided-input", g.strided(g.randn(33, 65)), g.randn(33, 65), alpha=0.75)
    yield Case("transposed-other", g.randn(97, 48), g.transposed(g.randn(97, 48)))
    yield Case("transposed-broadcast", g.transposed(g.randn(40, 50)), g.randn(40, 1), alpha=-1)
    yield Case("out", g.randn(64, 300), g.randn(64, 300), alpha=-1.5, out=g.randn(64, 300))
    yield Case("out-broadcast-strided", g.randn(31, 67), g.randn(67), alpha=2,
               out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    n = 1 << 24
    yield Case("16M", g.randn(n), g.randn(n))
    yield Case("64M-alpha-out", g.randn(1 << 26), g.randn(1 << 26), alpha=0.5, out=g.randn(1 << 26))
    yield Case("8192x8192-broadcast-row", g.randn(8192, 8192), g.randn(8192), alpha=2)
    yield Case("128M", g.randn(1 << 27), g.randn(1 << 27))
