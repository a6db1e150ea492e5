"""beta * input + alpha * (mat1 @ mat2) for float32 matrices, input broadcast, optionally into out=."""

import torch

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "addmm"
SIGNATURE = "addmm(input, mat1, mat2, beta=1, alpha=1, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "beta"]
DIFFICULTY = 4
DESCRIPTION = """
Compute beta * input + alpha * (mat1 @ mat2), like torch.addmm(input, mat1, mat2, beta=beta,
alpha=alpha, out=out), in full float32 precision. `mat1` is a float32 (n, m) matrix and `mat2` a
float32 (m, p) matrix; `input` is a float32 tensor broadcastable to (n, p) (an (n, p) matrix, a (p,)
row, an (n, 1) column, a 0-d scalar, ...). `beta` and `alpha` are Python numbers (int or float,
default 1). When beta is 0, `input` is ignored: NaN or infinities in it do not reach the result.
Any of the tensors may be non-contiguous, and n, m or p may be 0 (with m = 0 the product is a
matrix of zeros). NaN and infinities in mat1 and mat2 propagate as in IEEE arithmetic. If `out` is
None, return a new contiguous float32 (n, p) tensor; otherwise `out` is a float32 (n, p) tensor
(possibly a non-contiguous view): write the result into it and return `out` itself. The other
inputs must not be modified. Float32 accuracy is required: accumulate the product in float32 (or
wider) and do not round the float32 inputs to TF32 (with tl.dot use input_precision="ieee" or
"tf32x3"; the default "tf32" fails the check, because the cases include small m, where its
10-bit-mantissa rounding dominates).
"""

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(input, mat1, mat2, beta=1, alpha=1, out=None):
    return torch.addmm(input, mat1, mat2, beta=beta, alpha=alpha, out=out)


# -- checking ----------------------------------------------------------------------------------------
# The product sums m terms per element in an order that differs between implementations, so the
# result is compared with the float64 value of the same formula under harness/checks.py's bound for
# alpha * (mat1 @ mat2), 8 * sqrt(m) * u32 * |alpha| * (|mat1| @ |mat2|) + u32 * |exact| (u32 =
# 2^-24), plus 4 * u32 * |beta * input| for the rounding of beta * input and of the final addition
# (at most two roundings of that term; 4 leaves a factor-2 margin). Rounding alpha and beta to float32
# is covered by the same terms. A correct float32 kernel stays far inside the bound; TF32 inputs
# (relative error 2^-11 per product) exceed it by more than 10x on every case with m <= 256, and a
# dropped beta * input, swapped alpha/beta or missing product term is off by orders of magnitude more.
CHECK_NOTE = (
    "Compared with the float64 value of beta*input + alpha*(mat1@mat2), each element allowed "
    "8*sqrt(m)*u32*|alpha|*(|mat1|@|mat2|) + u32*|exact| + 4*u32*|beta*input| (harness/checks.py "
    "product_bound), since a kernel may sum the m products in any order; TF32 rounding of the inputs "
    "exceeds that bound on the small-m cases."
)


def _exact(args):
    a, b, c = args["mat1"], args["mat2"], args["input"]
    alpha, beta = args["alpha"], args["beta"]
    n, p = a.shape[0], b.shape[1]
    exact = torch.zeros((n, p), dtype=torch.float64, device=a.device)
    if alpha != 0:
        exact = exact + alpha * (a.double() @ b.double())
    scaled_input = torch.zeros_like(exact)
    if beta != 0:  # beta = 0 ignores input entirely, NaN included
        scaled_input = (beta * c.double()).expand(n, p)
        exact = exact + scaled_input
    return exact, scaled_input


def check(case, output, expected):
    args = bind_arguments(reference, case)
    exact, scaled_input = _exact(args)
    bound = (product_bound(args["mat1"], args["mat2"], out_dtype=F32, scale=args["alpha"], exact=exact)
             + 4 * U32 * scaled_input.abs())
    return check_bounded(output, exact, bound, dtype=F32)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b, c = args["mat1"], args["mat2"], args["input"]
    n, m, p = a.shape[0], a.shape[1], b.shape[1]
    uses_input = args["beta"] != 0
    # the product's multiply-adds plus the addition of beta * input; input is read only when it is
    # used, the result written once (an out= buffer is written, not read)
    moved = numel_bytes(a) + numel_bytes(b) + numel_bytes(output) + (numel_bytes(c) if uses_input else 0)
    return Cost(flops=2.0 * n * m * p + (n * p if uses_input else 0), bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    yield Case("square-64", r(64, 64), r(64, 64), r(64, 64))
    yield Case("odd-alpha-beta", r(37, 29), r(37, 53), r(53, 29), beta=0.5, alpha=2.0)
    yield Case("bias-row", r(29), r(41, 53), r(53, 29), alpha=0.75)
    yield Case("bias-column", r(41, 1), r(41, 23), r(23, 36), beta=-1.5)
    yield Case("multi-tile", r(130, 140), r(130, 70), r(70, 140), beta=0.25, alpha=1.5)
    # Small inner size m: TF32 rounding of the inputs would dominate the error.
    yield Case("m16", r(96, 80), r(96, 16), r(16, 80), beta=1.5, alpha=-0.75)
    yield Case("m1-outer", r(33, 47), r(33, 1), r(1, 47), beta=2.0, alpha=0.5)
    yield Case("deep-m-700", r(20, 36), r(20, 700), r(700, 36), beta=0.3, alpha=0.01)
    yield Case("int-scalars", r(24, 40), r(24, 31), r(31, 40), beta=2, alpha=3)
    yield Case("alpha-zero", r(20, 30), r(20, 10), r(10, 30), alpha=0.0, beta=1.25)
    yield Case("positive-uniform", g.uniform(40, 50), g.uniform(40, 60), g.uniform(60, 50), beta=0.5)
    yield Case("outliers", r(36, 48), g.heavy_tailed(36, 64, scale=2.0), r(64, 48), alpha=0.5, beta=2.0)
    # Layouts and broadcasting views.
    yield Case("transposed-mats", r(40, 30), g.transposed(r(40, 50)), g.transposed(r(50, 30)), alpha=1.5)
    yield Case("strided", g.strided(r(30, 25)), g.strided(r(30, 41)), g.strided(r(41, 25)), beta=0.5)
    yield Case("input-expanded", r(1, 35).expand(22, 35), r(22, 19), r(19, 35), beta=2.0, alpha=0.5)
    yield Case("scalar-input-0d", g.tensor(1.5), r(17, 21), r(21, 19), beta=-2.0)
    # out=: contiguous and transposed buffers (their old contents must not matter).
    yield Case("out", r(31, 43), r(31, 27), r(27, 43), beta=0.5, alpha=2.0, out=r(31, 43))
    yield Case("out-transposed", r(43), r(26, 18), r(18, 43), out=g.transposed(r(26, 43)))
    # beta = 0 ignores NaN/inf in input; elsewhere special values propagate.
    bad = r(25, 30)
    bad[::3, ::4] = float("nan")
    bad[1, 1] = float("inf")
    yield Case("beta-zero-ignores-nan-input", bad, r(25, 14), r(14, 30), beta=0.0, alpha=1.5)
    yield Case("beta-zero-int", bad, r(25, 14), r(14, 30), beta=0)
    yield Case("nan-inf-in-input", bad, r(25, 14), r(14, 30), beta=0.5)
    a = r(20, 30)
    a[3, 7] = float("nan")
    a[11, 2] = float("-inf")
    yield Case("nan-inf-in-mat1", r(20, 25), a, r(30, 25), alpha=2.0)
    yield Case("large-magnitude", r(30, 20, std=1e20), r(30, 40, std=1e15), r(40, 20, std=1e5), beta=0.5)
    # Empty sizes: m = 0 leaves beta * input; n = 0 gives an empty result.
    yield Case("empty-m", r(5, 7), r(5, 0), r(0, 7), beta=2.0)
    yield Case("empty-n", r(9), r(0, 8), r(8, 9))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("1024^3", r(1024, 1024), r(1024, 1024), r(1024, 1024))
    yield Case("2048^3-alpha-beta", r(2048, 2048), r(2048, 2048), r(2048, 2048), beta=0.5, alpha=2.0)
    yield Case("4096^3-bias-row", r(4096), r(4096, 4096), r(4096, 4096))
    yield Case("4096^3-full-input", r(4096, 4096), r(4096, 4096), r(4096, 4096), beta=0.5, alpha=1.5)
    yield Case("8192x1024x8192-bias", r(8192), r(8192, 1024), r(1024, 8192), alpha=0.5)
