"""tanh(sqrt(x)) elementwise on a float32 tensor, optionally written into an out= tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "sqrt_tanh"
SIGNATURE = "sqrt_tanh(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
For every element x of a float32 tensor compute tanh(sqrt(x)) (first the square root, then the
hyperbolic tangent of it), like torch.tanh(torch.sqrt(input), out=out). Negative inputs (and -inf)
give NaN because their square root is NaN; +-0 gives +-0; +inf gives 1; NaN stays NaN. The result
must have float32 relative accuracy for every input, also for tiny ones (x around 1e-10, where
tanh(sqrt(x)) is about sqrt(x) = 1e-5) and for large ones, where it saturates at 1 without
overflowing to NaN. `input` has any shape (possibly 0-d, empty or non-contiguous). If `out` is
None return a new float32 tensor of the input's shape; otherwise `out` is a float32 tensor of that
shape (possibly a strided view): write the result into it and return `out` itself. The input must
not be modified.
"""

# A square root, an exponential and a few multiply-adds per element.
FLOPS_PER_ELEMENT = 8


def reference(input, out=None):
    if out is None:
        out = torch.empty_like(input)
    sqrt_result = torch.sqrt(input)
    return torch.tanh(sqrt_result, out=out)


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    yield Case("edge-values", g.tensor([0.0, -0.0, 0.25, 1.0, 4.0, 9.0, -1.0, -1e-30, float("-inf"),
                                        inf, nan, 100.0, 1e4, 3e38, 0.01, 2.0]))
    # Tiny inputs: tanh(s) ~ s = sqrt(x) <= 1e-4. Formulas such as 1 - 2/(exp(2s) + 1) or
    # (1 - exp(-2s)) / (1 + exp(-2s)) cancel here and lose ~1e-3 relative accuracy; torch's tanh
    # (and a float32 kernel using a series or libdevice tanh for small s) does not.
    yield Case("tiny-uniform", g.uniform(1000, low=0.0, high=1e-8))
    yield Case("tiny-logspaced", g.tensor([1e-16, 1e-14, 1e-12, 4e-12, 1e-10, 3e-10, 1e-9]))
    yield Case("small-uniform", g.uniform(1000, low=0.0, high=0.1))
    yield Case("single-0d", g.tensor(0.36))
    yield Case("empty", g.randn(0, 3))
    yield Case("uniform-odd", g.uniform(4099, low=0.0, high=4.0))
    yield Case("uniform-wide-3d", g.uniform(3, 37, 129, low=0.0, high=100.0))
    # Half of these are negative (NaN).
    yield Case("randn-mixed-sign", g.randn(2049, std=2.0))
    yield Case("outliers-abs", g.heavy_tailed(33, 65, scale=0.5).abs())
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.0, high=3.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=0.0, high=2.0)))
    yield Case("out", g.uniform(64, 300, low=0.0, high=5.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(31, 67, low=0.0, high=1.0), out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.0, high=10.0))
    yield Case("64M-out", g.uniform(1 << 26, low=0.0, high=10.0), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=0.0, high=10.0))
