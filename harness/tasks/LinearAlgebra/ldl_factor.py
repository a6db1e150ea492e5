"""LDL^T / LDL^H factorization (Bunch-Kaufman pivoting, LAPACK compact form) of symmetric matrices."""

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (backward_bound, check_close, check_triangular, check_tuple, hermitian_part,
                                   ldl_reconstruct, mh, real_dtype, spd, wide)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "ldl_factor"
SIGNATURE = "ldl_factor(A, hermitian=False, out=None)"
DTYPES = ["float64", "complex64", "float32", "complex128"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["complex64", "float64"]
CORE_KWARGS = ["hermitian"]
DIFFICULTY = 4
PERF_MIX = "convex"  # the inputs stay symmetric / Hermitian
DESCRIPTION = """
LDL factorization of a symmetric (or Hermitian) possibly indefinite matrix with Bunch-Kaufman
diagonal pivoting, in the compact form of LAPACK's ?sytrf / ?hetrf with uplo='L', like
torch.linalg.ldl_factor(A, hermitian=hermitian). A (*, n, n) is float64, complex64 (or float32,
complex128), exactly symmetric (Hermitian when hermitian=True and A is complex; for real A the flag
has no effect); only its lower triangle needs to be read. Return a tuple (LD, pivots): LD a new
tensor of A's shape and dtype, lower triangular (entries above the diagonal exactly 0), and pivots a
new int32 tensor (*, n), 1-based, describing A = L D L^T (L D L^H when hermitian=True) as LAPACK
does: processing k = 0, 1, ... (0-based), pivots[k] = p > 0 means a 1x1 diagonal block D[k, k] after
interchanging rows and columns k and p - 1 (p - 1 >= k) of the trailing submatrix, and
pivots[k] = pivots[k+1] = -p < 0 means a 2x2 block D[k:k+2, k:k+2] after interchanging rows and
columns k + 1 and p - 1 (p - 1 >= k + 1); D's blocks sit on LD's diagonal (a 2x2 block's off-diagonal
element at LD[k+1, k]) and the multipliers of block k (the columns of L below it) at
LD[k+s:, k:k+s], s the block size; then A = P_0 L_0 P_1 L_1 ... D ... (P_0 L_0 ...)^T (^H), each
P_j an interchange of trailing rows and columns, L_j the identity with block j's multipliers. Any
pivot sequence is accepted if the factorization is valid and numerically stable: it must reproduce
A to a relative Frobenius error of order n * u (u = 2^-53 for float64/complex128, 2^-24 for
float32/complex64), so pivoting is necessary (zero or tiny diagonal entries occur). A may be
non-contiguous; n or the batch may be 0. The input must not be modified.
"""


def reference(A, hermitian=False, out=None):
    return torch.linalg.ldl_factor(A, hermitian=hermitian, out=out)


# -- checking ----------------------------------------------------------------------------------------
# The compact form depends on the pivot choices, so it is decoded (harness/linalg_checks.py ldl_reconstruct,
# which also rejects an invalid pivot sequence) and the factorization must reproduce A: ||A - L D L^T||_F <=
# 16 * d(n) * u * ||A||_F (BACKWARD_C; d(n) = max(n, 16)). Bunch-Kaufman's element growth is bounded (and
# small on these inputs): measured worst cases 0.017 of the bound for LAPACK, 0.023 for the Triton solution.
# Without pivoting, the tiny-diagonal cases grow by ~1e10 and the zero-diagonal ones divide by zero; a
# missing conjugate (L D L^T for a Hermitian A), misplaced 2x2-block entries or wrong pivot indices fail by
# O(1). LD must be exactly lower triangular.
CHECK_NOTE = (
    "LD and pivots are decoded as LAPACK's lower compact form and must reconstruct A (L D L^T, or L D L^H "
    "when hermitian) to a relative Frobenius error of 16*max(n,16)*u, since another valid pivot "
    "sequence gives another compact form; LD must be lower triangular and the pivots well formed."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, hermitian = args["A"], bool(args["hermitian"])
    msg = check_tuple(output, tuple(expected))
    if msg:
        return msg
    LD, piv = (t.to(A.device) for t in output)
    msg = check_triangular(LD, upper=False, where="output[0] (LD)")
    if msg or LD.numel() == 0:
        return msg
    rec = ldl_reconstruct(LD, piv, hermitian and A.is_complex())
    if isinstance(rec, str):
        return f"output[1] (pivots): {rec}"
    n = A.shape[-1]
    return check_close(rec, wide(A), backward_bound(n, real_dtype(A.dtype)), "L D L^T", "reconstruction error")


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    batch = A.numel() // max(n * n, 1)
    # n^3 / 3 multiply-adds (half of LU's, symmetry); a complex one is 4 real ones. Only the lower
    # triangle of A needs to be read.
    flops = batch * n ** 3 / 3.0 * (4.0 if A.is_complex() else 1.0)
    moved = A.element_size() * batch * n * (n + 1) / 2 + sum(numel_bytes(t) for t in output)
    return Cost(flops=flops, bytes=float(moved))


def _sym(g, *shape, dtype=torch.float64, hermitian=False):
    """G + G^T (G + G^H if hermitian) with Gaussian G: symmetric indefinite."""
    *batch, n = shape
    x = g.randn(*batch, n, n, dtype=torch.float64)
    if dtype.is_complex:
        x = torch.complex(x, g.randn(*batch, n, n, dtype=torch.float64))
    a = hermitian_part(x) * 2 if hermitian else x + x.mT
    return a.to(dtype)


def _saddle(g, *shape, dtype=torch.float64, hermitian=False):
    """[[0, B], [B^T, 0]] with Gaussian B: every diagonal entry is 0, so only 2x2 pivots (or
    interchanges) can factor it."""
    *batch, n = shape
    h = n // 2
    b = g.randn(*batch, h, n - h, dtype=torch.float64)
    if dtype.is_complex:
        b = torch.complex(b, g.randn(*batch, h, n - h, dtype=torch.float64))
    a = torch.zeros(*batch, n, n, dtype=b.dtype, device=b.device)
    a[..., :h, h:] = b
    a[..., h:, :h] = mh(b) if hermitian else b.mT
    return a.to(dtype)


def _tiny_diagonal(g, *shape, dtype=torch.float64, hermitian=False):
    """A symmetric matrix whose diagonal is ~1e-10 of its off-diagonal entries: factoring it without
    pivoting has an element growth of ~1e10."""
    a = _sym(g, *shape, dtype=torch.complex128 if dtype.is_complex else torch.float64, hermitian=hermitian)
    d = torch.diagonal(a, dim1=-2, dim2=-1)
    d.mul_(1e-10)
    return a.to(dtype)


def cases(g: Inputs):
    f64, c64 = torch.float64, torch.complex64
    yield Case("indefinite-48-f64", _sym(g, 48))
    yield Case("indefinite-batch-3x20-f64-hermitian-flag", _sym(g, 3, 20), hermitian=True)
    yield Case("complex-symmetric-40-c64", _sym(g, 40, dtype=c64))
    yield Case("hermitian-40-c64", _sym(g, 40, dtype=c64, hermitian=True), hermitian=True)
    yield Case("hermitian-batch-2x33-c64", _sym(g, 2, 33, dtype=c64, hermitian=True), hermitian=True)
    yield Case("spd-36-f64", spd(g, 36))
    yield Case("hpd-24-c64", spd(g, 24, complex_=True).to(c64), hermitian=True)
    # zero diagonals (2x2 pivots forced) and tiny diagonals (pivoting forced)
    yield Case("saddle-30-f64", _saddle(g, 30))
    yield Case("saddle-26-c64-hermitian", _saddle(g, 26, dtype=c64, hermitian=True), hermitian=True)
    yield Case("saddle-22-c64-symmetric", _saddle(g, 22, dtype=c64), hermitian=False)
    yield Case("tiny-diagonal-32-f64", _tiny_diagonal(g, 32))
    yield Case("tiny-diagonal-28-c64-hermitian", _tiny_diagonal(g, 28, dtype=c64, hermitian=True), hermitian=True)
    yield Case("tiny-1x1-batch", _sym(g, 3, 1))
    yield Case("tiny-2x2-saddle", _saddle(g, 2, 2, dtype=c64))
    # edge: layouts, singular, other dtypes, empty
    yield Case("transposed-f64", g.transposed(_sym(g, 30)))
    yield Case("strided-c64", g.strided(_sym(g, 2, 18, dtype=c64, hermitian=True)), hermitian=True)
    yield Case("float32", _sym(g, 2, 30, dtype=torch.float32))
    yield Case("complex128-hermitian", _sym(g, 26, dtype=torch.complex128, hermitian=True), hermitian=True)
    yield Case("empty-batch", _sym(g, 0, 4))


def perf_cases(g: Inputs):
    yield Case("f64-512", _sym(g, 512))
    yield Case("c64-hermitian-256", _sym(g, 256, dtype=torch.complex64, hermitian=True), hermitian=True)
    # (batches kept moderate: the check decodes each matrix's pivot sequence on the host)
    yield Case("f64-batch-64x128", _sym(g, 64, 128))
    yield Case("c64-batch-64x64", _sym(g, 64, 64, dtype=torch.complex64))
