"""Round float32 values toward zero (drop the fractional part), optionally into an out= tensor."""

from dataclasses import replace

import torch

from harness.taskdef import DEFAULT_TOLERANCES, Case, Inputs

ENTRY = "trunc"
SIGNATURE = "trunc(input, out=None)"
DTYPES = ["float32"]
# the sign of a zero is the task's (trunc(-0.5) is -0.0), beyond any bound on |out - ref|
TOLERANCE = {torch.float32: replace(DEFAULT_TOLERANCES[torch.float32], signed_zero=True)}
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 1
DESCRIPTION = """
Truncate every element of a float32 tensor toward zero, like torch.trunc(input, out=out): the
result is the integer part of x as a float32 (2.7 -> 2.0, -2.7 -> -2.0, -0.5 -> -0.0), so it is
floor(x) for x >= 0 and ceil(x) for x < 0. Values whose magnitude is 2**23 or more are already
integers and come back unchanged, however large (up to 3.4e38, far beyond the int32/int64 range);
+inf and -inf stay infinite and NaN stays NaN. `input` has any shape (possibly 0-d, empty or
non-contiguous). If `out` is None return a new float32 tensor of the input's shape; otherwise `out`
is a float32 tensor of that shape (possibly a strided view): write the result into it and return
`out` itself. The input must not be modified.
"""

# One compare and one floor/ceil per element.
FLOPS_PER_ELEMENT = 1


def reference(input, out=None):
    return torch.trunc(input, out=out)


def cases(g: Inputs):
    # Edge tensors are grouped by magnitude: the tolerance scales with the RMS of the reference,
    # so fractional values next to 1e20 would hide an off-by-one.
    fractions = [0.0, -0.0, 0.5, -0.5, 0.99999994, -0.99999994, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5,
                 7.999, -7.999, 1e-30, -1e-30, 42.0, -42.0, float("nan")]
    yield Case("edge-fractions", g.tensor(fractions))
    yield Case("edge-inf-nan", g.tensor([float("inf"), float("-inf"), float("nan"), 3.7, -3.7, 0.2]))
    # Beyond the int32 range: a float->int32->float round trip breaks here.
    yield Case("beyond-int32", g.tensor([3e9, -3e9, 4.5e9, 2.0**31, -(2.0**31) - 256.0, 1e10, -1e10,
                                         5.5e9, -7.25e9]))
    # Beyond the int64 range (float32 values this large are all integers).
    # (one magnitude per case: the comparison's absolute term scales with the RMS of the reference)
    yield Case("beyond-int64", g.tensor([1e20, -1e20, 3e20]))
    yield Case("beyond-int64-1e30", g.tensor([1.5e30, -2.5e30, 1e30]))
    yield Case("near-max", g.tensor([3.0e38, -3.0e38, 1e38]))
    # Around 2**23, the last binade with a fractional part.
    yield Case("near-2^23", g.tensor([8388607.5, -8388607.5, 4194303.25, -4194303.75, 2097151.5,
                                      16777216.0, -16777214.0, 8388608.0, -8388609.0]))
    yield Case("single-0d", g.tensor(-2.75))
    yield Case("empty", g.randn(0, 5))
    yield Case("uniform-odd-1d", g.uniform(4099, low=-100.0, high=100.0))
    yield Case("randn-3d", g.randn(3, 37, 129, std=4.0))
    yield Case("outliers", g.heavy_tailed(2049, scale=10.0))
    yield Case("strided", g.strided(g.uniform(33, 65, low=-20.0, high=20.0)))
    yield Case("transposed", g.transposed(g.randn(97, 48, std=8.0)))
    yield Case("out", g.uniform(64, 300, low=-50.0, high=50.0), out=g.randn(64, 300))
    yield Case("out-strided", g.randn(31, 67, std=6.0), out=g.strided(g.randn(31, 67)))


def perf_cases(g: Inputs):
    yield Case("16M", g.randn(1 << 24, std=100.0))
    yield Case("64M-out", g.randn(1 << 26, std=100.0), out=g.randn(1 << 26))
    yield Case("128M", g.randn(1 << 27, std=100.0))
