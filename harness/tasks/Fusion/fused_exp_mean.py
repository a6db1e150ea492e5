"""Mean of exp(input) over all or some dimensions of a float32 tensor, without storing exp(input)."""

import torch

from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes, tensor_leaves

ENTRY = "fused_exp_mean"
SIGNATURE = "fused_exp_mean(input, dim=None, keepdim=False, dtype=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "keepdim"]
# Edge although the tier rule cannot see it: exponentials near float32's largest value (near-overflow-row).
TIERS = {"near-overflow-row": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute the mean of exp(x) over the given dimension(s) of a float32 tensor `input`, like
torch.mean(torch.exp(input), dim=dim, keepdim=keepdim, dtype=dtype, out=out), in one pass (the
exponentials are never stored). `input` has any shape and may be non-contiguous. `dim` is None
(the default: average over every element, giving a 0-d result), an int (negative values count from
the end) or a tuple of ints (need not be adjacent). With keepdim=False the reduced dimensions are
removed; with keepdim=True they are kept with size 1 (with dim=None every dimension is then kept
with size 1). `dtype`: None keeps float32; torch.float64 means the float32 exponentials are
converted to float64 before they are averaged and the result is float64. exp follows IEEE rules
(exp(-inf) = 0, exp(+inf) = +inf, overflow beyond ~88.7 gives +inf, NaN propagates); a mean over
an empty dimension is NaN. If `out` is given (a tensor of the result's shape and dtype) the result
is written into it and `out` itself is returned; otherwise a new tensor is returned. The input must
not be modified.
"""

# float64 results average float32 exponentials: their accuracy is float32's (a kernel's exp may
# differ from PyTorch's by a few float32 ulps), not float64's.
TOLERANCE = {torch.float64: Tolerance(atol=1e-5, rtol=1e-4)}


def reference(input, dim=None, keepdim=False, dtype=None, out=None):
    return torch.mean(torch.exp(input), dim=dim, keepdim=keepdim, dtype=dtype, out=out)


def cases(g: Inputs):
    f64 = torch.float64
    inf, nan = float("inf"), float("nan")
    # Reduced axes of various lengths and positions; 4099 and 20000 exceed one tile, so kernels
    # loop or split the axis over several programs.
    yield Case("all-1d", g.randn(4096))
    yield Case("all-2d-keepdim", g.randn(17, 301), keepdim=True)
    yield Case("last-dim-4099", g.randn(6, 4099), dim=1)
    yield Case("last-dim-keepdim", g.uniform(37, 1000, low=-2.0, high=3.0), dim=1, keepdim=True)
    yield Case("middle-dim", g.randn(8, 515, 5), dim=1)
    yield Case("first-dim", g.randn(3000, 6), dim=0)
    yield Case("long-1d-dim0", g.randn(20000), dim=0)
    yield Case("negative-dim", g.randn(4, 33, 65), dim=-2)
    yield Case("tuple-apart", g.randn(6, 7, 8, 9), dim=(0, 2))
    yield Case("tuple-negative-keepdim", g.randn(4, 33, 65), dim=(-2, -1), keepdim=True)
    # Exponentials spanning many orders of magnitude (up to ~1e34): the mean is dominated by a few.
    yield Case("wide-range-rows", g.uniform(16, 1000, low=-80.0, high=80.0), dim=1)
    yield Case("edge-values", g.tensor([[0.0, -0.0, 1.0, -1.0, 8.0, -100.0],
                                        [-inf, 0.5, 2.0, 3.0, -inf, 1.0],
                                        [1.0, inf, 2.0, 0.0, -5.0, 4.0],
                                        [90.0, 1.0, -2.0, 0.0, 3.0, 1.0],
                                        [1.0, nan, -0.5, 2.0, 0.0, 0.3]]), dim=1)
    # a mean near float32's largest value in a case of its own (beside ordinary means its size would
    # widen the tolerance's absolute part, scaled by the output's RMS, past them)
    yield Case("near-overflow-row", g.tensor([[88.0, 87.0, 0.0, -1.0, 86.5, -100.0]]), dim=1)
    yield Case("strided", g.strided(g.randn(33, 65)), dim=1)
    yield Case("transposed-all", g.transposed(g.randn(40, 50)))
    yield Case("size-1-dim", g.randn(7, 1, 5), dim=1)
    yield Case("single", g.randn(1))
    yield Case("zero-dim", g.tensor(1.5))
    yield Case("empty-reduction", g.randn(0, 7), dim=0)
    yield Case("dtype-f64-rows", g.uniform(5, 3001, low=-10.0, high=10.0), dim=-1, dtype=f64)
    yield Case("dtype-f64-all", g.randn(2049), dtype=f64)
    yield Case("out", g.randn(12, 345), dim=1, out=g.strided(g.randn(12)))
    yield Case("out-all-keepdim", g.randn(31, 67), keepdim=True, out=g.randn(1, 1))
    yield Case("out-f64", g.randn(10, 513), dim=0, dtype=f64, out=g.randn(513, dtype=f64))


def perf_cases(g: Inputs):
    yield Case("all-64M", g.randn(1 << 26))
    yield Case("all-128M", g.randn(1 << 27))
    yield Case("rows-8192x8192", g.randn(8192, 8192), dim=1)
    yield Case("cols-8192x8192-keepdim", g.randn(8192, 8192), dim=0, keepdim=True)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    # An exponential and an add per element.
    return Cost(flops=2.0 * x.numel(), bytes=float(moved))
