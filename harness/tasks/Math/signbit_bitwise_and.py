"""Sign bits of a float32 tensor plus a bitwise AND of it (cast to other's int8/bool dtype) with other."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "signbit_bitwise_and"
SIGNATURE = "signbit_bitwise_and(input, other)"
DTYPES = ["bool", "float32", "int8"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bool", "float32", "int8"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Given a float32 tensor `input` and a tensor `other` of dtype int8 or bool, return a tuple of two new
tensors, in this order:
(1) torch.signbit(input): a bool tensor of input's shape, True where the IEEE sign bit of the
element is set (negative numbers, -inf and also -0.0), False otherwise (+0.0, positive numbers,
+inf);
(2) torch.bitwise_and(input.to(other.dtype), other): `input` is first converted to other's dtype,
then ANDed bit by bit with `other`; the result has other's dtype. Converting to int8 rounds toward
zero (2.9 -> 2, -1.7 -> -1, -0.5 -> 0); converting to bool gives True for every nonzero value,
including fractions such as 0.25 and NaN/inf, and False for +-0.0 (it is not a conversion through
an integer). For int8 `other`, the inputs are finite and their truncations fit in int8 (magnitudes
below 128). For bool `other` any float32 value may occur.
`other` has input's shape or a shape that broadcasts to it (e.g. a single row); the second result
then has input's shape. Either tensor may be non-contiguous. The inputs must not be modified.
"""

# A bit test, a conversion and an AND per element.
FLOPS_PER_ELEMENT = 3


def reference(input, other):
    return torch.signbit(input), torch.bitwise_and(input.to(other.dtype), other)


def _with_zeros(g: Inputs, x: torch.Tensor) -> torch.Tensor:
    """x with about a third of its entries replaced by +0.0 or -0.0 (kept sign)."""
    keep = g.randint(0, 3, *x.shape) > 0
    return torch.where(keep, x, x * 0.0)


def cases(g: Inputs):
    i8, b = torch.int8, torch.bool
    nan, inf = float("nan"), float("inf")
    yield Case("doc-example", g.tensor([0.7, -1.2, 0.0, 2.3]), g.tensor([1, 0, 1, 1], dtype=i8))
    # Truncation toward zero: -1.5 -> -1 (not -2) and -0.5 -> 0; -1 is all bits set in int8.
    x_i8 = [-0.0, 0.0, -0.5, 0.5, -1.0, -1.5, 127.9, -128.5, 64.7, -3.2, 5.99, -99.9, 33.0, -7.0]
    o_i8 = [-1, -1, -1, 127, -1, -1, -1, -1, 85, -86, 7, 127, -1, 106]
    yield Case("edge-int8", g.tensor(x_i8), g.tensor(o_i8, dtype=i8))
    # Conversion to bool is x != 0: fractions, NaN and inf are True; -0.0 is False (but has its
    # sign bit set).
    x_b = [0.0, -0.0, 0.5, -0.25, nan, inf, -inf, 1e-30, 3.0, 0.0, -0.0, 0.75, -nan, 1e-45]
    o_b = [True, True, True, True, True, True, True, True, False, False, True, True, True, True]
    yield Case("edge-bool", g.tensor(x_b), g.tensor(o_b, dtype=b))
    yield Case("int8-uniform-odd", g.uniform(4099, low=-128.0, high=128.0),
               g.randint(-128, 128, 4099, dtype=i8))
    yield Case("int8-small-fractions", _with_zeros(g, g.uniform(33, 65, low=-3.0, high=3.0)),
               g.randint(-128, 128, 33, 65, dtype=i8))
    yield Case("bool-randn-3d", _with_zeros(g, g.randn(3, 37, 129)),
               g.randint(0, 2, 3, 37, 129, dtype=b))
    yield Case("bool-fractions", _with_zeros(g, g.uniform(2049, low=-1.0, high=1.0)),
               g.randint(0, 2, 2049, dtype=b))
    yield Case("bool-outliers", g.heavy_tailed(1000, scale=0.5), g.randint(0, 2, 1000, dtype=b))
    yield Case("int8-strided-input", g.strided(g.uniform(33, 65, low=-100.0, high=100.0)),
               g.randint(-128, 128, 33, 65, dtype=i8))
    yield Case("bool-transposed-other", _with_zeros(g, g.randn(97, 48)),
               g.transposed(g.randint(0, 2, 97, 48, dtype=b)))
    yield Case("int8-broadcast-row", g.uniform(37, 129, low=-50.0, high=50.0),
               g.randint(-128, 128, 129, dtype=i8))
    yield Case("bool-broadcast-column", _with_zeros(g, g.randn(40, 50)),
               g.randint(0, 2, 40, 1, dtype=b))
    yield Case("single-0d", g.tensor(-6.5), g.tensor(-3, dtype=i8))
    yield Case("empty", g.randn(0, 4), g.randint(0, 2, 0, 4, dtype=b))


def perf_cases(g: Inputs):
    yield Case("16M-int8", g.uniform(1 << 24, low=-100.0, high=100.0),
               g.randint(-128, 128, 1 << 24, dtype=torch.int8))
    yield Case("64M-bool", g.randn(1 << 26), g.randint(0, 2, 1 << 26, dtype=torch.bool))
    yield Case("128M-int8", g.uniform(1 << 27, low=-100.0, high=100.0),
               g.randint(-128, 128, 1 << 27, dtype=torch.int8))
