"""Matrix product of bfloat16 matrices (2-D or batched 3-D) with float32 accumulation."""

import torch

from harness.checks import bind_arguments, check_bounded, product_bound
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "matmul_bf16"
SIGNATURE = "matmul_bf16(input, other)"
DTYPES = ["bfloat16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bfloat16"]
CORE_KWARGS = []
DIFFICULTY = 2
DESCRIPTION = """
Matrix product of two bfloat16 tensors, like torch.matmul(input, other) for matrices. `input` is
(M, K) or a batch (B, M, K); `other` is (K, N) or (B, K, N). A 2-D operand is shared by every
matrix of the other's batch (so (B, M, K) times (K, N) and (M, K) times (B, K, N) both give
(B, M, N)); two 3-D operands have the same B. The result is a new bfloat16 tensor, (M, N) or
(B, M, N). Each element sums its K products in float32 (bfloat16 values multiply exactly in
float32) and is rounded to bfloat16 once, at the end: a bfloat16 accumulator (8 significant bits) loses
far too much and fails the check. The inputs use the whole bfloat16 range (the same exponent range
as float32: values far beyond float16's 65504 or below its smallest subnormal must survive, so do
not convert them to float16). NaN and infinities propagate as in IEEE arithmetic. Any size may be
0 (an empty sum is 0). Either tensor may be non-contiguous (transposed, strided). The inputs must
not be modified.
"""

BF16 = torch.bfloat16


def reference(input, other):
    return torch.matmul(input, other)


# -- checking ----------------------------------------------------------------------------------------
# Compared with the float64 product of the same inputs under harness/checks.py's bound for float32
# accumulation and a bfloat16 output: 8 * sqrt(K) * u32 * (|A| @ |B|) + u_bf16 * |exact| (+ the
# smallest normal bfloat16), u_bf16 = 2^-8. The u_bf16 * |exact| term is the single final rounding;
# float32 accumulation in any order adds far less than the first term. A bfloat16 accumulator rounds
# every partial sum (u_bf16 times the partial sum, which exceeds |exact| wherever the sum cancels) and
# fails on the deep-K cases; so do dropped or misplaced terms, and inputs squeezed into float16
# (overflow to inf, or flush to 0) on the extreme-magnitude cases.
CHECK_NOTE = (
    "Compared with the float64 product, each element allowed 8*sqrt(K)*u32*(|A|@|B|) + u_bf16*|exact| "
    "(harness/checks.py product_bound for float32 accumulation and one final rounding to bfloat16), "
    "since a kernel may sum the K products in any order; bfloat16 accumulation exceeds that bound."
)


def _exact_rounded_range(exact, dtype):
    """``exact`` with the values that overflow ``dtype`` replaced by the infinity they round to."""
    rounded = exact.to(dtype).double()
    return torch.where(torch.isinf(rounded) & torch.isfinite(exact), rounded, exact)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, b = args["input"], args["other"]
    exact = torch.matmul(a.double(), b.double())
    bound = product_bound(a, b, out_dtype=BF16, accumulate=torch.float32, exact=exact)
    return check_bounded(output, _exact_rounded_range(exact, BF16), bound, dtype=BF16)


def cost(case: Case, output) -> Cost:
    a, b = case.args[0], case.args[1]
    return Cost(flops=2.0 * output.numel() * a.shape[-1],
                bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(output)))


def cases(g: Inputs):
    r = lambda *s, **kw: g.randn(*s, dtype=BF16, **kw)  # noqa: E731
    yield Case("square-64", r(64, 64), r(64, 64))
    yield Case("odd-37x53x29", r(37, 53), r(53, 29))
    yield Case("multi-tile-130x70x140", r(130, 70), r(70, 140))
    yield Case("K16", r(96, 16), r(16, 80))
    yield Case("K1-outer", r(33, 1), r(1, 47))
    # Deep K: the accumulation spans many K tiles; a bfloat16 accumulator loses ~sqrt(K/64) roundings.
    yield Case("deep-K-2048", r(32, 2048), r(2048, 48))
    yield Case("deep-K-1000-uniform", g.uniform(24, 1000, low=-1.0, high=1.0, dtype=BF16), r(1000, 40))
    yield Case("batched", r(4, 33, 40), r(4, 40, 27))
    yield Case("batched-times-matrix", r(3, 20, 64), r(64, 50))
    yield Case("matrix-times-batched", r(20, 64), r(3, 64, 18))
    yield Case("positive-uniform", g.uniform(50, 60, dtype=BF16), g.uniform(60, 40, dtype=BF16))
    yield Case("single-element", r(1, 1), r(1, 1))
    # Layouts.
    yield Case("transposed-a", g.transposed(r(40, 50)), r(50, 30))
    yield Case("transposed-both", g.transposed(r(33, 48)), g.transposed(r(48, 27)))
    yield Case("strided", g.strided(r(30, 41)), g.strided(r(41, 25)))
    yield Case("permuted-batch", r(20, 3, 30).permute(1, 0, 2), r(3, 30, 18))
    # Magnitudes float16 cannot hold (products stay within float32).
    yield Case("large-magnitude", r(30, 40, std=1e15), r(40, 20, std=1e10))
    yield Case("tiny-magnitude", r(30, 40, std=1e-12), r(40, 20, std=1e-10))
    a = r(20, 30)
    a[3, 7] = float("nan")
    a[11, 2] = float("inf")
    yield Case("nan-inf", a, r(30, 25))
    # Empty sizes.
    yield Case("empty-K", r(5, 0), r(0, 7))
    yield Case("empty-batch", r(0, 4, 5), r(5, 6))


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=BF16)  # noqa: E731
    yield Case("1024^3", r(1024, 1024), r(1024, 1024))
    yield Case("4096^3", r(4096, 4096), r(4096, 4096))
    yield Case("8192^3", r(8192, 8192), r(8192, 8192))
    # A linear layer: batched activations times one shared weight matrix.
    yield Case("batched-8x2048x4096-times-4096x4096", r(8, 2048, 4096), r(4096, 4096))
    yield Case("bmm-64x1024x128x1024", r(64, 1024, 128), r(64, 128, 1024))
