"""input / other on float32 tensors with true, truncating or flooring division, broadcasting, out=."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "div"
SIGNATURE = "div(input, other, rounding_mode=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Divide `input` by `other` elementwise, as torch.div(input, other, rounding_mode=rounding_mode,
out=out). `input` is a float32 tensor of any shape (possibly non-contiguous, 0-dimensional or
empty); `other` is a float32 tensor or a Python number; tensors broadcast against each other with
the usual rules and the result (float32) has the broadcast shape.
- rounding_mode=None: true division, the correctly rounded float32 quotient with IEEE special
  values (x/0 = ±inf, 0/0 = NaN, finite/inf = ±0, inf/inf = NaN, NaN propagates).
- rounding_mode='trunc': the true-division float32 quotient rounded toward zero (so 1.0 / 0.1 in
  float32, whose rounded quotient is exactly 10.0, gives 10).
- rounding_mode='floor': floor division with Python's float `//` semantics, i.e. the floor of the
  *exact* quotient of the two float32 values, not of the rounded one: 1.0 // 0.1 gives 9 and
  -0.3 // 0.1 gives -4 in float32 because 0.1f is slightly above 1/10. Division by zero gives the
  true-division result (±inf or NaN); ±inf divided by a finite nonzero number gives NaN; a finite
  x divided by ±inf gives 0 when x and the divisor have the same sign (or x is 0) and -1 otherwise.
When `out` is None return a new tensor; when `out` is given (a float32 tensor of the broadcast
shape, possibly non-contiguous) write the result into it and return `out` itself. The inputs are
never modified.
"""

# A division plus a few selects / an fma for the rounding modes.
FLOPS_PER_ELEMENT = 4


def reference(input, other, rounding_mode=None, out=None):
    return torch.div(input, other, rounding_mode=rounding_mode, out=out)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    # Moderate edge values (the comparison scale is the RMS of the reference, so huge quotients
    # are kept apart from the ones whose exact value matters).
    a = g.tensor([1.0, -7.0, 7.0, 5.0, -5.0, 1.0, -1.0, 0.0, -0.5, 6.0, -6.0, 0.3, -0.3, 7.5, -1e-30,
                  2.0, -2.5, 1.0, 9.0, -9.0])
    b = g.tensor([0.1, 2.0, -2.0, inf, inf, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 0.1, 0.1, -inf, 1e30,
                  nan, 0.5, 3.0, -0.3, 0.3])
    # Overflow, underflow and non-finite quotients together; finite quotients far from 1 (beyond
    # 2**24 among them) in cases of their own, one magnitude each (the comparison's absolute term
    # scales with the RMS of the reference: 1.4e19 beside 1.1e7 or 0 would hide any error in those)
    big_a = g.tensor([3e38, 1e-45, 1e30, inf, -inf, nan, 0.0, inf])
    big_b = g.tensor([1e-38, 3.0, -1e-10, 2.0, -0.5, 1.0, -inf, inf])
    large = (("large-quotients", g.tensor([33554432.0, 50331648.0, -16777217.0]), g.tensor([3.0, 7.0, 3.0])),
             ("huge-quotients", g.tensor([1e20, -3e21]), g.tensor([7.0, 3.0])))
    for mode in (None, "trunc", "floor"):
        yield Case("edge-values", a, b, rounding_mode=mode)
        yield Case("extreme-values", big_a, big_b, rounding_mode=mode)
        for label, num, den in large:
            yield Case(label, num, den, rounding_mode=mode)
        yield Case("randn-odd", g.randn(1003, std=10.0), g.randn(1003), rounding_mode=mode)
        yield Case("broadcast", g.uniform(40, 129, low=-100.0, high=100.0),
                   g.uniform(129, low=0.5, high=8.0), rounding_mode=mode)
        # Exact multiples (k * d is exact in float32 since d has few mantissa bits): the quotient
        # is exactly an integer, so an approximate division that lands just below it breaks
        # 'trunc' and 'floor'.
        k = g.randint(-200, 200, 4099).to(torch.float32)
        d = g.randint(1, 16, 4099).to(torch.float32) * 0.25
        yield Case("exact-multiples", k * d, d, rounding_mode=mode)
    # Python-number divisors are powers of two for the rounding modes: PyTorch's CUDA kernels
    # divide by a scalar as a * (1/b), which rounds differently from a / b at near-integer
    # quotients unless 1/b is exact.
    yield Case("scalar-divisor", g.randn(2049, std=5.0), 3.0)
    yield Case("scalar-divisor-trunc", g.uniform(2049, low=-50.0, high=50.0), 0.25, rounding_mode="trunc")
    yield Case("scalar-divisor-floor", g.uniform(2049, low=-50.0, high=50.0), -4.0, rounding_mode="floor")
    yield Case("zero-dim-tensors", g.tensor(6.0), g.tensor(3.0))
    yield Case("zero-dim-divisor-floor", g.uniform(31, 7, low=-20.0, high=20.0), g.tensor(-1.5),
               rounding_mode="floor")
    yield Case("col-and-row", g.randn(37, 1, std=30.0), g.uniform(1, 65, low=-6.0, high=6.0),
               rounding_mode="trunc")
    yield Case("broadcast-5d", g.randn(2, 3, 1, 5, 7), g.uniform(3, 4, 1, 7, low=0.5, high=2.0),
               rounding_mode="floor")
    yield Case("outliers", g.heavy_tailed(3, 37, 129, scale=4.0), g.heavy_tailed(3, 37, 129))
    yield Case("strided-and-transposed", g.strided(g.uniform(48, 97, low=-30.0, high=30.0)),
               g.transposed(g.uniform(48, 97, low=1.0, high=3.0)), rounding_mode="floor")
    yield Case("single", g.randn(1), g.randn(1))
    yield Case("empty", g.randn(0, 5), g.randn(0, 1), rounding_mode="floor")
    yield Case("out", g.randn(64, 300), g.uniform(64, 300, low=0.5, high=2.0), out=g.randn(64, 300))
    yield Case("out-strided-floor", g.uniform(17, 1, low=-40.0, high=40.0),
               g.uniform(129, low=-5.0, high=5.0), rounding_mode="floor",
               out=g.strided(g.randn(17, 129)))
    yield Case("out-trunc", g.uniform(2049, low=-40.0, high=40.0), g.uniform(2049, low=-3.0, high=3.0),
               rounding_mode="trunc", out=g.randn(2049))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24), g.uniform(1 << 24, low=0.5, high=2.0))
    yield Case("64M-floor", g.randn(1 << 26, std=10.0), g.uniform(1 << 26, low=0.5, high=2.0),
               rounding_mode="floor")
    yield Case("128M-trunc", g.randn(1 << 27, std=10.0), g.uniform(1 << 27, low=0.5, high=2.0),
               rounding_mode="trunc")
