"""Elementwise reciprocal 1/x of a float32 tensor, optionally into an out= tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "reciprocal"
SIGNATURE = "reciprocal(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Compute 1 / x for every element of a float32 tensor, like torch.reciprocal(input, out=out), with
IEEE semantics: 1/(+0) = +inf, 1/(-0) = -inf, 1/(+-inf) = +-0, NaN stays NaN, and the sign of x
is kept. The result is float32 with float32 accuracy (a few units in the last place) over the whole
float32 range, from about 1e-37 to 3e38 in magnitude. `input` has any shape (possibly 0-d, empty or
non-contiguous). If `out` is None return a new float32 tensor of the input's shape; otherwise `out`
is a float32 tensor of that shape (possibly a strided view): write the result into it and return
`out` itself. The input must not be modified.
"""

# One division per element.
FLOPS_PER_ELEMENT = 1


def _signed(g: Inputs, *shape, low: float, high: float):
    """Magnitudes uniform in [low, high) with random signs."""
    mag = g.uniform(*shape, low=low, high=high)
    sign = g.randint(0, 2, *shape).to(mag.dtype) * 2 - 1
    return mag * sign


def reference(input, out=None):
    return torch.reciprocal(input, out=out)


def cases(g: Inputs):
    # Magnitudes are grouped: the tolerance scales with the RMS of the reference, so a 1e30 output
    # next to 0.5 would hide errors in the small one. No subnormal inputs or outputs (GPU kernels
    # may flush them to zero).
    yield Case("edge-zero-inf-nan", g.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"),
                                              2.0, -0.25, 1.0, -1.0, 3.0]))
    yield Case("tiny-inputs", g.tensor([1e-30, -3e-30, 2e-30, -1.5e-30, 5e-30, 1.2e-30]))
    yield Case("near-min-normal", g.tensor([2e-38, -3e-38, 5e-38, -1.5e-37, 4e-38]))
    yield Case("huge-inputs", g.tensor([1e30, -3e30, 2e30, -1.5e30, 5e30, 1.2e30]))
    yield Case("near-max", g.tensor([3.0e38, -2.0e38, 1.0e37, -5.0e37, 3.4e38]))
    yield Case("single-0d", g.tensor(-0.375))
    yield Case("empty", g.randn(0, 3))
    yield Case("uniform-signed-odd", _signed(g, 4099, low=0.25, high=4.0))
    yield Case("uniform-wide-3d", _signed(g, 3, 37, 129, low=1.0, high=1000.0))
    # Standard normal values reach |x| ~ 1e-4, so outputs span 1e-1 .. 1e4.
    yield Case("randn", g.randn(2049))
    yield Case("outliers", g.heavy_tailed(33, 65, scale=3.0))
    yield Case("strided", g.strided(_signed(g, 33, 65, low=0.5, high=8.0)))
    yield Case("transposed", g.transposed(_signed(g, 97, 48, low=0.1, high=2.0)))
    yield Case("out", _signed(g, 64, 300, low=0.2, high=5.0), out=g.randn(64, 300))
    yield Case("out-strided", _signed(g, 31, 67, low=1.0, high=3.0), out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24))
    yield Case("64M-out", g.randn(1 << 26), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27))
