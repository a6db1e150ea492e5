"""tanh(log(x)) of a positive float32 tensor, with an optional preallocated output."""

import torch

from harness.taskdef import Case, Inputs

ENTRY = "fused_log_tanh"
SIGNATURE = "fused_log_tanh(input, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["out"]
DIFFICULTY = 1
DESCRIPTION = """
Compute tanh(log(x)) for every element x of a float32 tensor `input` (natural logarithm, then
hyperbolic tangent), a value in [-1, 1]. Every element of `input` is positive (the domain of the
logarithm); +inf gives 1 and NaN stays NaN. The result must stay accurate over the whole positive
float32 range, from 1e-38 up to 3.4e38 (no overflow to NaN for huge x), and near x = 1 where it
crosses 0. `input` has any shape (possibly non-contiguous or empty). When `out` is None return a
new float32 tensor of the input's shape; when `out` is given (a float32 tensor of the input's
shape, possibly non-contiguous) write the result into it and return `out` itself. The input is
never modified.
"""

# log, tanh and a few multiply-adds per element.
FLOPS_PER_ELEMENT = 8


def reference(input, out=None):
    return torch.tanh(torch.log(input), out=out)


def cases(g: Inputs):
    # Only positive inputs: the task's domain. No subnormals (GPU fast-math flushes them to zero).
    edges = [1.0, 2.0, 0.5, 0.1, 10.0, 0.999, 1.001, 1.0000001, 0.9999999, 2.718281828, 100.0,
             float("inf"), float("nan")]
    yield Case("edge-values", g.tensor(edges))
    yield Case("extremes", g.tensor([1.2e-38, 1e-30, 1e-10, 1e-3, 4096.0, 1e10, 5e18, 1e20, 1e30, 3.4e38]))
    yield Case("single", g.uniform(1, low=2.0, high=3.0))
    yield Case("zero-dim", g.tensor(0.75))
    yield Case("empty", g.randn(0, 4))
    yield Case("odd-1d", g.uniform(1003, low=0.01, high=5.0))
    yield Case("near-one", g.uniform(4099, low=0.9, high=1.1))
    yield Case("abs-randn-3d", g.randn(3, 37, 129, std=2.0).abs() + 1e-3)
    yield Case("wide-range", torch.exp(g.uniform(2000, low=-80.0, high=80.0)))
    yield Case("strided", g.strided(g.uniform(33, 65, low=0.1, high=100.0)))
    yield Case("transposed", g.transposed(g.uniform(97, 48, low=1e-3, high=1.0)))
    yield Case("out-2d", g.uniform(64, 300, low=0.05, high=20.0), out=g.randn(64, 300))
    yield Case("out-strided", g.uniform(17, 129, low=0.5, high=1e6), out=g.strided(g.randn(17, 129)))
    yield Case("out-none-explicit", g.uniform(2049, low=0.2, high=3.0), out=None)


def perf_cases(g: Inputs):
    yield Case("16M", g.uniform(1 << 24, low=1e-3, high=1e3))
    yield Case("64M-out", g.uniform(1 << 26, low=1e-3, high=1e3), out=g.randn(1 << 26))
    yield Case("128M", g.uniform(1 << 27, low=1e-3, high=1e3))
