"""Logit log(z / (1 - z)) of a float32 tensor, with optional clamping of z to [eps, 1 - eps]."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "logit"
SIGNATURE = "logit(input, eps=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "out"]
# Edge although the tier rule cannot see it: probabilities within 1e-4 of 0 and 1.
TIERS = {"near-ends": "edge"}
DIFFICULTY = 2
DESCRIPTION = """
Compute the logit (inverse sigmoid) of every element of a float32 tensor (any shape, possibly
non-contiguous, possibly empty): y = log(z / (1 - z)). If `eps` is None (the default) z is the input
itself, so inputs outside [0, 1] (and ±inf) give NaN, 0 gives -inf and 1 gives +inf. If `eps` is a
float (0.0 counts: it is not None), z is the input clamped to [eps, 1 - eps] first (values below eps
become eps, values above 1 - eps become 1 - eps, with the bounds rounded to float32 like
torch.clamp(input, eps, 1 - eps)); NaN inputs stay NaN either way. Like the published reference,
compute the ratio z / (1 - z) in float32 and take its natural log (same result as
torch.special.logit). When `out` is None return a new float32 tensor of the input's shape. When
`out` is given (a float32 tensor of the input's shape, possibly non-contiguous) write the result
into it and return `out` itself. The input is never modified.
"""

# Two selects, a subtraction, a division and a log per element.
FLOPS_PER_ELEMENT = 5


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[0] if case.args else case.kwargs["input"]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, eps=None, out=None):
    if eps is not None:
        input = torch.clamp(input, eps, 1 - eps)
    return torch.log(input / (1 - input), out=out)


def cases(g: Inputs):
    # Inside (0, 1), the ends 0 and 1, outside the domain, close to the ends, NaN and infinities.
    edges = [0.5, 0.25, 0.75, 0.1, 0.9, 1e-3, 0.999, 1e-7, 1 - 1e-7, 0.0, -0.0, 1.0, -0.1, 1.1,
             -5.0, 5.0, float("inf"), float("-inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-eps", g.tensor(edges), eps=1e-6)
    yield Case("edge-values-eps-zero", g.tensor(edges), eps=0.0)  # clamp to [0, 1]: ±inf, not NaN
    yield Case("edge-values-out", g.tensor(edges), out=g.randn(len(edges)))
    yield Case("single", g.uniform(1, low=0.6, high=0.7))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.uniform(1003, low=0.0, high=1.0))
    yield Case("near-ends", torch.cat([g.uniform(1000, low=0.0, high=1e-4),
                                       g.uniform(1000, low=0.9999, high=1.0)]))
    yield Case("unit-3d", g.uniform(3, 37, 129, low=0.001, high=0.999))
    # Normal values are mostly outside [0, 1]: NaN without eps, clamped with eps.
    yield Case("randn-no-eps", g.randn(2000))
    yield Case("randn-eps-small", g.randn(2000, std=0.3, mean=0.5), eps=1e-6)
    yield Case("uniform-eps-large", g.uniform(4099, low=-0.2, high=1.2), eps=0.2)
    yield Case("outliers-eps", g.heavy_tailed(1500, scale=0.2), eps=1e-3)
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.01, high=0.99)))
    yield Case("transposed-eps", g.transposed(g.uniform(97, 48, low=-0.1, high=1.1)), eps=0.05)
    yield Case("out-2d-eps", g.uniform(64, 300, low=-0.5, high=1.5), eps=0.01, out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=0.0, high=1.0), out=g.strided(g.randn(17, 129)))
    yield Case("eps-none-explicit", g.uniform(2049, low=0.2, high=0.8), eps=None, out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=0.0, high=1.0))
    yield Case("64M-eps-out", g.uniform(1 << 26, low=-0.1, high=1.1), eps=1e-6, out=g.randn(1 << 26))
    yield Case("128M-eps", g.uniform(1 << 27, low=0.0, high=1.0), eps=1e-6)
