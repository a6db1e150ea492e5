"""Softmax of a float32/float64 tensor along one dimension, with an optional dtype conversion."""

import torch
import torch.nn.functional as F

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "softmax"
SIGNATURE = "softmax(input, dim, dtype=None)"
DTYPES = ["float32", "float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "float64"]
CORE_KWARGS = ["dim", "dtype"]
DIFFICULTY = 4
DESCRIPTION = """
Apply softmax along dimension `dim`, like torch.nn.functional.softmax(input, dim, dtype=dtype):
every slice along `dim` becomes exp(x_i) / sum_j exp(x_j), so it lies in [0, 1] and sums to 1.
`input` is a float32 or float64 tensor of any shape (possibly 0-d, empty or non-contiguous); `dim`
is an int, negative values counting from the end. If `dtype` is given, the input is converted to
that dtype first and the whole computation and the result use it (float32 input with
dtype=torch.float64 must be computed in float64; float64 input with dtype=torch.float32 in float32);
otherwise the result has the input's dtype. The result has the input's shape. Logits may be large
(e.g. around 1000), so subtract the slice maximum before exponentiating. Slices can be long (several
thousand elements). IEEE edge cases as in PyTorch: -inf entries get probability 0; a slice that is
entirely -inf, or contains +inf or NaN, becomes all NaN. Return a new tensor; the input must not be
modified.
"""


def reference(input, dim, dtype=None):
    return F.softmax(input, dim, dtype=dtype)


def _masked(g: Inputs, dtype=torch.float32):
    """Rows of length 5000 with -inf runs: a long -inf prefix, every third entry, a fully -inf row
    (NaN in torch) and a single -inf."""
    x = g.randn(4, 5000, dtype=dtype)
    x[0, :4500] = float("-inf")
    x[1, ::3] = float("-inf")
    x[2] = float("-inf")
    x[3, 4999] = float("-inf")
    return x


def cases(g: Inputs):
    f64 = torch.float64
    inf, nan = float("inf"), float("nan")
    yield Case("rows-odd", g.randn(37, 1003), -1)
    # 5000 and 20000 exceed one tile of most kernels, so they loop over the slice.
    yield Case("rows-long", g.randn(4, 5000, std=3.0), 1)
    yield Case("1d-long", g.randn(20000), 0)
    yield Case("many-short-rows", g.randn(1024, 16), -1)
    yield Case("dim0-cols", g.randn(3000, 6), 0)
    yield Case("middle-dim", g.randn(8, 515, 5), 1)
    yield Case("dim-neg2", g.uniform(6, 40, 33, low=-4.0, high=4.0), -2)
    # Logits around 1000: exp overflows unless the maximum is subtracted first.
    yield Case("large-logits", g.randn(16, 1000, mean=1000.0, std=5.0), 1)
    yield Case("large-logits-dim0", g.randn(700, 3, mean=-2000.0, std=10.0), 0)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), -1)
    yield Case("masked-neg-inf", _masked(g), -1)
    x = g.randn(6, 300)
    x[1, 123] = nan
    x[3, 0] = inf
    x[4, 7] = -inf
    yield Case("nan-and-inf-rows", x, 1)
    y = g.randn(300, 5)
    y[:, 1] = -inf
    y[17, 3] = nan
    yield Case("neg-inf-column-dim0", y, 0)
    yield Case("strided", g.strided(g.randn(33, 65)), 1)
    yield Case("transposed-dim0", g.transposed(g.randn(40, 50)), 0)
    yield Case("transposed-dim1", g.transposed(g.randn(97, 48)), 1)
    yield Case("size-1-dim", g.randn(7, 1, 5), 1)
    yield Case("single-0d", g.tensor(3.0), 0)
    yield Case("empty", g.randn(0, 7), 1)
    yield Case("float64-rows", g.randn(5, 2049, dtype=f64), 1)
    yield Case("float64-cols", g.heavy_tailed(1500, 4, dtype=f64), 0)
    yield Case("float64-masked", _masked(g, f64), 1)
    # float32 in, float64 out: the float64 tolerance (1e-7 relative) needs a float64 computation.
    yield Case("dtype-float64", g.uniform(4, 4099, low=-20.0, high=20.0), 1, dtype=f64)
    yield Case("dtype-float64-cols", g.randn(2000, 3, std=4.0), 0, dtype=f64)
    yield Case("dtype-float32-from-f64", g.randn(9, 1001, dtype=f64), -1, dtype=torch.float32)


def perf_cases(g: Inputs):
    yield Case("rows-4096x4096", g.randn(4096, 4096), -1)
    yield Case("rows-1024x65536", g.randn(1024, 65536), -1)
    yield Case("rows-8192x8192", g.randn(8192, 8192), -1)
    yield Case("cols-8192x8192", g.randn(8192, 8192), 0)
    yield Case("f64-rows-4096x8192", g.randn(4096, 8192, dtype=torch.float64), 1)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    moved = numel_bytes(x) + sum(numel_bytes(t) for t in tensor_leaves(output))
    # max, subtract, exp, add, divide per element.
    return Cost(flops=5.0 * x.numel(), bytes=float(moved))
