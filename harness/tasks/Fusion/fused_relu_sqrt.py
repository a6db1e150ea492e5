"""sqrt(relu(x)) of a float32, float64 or int64 tensor, optionally overwriting the input in place."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_relu_sqrt"
SIGNATURE = "fused_relu_sqrt(input, inplace=False, out=None)"
DTYPES = ["float32", "float64", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "float64", "int64"]
CORE_KWARGS = ["inplace", "out"]
DIFFICULTY = 2
# Timed perf inputs mix integer and bool tensors too (perf/server.py RotatingCase): here they are
# values drawn alike at every position (indices may repeat), so any mix of two sets is an input.
PERF_MIX_INTEGERS = True
DESCRIPTION = """
Compute sqrt(max(0, x)) for every element x of `input`, a float32, float64 or int64 tensor of any
shape (possibly non-contiguous or empty). The rectification follows torch.relu (negative values
become 0, NaN stays NaN, -0.0 may stay -0.0) and the square root is correctly rounded, as
torch.sqrt. Result dtype: the input's dtype for float32 and float64; an int64 input is first
converted to float32 (round to nearest) and everything happens in float32.
`inplace=True` (floating inputs): overwrite `input` itself with the square roots (also when it is
a strided view) and return that very tensor; `out` is not used then. For an int64 input there is
no floating tensor to overwrite: `inplace` changes nothing, the int64 input is left as it is and a
new float32 tensor is returned. `inplace=False` (default): `input` is left unchanged; when `out` is
given (a tensor of the input's shape and the result dtype, possibly non-contiguous) the roots are
written into it and `out` itself is returned, otherwise a new tensor is returned.
"""


def reference(input, inplace=False, out=None):
    x = input if input.dtype in (torch.float32, torch.float64) else input.to(torch.float32)
    if inplace:
        # On a floating input this rectifies and roots `input` itself; an int64 input was
        # converted above, so only its float32 copy changes.
        return x.relu_().sqrt_()
    roots = torch.sqrt(torch.relu(x))
    if out is None:
        return roots
    out.copy_(roots)
    return out


def cases(g: Inputs):
    f64, i64 = torch.float64, torch.int64
    inf, nan = float("inf"), float("nan")
    edges = [0.0, -0.0, 1.0, -1.0, 4.0, 2.0, 1e-30, -1e-30, -3.0e38, inf, -inf, nan, 0.25]
    yield Case("edge-values", g.tensor(edges))
    yield Case("edge-values-f64", g.tensor(edges + [-1e300, 1e-300], dtype=f64))
    yield Case("edge-values-inplace", g.tensor(edges), inplace=True)
    # Large roots in cases of their own: beside ordinary ones they would widen the tolerance's
    # absolute part, scaled by the output's RMS, past the ordinary values.
    yield Case("huge-values", g.tensor([3.0e38, 1e38, 2e38]))
    yield Case("huge-values-f64", g.tensor([1e300, 3e300, 2e300], dtype=f64))
    yield Case("huge-values-inplace", g.tensor([3.0e38, 1e38, 2e38]), inplace=True)
    yield Case("f32-odd-1d", g.randn(1003))
    yield Case("f32-3d", g.heavy_tailed(3, 37, 129, scale=4.0))
    yield Case("f32-inplace", g.randn(64, 300), inplace=True)
    yield Case("f32-out", g.uniform(4099, low=-10.0, high=100.0), out=g.randn(4099))
    yield Case("f64-2d", g.randn(65, 129, dtype=f64, std=10.0))
    yield Case("f64-inplace", g.randn(2049, dtype=f64), inplace=True)
    yield Case("f64-out", g.randn(33, 65, dtype=f64), out=g.randn(33, 65, dtype=f64))
    yield Case("i64-small", g.randint(-100, 100, 2000, dtype=i64))
    yield Case("i64-inplace", g.randint(-1000, 1000, 31, 67, dtype=i64), inplace=True)
    yield Case("i64-out", g.randint(-50, 10000, 1500, dtype=i64), out=g.randn(1500))
    # Beyond 2^24 the conversion to float32 rounds; beyond 2^53 it is not exact even in float64.
    # (the two magnitudes apart, as above: roots near 4e3 beside roots near 3e9 would go unjudged)
    yield Case("i64-large", g.tensor([2 ** 24 + 1, 2 ** 31 - 1, -(2 ** 63), -(2 ** 40)], dtype=i64))
    yield Case("i64-beyond-2-53", g.tensor([2 ** 53 + 1, 2 ** 62 + 3, 2 ** 63 - 1], dtype=i64))
    yield Case("single", g.randn(1))
    yield Case("zero-dim", g.tensor(6.25))
    yield Case("empty", g.randn(0, 7))
    yield Case("empty-inplace", g.randn(0, 3), inplace=True)
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("strided-inplace", g.strided(g.uniform(17, 129, low=-3.0, high=3.0)), inplace=True)
    yield Case("transposed-i64-inplace", g.transposed(g.randint(-9, 10, 40, 50, dtype=i64)), inplace=True)
    yield Case("out-strided", g.randn(31, 67), out=g.strided(g.randn(31, 67)))
    yield Case("inplace-false-explicit", g.randn(2049), inplace=False)


def perf_cases(g: Inputs):
    yield Case("f32-16M", g.randn(1 << 24))
    yield Case("f32-128M", g.randn(1 << 27))
    yield Case("f32-64M-inplace", g.randn(1 << 26), inplace=True)
    yield Case("f64-64M-out", g.randn(1 << 26, dtype=torch.float64), out=g.randn(1 << 26, dtype=torch.float64))
    yield Case("i64-64M", g.randint(-1000, 1000, 1 << 26, dtype=torch.int64))


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    # Read the input once and write the roots once (in place, the output is the input's storage).
    return Cost(flops=2.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(output)))
