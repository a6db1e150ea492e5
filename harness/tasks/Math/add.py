"""input + alpha * other on float32 tensors, with broadcasting, a scalar `other` and out=."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "add"
SIGNATURE = "add(input, other, alpha=1, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha"]
DIFFICULTY = 4
DESCRIPTION = """
Compute input + alpha * other elementwise, as torch.add(input, other, alpha=alpha, out=out).
`input` is a float32 tensor of any shape (possibly non-contiguous, possibly 0-dimensional or
empty). `other` is either a float32 tensor or a Python number. Tensors are broadcast against each
other with the usual rules (either side may have size-1 or missing leading dimensions; the result
has the broadcast shape). `alpha` is a Python number (default 1) that scales `other` only. The
result is float32; arithmetic follows IEEE rules (inf + -inf is NaN, NaN propagates). When `out` is
None return a new tensor; when `out` is given (a float32 tensor of the broadcast shape, possibly
non-contiguous) write the result into it and return `out` itself. The inputs are never modified.
"""

# One multiply and one add per output element.
FLOPS_PER_ELEMENT = 2


def reference(input, other, alpha=1, out=None):
    return torch.add(input, other, alpha=alpha, out=out)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    # Edge lists are grouped by magnitude: the comparison scale is the RMS of the reference.
    a = g.tensor([0.0, -0.0, 1.0, -1.0, 2.5, -4.0, inf, -inf, inf, nan, 3.5, 0.125, 7.0])
    b = g.tensor([0.0, 0.0, -1.0, 2.0, -2.5, 1.0, 1.0, 5.0, -inf, 1.0, nan, -0.125, -3.5])
    yield Case("edge-values", a, b)
    yield Case("edge-values-alpha", a, b, alpha=0.5)
    # Extreme magnitudes, one per case (the comparison's absolute term scales with the RMS of the
    # reference: 3e38 beside 1e30 or 1.0 would hide any error in those)
    yield Case("extreme-values", g.tensor([3e38, -3e38, 1e38]), g.tensor([3e38, 1e38, -1e38]), alpha=1.5)
    yield Case("large-values", g.tensor([1e30, -1e30]), g.tensor([1e30, 1e30]), alpha=1.5)
    yield Case("tiny-values", g.tensor([1e-30, 2.0]), g.tensor([-1e-30, 1.0]), alpha=1.5)
    yield Case("same-shape-odd", g.randn(1003), g.randn(1003))
    yield Case("alpha-negative", g.randn(33, 65), g.uniform(33, 65, low=-4.0, high=4.0), alpha=-2.5)
    yield Case("alpha-int", g.heavy_tailed(3, 37, 129, scale=2.0), g.randn(3, 37, 129), alpha=3)
    yield Case("scalar-other", g.randn(4099), 2.0)
    yield Case("scalar-other-alpha", g.uniform(17, 129, low=-10.0, high=10.0), -1.75, alpha=0.5)
    yield Case("zero-dim-other", g.randn(31, 7), g.randn())
    yield Case("zero-dim-both", g.randn(), g.randn(), alpha=-3.0)
    yield Case("broadcast-row", g.randn(40, 129), g.randn(129), alpha=2.0)
    yield Case("broadcast-col-and-row", g.randn(37, 1), g.randn(1, 129), alpha=-0.5)
    yield Case("broadcast-input-smaller", g.randn(129), g.randn(17, 129))
    yield Case("broadcast-middle", g.randn(6, 1, 50), g.randn(6, 33, 1), alpha=1.5)
    yield Case("broadcast-5d", g.randn(2, 3, 1, 5, 7), g.randn(3, 4, 1, 7), alpha=0.25)
    yield Case("strided-and-transposed", g.strided(g.randn(48, 97)), g.transposed(g.randn(48, 97)),
               alpha=1.25)
    yield Case("single", g.randn(1), g.randn(1))
    # Both operands empty: the integrity check counts any non-empty argument as work to launch for.
    yield Case("empty", g.randn(0, 5), g.randn(0, 1))
    yield Case("out", g.randn(64, 300), g.randn(64, 300), alpha=0.75, out=g.randn(64, 300))
    yield Case("out-strided-broadcast", g.randn(17, 1), g.randn(129), alpha=-2.0,
               out=g.strided(g.randn(17, 129)))
    yield Case("out-scalar-other", g.randn(2049), 4.0, alpha=-1, out=g.randn(2049))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24), g.randn(1 << 24))
    yield Case("64M-alpha", g.randn(1 << 26), g.randn(1 << 26), alpha=0.5)
    yield Case("8192x8192-broadcast-row", g.randn(8192, 8192), g.randn(8192), alpha=2.0)
    yield Case("128M-out", g.randn(1 << 27), g.randn(1 << 27), out=g.randn(1 << 27))
