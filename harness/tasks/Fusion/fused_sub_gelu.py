"""A GELU-style transform of input - alpha * other on float32 (the published erf formula, or the tanh
GELU), in one pass."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Inputs

ENTRY = "fused_sub_gelu"
SIGNATURE = "fused_sub_gelu(input, other, alpha=1, approximate='none', out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "approximate"]
# Edge although the tier rule cannot see it: magnitudes of 1e4 are far outside the published test's normal inputs.
TIERS = {"large-magnitudes": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute g(input - alpha * other) elementwise, without storing the difference. `input` is a float32
tensor of any shape (possibly non-contiguous, 0-d or empty); `other` is a float32 tensor or a
Python number; tensors broadcast against each other with the usual rules (the result has the
common shape). `alpha` (a Python number, default 1) scales `other` only, which is subtracted. The
GELU-style g depends on `approximate`:
- 'none' (default): g(z) = z * erf(z / sqrt(2)) / 2. This is the published reference's formula and
  it is NOT the textbook exact GELU z * (1 + erf(z / sqrt(2))) / 2: it lacks the z / 2 term, so
  g(z) >= 0 and g(-z) = g(z). Reproduce g as written.
- 'tanh': g(z) = 0.5 * z * (1 + tanh(sqrt(2 / pi) * (z + 0.044715 * z^3))), the tanh-approximated
  GELU.
The result is float32; NaN propagates. When `out` is None return a new tensor; when `out` is given
(a float32 tensor of the broadcast shape, possibly non-contiguous) write the result into it and
return `out` itself. The inputs are never modified.
"""

# A subtraction, erf or tanh, and a handful of multiply-adds per element.
FLOPS_PER_ELEMENT = 12


def reference(input, other, alpha=1, approximate='none', out=None):
    z = torch.sub(input, other, alpha=alpha)
    if approximate == 'none':
        # The published formula (see DESCRIPTION): no "+ z / 2" term.
        result = z * torch.erf(z / 2.0 ** 0.5) / 2.0
    elif approximate == 'tanh':
        result = F.gelu(z, approximate='tanh')
    else:
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    if out is None:
        return result
    out.copy_(result)
    return out


def cases(g: Inputs):
    # No ±inf: the formulas give inf * 0 = NaN or disagree between PyTorch's CPU and CUDA kernels there.
    nan = float("nan")
    a = g.tensor([0.0, -0.0, 1.0, -1.0, 3.0, -3.0, 10.0, -10.0, 1e-6, 30.0, -30.0, nan, 0.5, 2.0])
    b = g.tensor([0.0, 0.0, -1.0, 2.0, 1.0, -1.0, 5.0, 4.0, 1e-6, -20.0, 25.0, 1.0, nan, -4.0])
    for approximate in ("none", "tanh"):
        yield Case("edge-values", a, b, approximate=approximate)
        yield Case("odd-1d-alpha", g.randn(1003), g.randn(1003), alpha=2, approximate=approximate)
        yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0), g.randn(3, 37, 129), alpha=-0.5,
                   approximate=approximate)
        yield Case("uniform-wide", g.uniform(4099, low=-8.0, high=8.0), g.uniform(4099, low=-2.0, high=2.0),
                   alpha=1.5, approximate=approximate)
        yield Case("scalar-other", g.randn(33, 65), 0.75, alpha=-2.0, approximate=approximate)
        yield Case("broadcast-row", g.randn(40, 129), g.randn(129), approximate=approximate)
        yield Case("strided-transposed", g.strided(g.randn(48, 97)), g.transposed(g.randn(48, 97)),
                   alpha=0.5, approximate=approximate)
    yield Case("default-args", g.randn(64, 300), g.randn(64, 300))
    yield Case("alpha-zero", g.randn(2049), g.randn(2049), alpha=0)
    yield Case("large-magnitudes", g.randn(1000, std=1e4), g.randn(1000, std=1e4), approximate="tanh")
    yield Case("broadcast-input-smaller", g.randn(129), g.randn(17, 129), alpha=-1)
    yield Case("broadcast-5d", g.randn(2, 3, 1, 5, 7), g.randn(3, 4, 1, 7), alpha=0.25)
    yield Case("zero-dim-other", g.randn(31, 7), g.tensor(0.4), alpha=2.0)
    # |z| <= 3: below about -3.5 the tanh form is 1 + tanh(.) ~ 1e-4, where one ulp of either side's
    # tanh moves a lone value by more than the float32 tolerance (a 0-d output has no other values to
    # scale the absolute tolerance by); a draw of z = -4 failed the bundled solution on the H200
    yield Case("zero-dim-both", g.uniform(low=-1.5, high=1.5), g.uniform(low=-1.5, high=1.5), approximate="tanh")
    yield Case("single", g.randn(1), g.randn(1))
    yield Case("empty", g.randn(0, 5), g.randn(0, 1))
    yield Case("out", g.randn(64, 300), g.randn(64, 300), alpha=0.75, out=g.randn(64, 300))
    yield Case("out-strided-broadcast-tanh", g.randn(17, 1), g.randn(129), alpha=-2.0, approximate="tanh",
               out=g.strided(g.randn(17, 129)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24), g.randn(1 << 24))
    yield Case("64M-alpha-tanh", g.randn(1 << 26), g.randn(1 << 26), alpha=0.5, approximate="tanh")
    yield Case("128M", g.randn(1 << 27), g.randn(1 << 27), alpha=2)
    yield Case("8192x8192-broadcast-row", g.randn(8192, 8192), g.randn(8192))
