"""Elementwise Gauss error function of a float32 tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "erf"
SIGNATURE = "erf(input_tensor)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments of magnitude 1e-3, a precision probe.
TIERS = {"tiny-arguments": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Return erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-t^2) dt for every element of
`input_tensor`, a float32 tensor of any shape (possibly non-contiguous, possibly empty), as
torch.special.erf does: a new float32 tensor of the same shape with values in [-1, 1]. erf is odd,
erf(±inf) = ±1 and NaN stays NaN. Results must have float32 relative accuracy everywhere, including
tiny arguments (erf(x) ~ 2x/sqrt(pi) there, so an absolute-error approximation is not enough). The
input is never modified.
"""

# A rational/polynomial approximation plus an exp: ~20 operations per element.
FLOPS_PER_ELEMENT = 20


def reference(input_tensor):
    return torch.special.erf(input_tensor)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    edges = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -2.5, 3.0, -3.9, 4.0, 6.0, -10.0, 1e-3, -1e-6,
             1e-20, -1e-38, 1e10, -1e30, inf, -inf, nan]
    yield Case("edge-values", g.tensor(edges))
    yield Case("single", g.tensor([-0.75]))
    yield Case("empty", g.randn(0, 9))
    yield Case("odd-1d", g.randn(1003))
    yield Case("uniform-wide", g.uniform(4099, low=-6.0, high=6.0))
    yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=1.5))
    # Tiny arguments: the reference scale is ~1e-3, so errors of 1e-7 absolute are caught.
    yield Case("tiny-arguments", g.uniform(2000, low=-2e-3, high=2e-3))
    yield Case("strided", g.strided(g.randn(33, 65, std=2.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-3.0, high=3.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=2.0))
    yield Case("64M", g.randn(1 << 26, std=2.0))
    yield Case("128M", g.randn(1 << 27, std=2.0))
