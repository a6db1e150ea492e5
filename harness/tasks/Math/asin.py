"""Elementwise arcsine of a float32 tensor."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "asin"
SIGNATURE = "asin(input_tensor)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments within 1e-3 of the ends of the domain.
TIERS = {"near-plus-one": "edge", "near-minus-one": "edge"}
DIFFICULTY = 1
DESCRIPTION = """
Return the arcsine of every element of `input_tensor`, a float32 tensor of any shape (possibly
non-contiguous, possibly empty), as torch.asin does: a new float32 tensor of the same shape with
values in [-pi/2, pi/2]. asin(±1) = ±pi/2, asin(±0) = ±0. Inputs outside [-1, 1] (including ±inf)
and NaN give NaN. Results must keep float32 accuracy over the whole domain, including arguments
very close to ±1 and tiny arguments. The input is never modified.
"""

# A degree-5 polynomial, a square root and a few selects per element.
FLOPS_PER_ELEMENT = 15


def reference(input_tensor):
    return torch.asin(input_tensor)


def cases(g: Inputs):
    inf, nan = float("inf"), float("nan")
    edges = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.49999997, 0.50000006, 0.99999994, -0.99999994,
             0.9999, -0.999, 1e-6, -1e-6, 1e-30, 0.7071068, -0.8660254, 1.0000001, -1.0000001,
             2.0, -3.0, inf, -inf, nan]
    yield Case("edge-values", g.tensor(edges))
    yield Case("single", g.tensor([0.25]))
    yield Case("empty", g.randn(0, 7))
    yield Case("uniform-domain", g.uniform(4099, low=-1.0, high=1.0))
    # Right next to ±1, where asin is steep (sqrt singularity) and 1 - |x| must not be lost.
    near = g.uniform(1000, low=0.999, high=1.0)
    yield Case("near-plus-one", near)
    yield Case("near-minus-one", g.uniform(1000, low=-1.0, high=-0.999))
    yield Case("small-3d", g.randn(3, 37, 129, std=0.3))
    # Some entries fall outside [-1, 1] and must become NaN.
    yield Case("outside-domain", g.randn(2000, std=1.2))
    yield Case("strided", g.strided(g.uniform(33, 65, low=-1.0, high=1.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=-1.0, high=1.0)))


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=-1.0, high=1.0))
    yield Case("64M", g.uniform(1 << 26, low=-1.0, high=1.0))
    yield Case("128M", g.uniform(1 << 27, low=-1.0, high=1.0))
