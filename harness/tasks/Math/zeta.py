"""Hurwitz zeta function zeta(x, q) elementwise on float32 tensors (broadcast, scalar, out=)."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "zeta"
SIGNATURE = "zeta(input, other, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: the singular regions (x close to 1, q close to 0), outside the published test's ordinary range.
TIERS = {"x-near-1": "edge", "small-q": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute the Hurwitz zeta function zeta(x, q) = sum_{k>=0} 1 / (k + q)^x elementwise, like
torch.special.zeta(input, other, out=out), with x taken from `input` and q from `other`. Each of
them is a float32 tensor or a Python number (not both numbers); tensors broadcast against each
other with PyTorch's rules and may be non-contiguous; the result is float32 with the broadcast
shape. With q = 1 this is the Riemann zeta function (zeta(2, 1) = pi^2/6). Special values, checked
in this order: x == 1 gives +inf; x < 1 (including -inf) gives NaN; q a non-positive integer (0,
-1, -2, ...) gives +inf; q < 0 with a non-integer x gives NaN. For q < 0 (not an integer) and an
integer x > 1 the series is still summed term by term, (k + q)^x keeping its sign (negative for
odd x), e.g. zeta(2, -1.5) = 1/2.25 + 1/0.25 + zeta(2, 0.5). NaN inputs otherwise give NaN.
Inputs in the tests have x in (1, 60] and q in (0, 1000] or, with integer x, q in (-10, 0); the
result must be float32-accurate there (relative error well below 1e-4) although it spans many
orders of magnitude (near 1/(x-1) for x close to 1, near q^-x for large x or small q).
If `out` is None return a new tensor; otherwise `out` is a float32 tensor of the result's shape
(possibly a strided view): write the result into it and return `out` itself. The inputs must not
be modified.
"""

# About ten power evaluations (log2 + exp2 + a few multiply-adds each) plus the tail.
FLOPS_PER_ELEMENT = 60


def reference(input, other, out=None):
    return torch.special.zeta(input, other, out=out)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). The upstream reference itself is
# computed in float32 on CUDA (Cephes' algorithm in the accumulation type), in float64 on CPU;
# simulating both against mpmath on these input ranges gives at most ~1e-6 relative error
# (~1e-5 for a few negative-q values with cancelling terms, which the RMS term covers), and a
# float32 kernel using exp2(-x * log2(k + q)) for the terms stays within ~6e-6 as well.


def cases(g: Inputs):
    nan, inf = float("nan"), float("inf")
    # (x, q) pairs for the domain rules, in torch's order of checks, and a few exact values.
    pairs = [(1.0, 2.0), (0.5, 1.0), (-3.0, 1.0), (2.0, 0.0), (2.0, -2.0), (2.5, -2.0),
             (2.5, -1.5), (2.0, -1.5), (3.0, -2.5), (nan, 1.5), (2.0, nan), (float("-inf"), 2.0),
             (1.0, -0.5), (0.5, -2.0), (2.0, 1.0), (4.0, 1.0), (4.0, 2.0), (2.0, 0.5),
             (3.0, -0.25), (7.0, -3.75), (1.5, 3.0), (6.0, -inf)]
    yield Case("domain-edges", g.tensor([p[0] for p in pairs]), g.tensor([p[1] for p in pairs]))
    yield Case("riemann-scalar-q", g.tensor([2.0, 4.0, 1.5, 3.0, 10.0, 1.01, 20.0, 50.0, 1.2]), 1.0)
    yield Case("scalar-x", 3.0, g.uniform(1000, low=0.2, high=20.0))
    yield Case("uniform-odd", g.uniform(4099, low=1.1, high=10.0), g.uniform(4099, low=0.1, high=10.0))
    # x close to 1: zeta ~ 1/(x - 1) is large and depends on the tail's integral term.
    yield Case("x-near-1", g.uniform(1000, low=1.001, high=1.1), g.uniform(1000, low=0.5, high=3.0))
    yield Case("large-x", g.uniform(1000, low=10.0, high=40.0), g.uniform(1000, low=0.8, high=5.0))
    yield Case("large-q", g.uniform(1000, low=2.0, high=6.0), g.uniform(1000, low=10.0, high=1000.0))
    yield Case("small-q", g.uniform(1000, low=1.5, high=3.0), g.uniform(1000, low=1e-3, high=0.1))
    # Negative non-integer q with integer x: more direct terms, signed for odd x.
    yield Case("negative-q-int-x", g.randint(2, 8, 1000).to(torch.float32),
               g.uniform(1000, low=-10.0, high=-0.05))
    yield Case("broadcast", g.uniform(37, 1, low=1.5, high=6.0), g.uniform(1, 129, low=0.3, high=8.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=1.2, high=5.0)), g.uniform(33, 65, low=0.5, high=4.0))
    yield Case("transposed", g.uniform(40, 50, low=2.0, high=8.0),
               g.transposed(g.uniform(40, 50, low=0.2, high=3.0)))
    yield Case("single-0d", g.tensor(2.0), g.tensor(0.75))
    yield Case("empty", g.uniform(0, 3, low=2.0, high=3.0), g.uniform(0, 3, low=1.0, high=2.0))
    yield Case("out", g.uniform(64, 100, low=1.5, high=4.0), g.uniform(64, 100, low=0.5, high=5.0),
               out=g.randn(64, 100))
    yield Case("out-strided-broadcast", g.uniform(31, 67, low=2.0, high=3.0), g.uniform(67, low=1.0, high=2.0),
               out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("4M", g.uniform(1 << 22, low=1.1, high=10.0), g.uniform(1 << 22, low=0.1, high=10.0))
    yield Case("16M", g.uniform(1 << 24, low=1.1, high=10.0), g.uniform(1 << 24, low=0.1, high=10.0))
    yield Case("32M-scalar-q", g.uniform(1 << 25, low=1.1, high=10.0), 1.0)
    yield Case("64M-out", g.uniform(1 << 26, low=1.1, high=10.0), g.uniform(1 << 26, low=0.1, high=10.0),
               out=g.randn(1 << 26))
