"""Polygamma function psi^(n)(x), the n-th derivative of digamma, of a float32 tensor, optional out=."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "polygamma"
SIGNATURE = "polygamma(n, input, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: arguments next to a pole (digamma-1e-6, order-2-near-pole).
TIERS = {"digamma-1e-6": "edge", "order-2-near-pole": "edge"}
DIFFICULTY = 4
DESCRIPTION = """
Compute the polygamma function of order n, psi^(n)(x) = d^n/dx^n psi(x) with psi = Gamma'/Gamma the
digamma function, for every element x of a float32 tensor `input` (any shape, possibly
non-contiguous, possibly empty), like torch.special.polygamma(n, input, out=out) (the published
reference passes the input through torch.as_tensor first, which leaves a tensor unchanged). `n` is a
Python int >= 0: n = 0 is digamma, n = 1 trigamma; for n >= 1,
psi^(n)(x) = (-1)^(n+1) n! sum_{k>=0} 1 / (x + k)^(n+1) (the Hurwitz zeta function). Results must be
float32-accurate for positive x, for negative non-integer x (including next to the poles) and for
large x. Edge values, as torch defines them: digamma(+0) = -inf, digamma(-0) = +inf, digamma is
NaN at negative integers and at -inf and +inf at +inf; for n >= 1 the value at x = 0 is
(-1)^(n+1) * inf, for odd n it is +inf at every negative integer, and trigamma(+inf) = 0. NaN stays
NaN. (Not tested, because torch's float32 formulas give values there that are not properties of the
function: trigamma at negative integers, even n >= 2 at negative integers, n >= 1 at -inf, n >= 2
at +inf.) When `out` is None return a new float32 tensor of the input's shape. When `out` is given
(a float32 tensor of the input's shape, possibly non-contiguous) write the result into it and return
`out` itself. The input is never modified.
"""

# A recurrence of up to ~10 steps of n + 1 multiplies plus an asymptotic series per element.
FLOPS_PER_ELEMENT = 80


def cost(case: Case, output) -> Cost:
    # Read the input once and write the result once; a given `out` is only written.
    x = case.args[1]
    return Cost(flops=FLOPS_PER_ELEMENT * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(n, input, *, out=None):
    input = torch.as_tensor(input)
    return torch.special.polygamma(n, input, out=out)


def _negative_off_poles(g: Inputs, count: int, max_int: int):
    # x = -(k + u), k integer, u in [0.05, 0.95]: negative non-integers at least 0.05 from a pole.
    # torch's float32 trigamma reflects with sin(pi * x) of the rounded product pi * x, whose error
    # grows like 1/|sin(pi x)| next to the poles, so trigamma is tested away from them.
    k = g.randint(0, max_int, count, dtype=torch.float32)
    return -(k + g.uniform(count, low=0.05, high=0.95))


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    # The comparison's absolute term scales with the RMS of the reference, so magnitudes are grouped.
    digamma_edges = [1.0, 2.0, 0.5, 1.5, 3.0, 1.4616321, 5.0, 10.0, 0.1, -0.5, -1.5, -2.3, -0.9,
                     -3.999, -4.001, 0.0, -0.0, -1.0, -2.0, -3.0, inf, -inf, nan]
    yield Case("digamma-edges", 0, g.tensor(digamma_edges))
    yield Case("digamma-edges-out", 0, g.tensor(digamma_edges), out=g.randn(len(digamma_edges)))
    yield Case("digamma-large", 0, g.tensor([1e3, 1e5, 1e10, 1e20, 1e30, 123.456]))
    # (next to the pole at 0, one magnitude of result per case: the comparison's absolute term
    # scales with the RMS of the reference)
    yield Case("digamma-tiny", 0, g.tensor([1e-30, 3e-30]))
    yield Case("digamma-1e-20", 0, g.tensor([1e-20, -1e-20]))
    yield Case("digamma-1e-10", 0, g.tensor([1e-10, -3e-10]))
    yield Case("digamma-1e-6", 0, g.tensor([-1e-6, 2e-6]))
    yield Case("trigamma-edges", 1, g.tensor([1.0, 2.0, 0.5, 0.1, 3.0, 10.0, 100.0, 1e4, -0.5,
                                              -1.5, -2.25, -3.7, 0.0, inf, nan]))
    yield Case("trigamma-large", 1, g.tensor([1e10, 1e20, 1e30, 1e5]))
    yield Case("order-2-edges", 2, g.tensor([1.0, 0.5, 2.0, 5.0, 0.3, -0.5, -1.5, -2.7, 0.0, nan]))
    yield Case("order-2-near-pole", 2, g.tensor([-0.999, -1.001, -2.999]))
    yield Case("order-3-edges", 3, g.tensor([1.0, 0.5, 2.0, 5.0, 0.3, -0.5, -1.5, -2.7, 0.0, -1.0,
                                             -2.0, -30.0, nan]))
    yield Case("single", 4, g.uniform(1, low=1.0, high=2.0))
    yield Case("empty", 1, g.randn(0, 4))
    yield Case("digamma-positive", 0, g.uniform(1003, low=0.01, high=20.0))
    yield Case("digamma-negative", 0, g.uniform(2000, low=-8.0, high=0.0))
    yield Case("trigamma-positive", 1, g.uniform(2000, low=0.05, high=10.0))
    yield Case("trigamma-negative", 1, _negative_off_poles(g, 1500, 6))
    yield Case("order-2-randn", 2, g.randn(1500, std=3.0))
    yield Case("order-3-3d", 3, g.uniform(3, 37, 41, low=0.1, high=5.0))
    yield Case("order-4-wide", 4, g.uniform(2000, low=0.2, high=30.0))
    yield Case("order-4-negative", 4, _negative_off_poles(g, 1000, 40))
    yield Case("order-6", 6, g.uniform(1000, low=0.5, high=10.0))
    yield Case("order-9", 9, g.uniform(500, low=1.0, high=20.0))
    yield Case("strided", 1, g.strided(g.uniform(33, 65, low=0.1, high=15.0)))
    yield Case("transposed", 0, g.transposed(g.uniform(97, 48, low=-6.0, high=6.0)))
    yield Case("out-2d", 2, g.uniform(64, 100, low=0.05, high=8.0), out=g.randn(64, 100))
    yield Case("out-strided", 1, g.uniform(17, 129, low=0.2, high=4.0), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", 3, g.uniform(1025, low=1.0, high=50.0), out=None)


def perf_cases(g: Inputs):
    yield Case("digamma-16M", 0, g.uniform(1 << 24, low=0.01, high=50.0))
    yield Case("trigamma-64M-out", 1, g.uniform(1 << 26, low=0.01, high=50.0), out=g.randn(1 << 26))
    yield Case("order-3-64M", 3, g.uniform(1 << 26, low=0.01, high=50.0))
    yield Case("digamma-128M", 0, g.uniform(1 << 27, low=-20.0, high=50.0))
