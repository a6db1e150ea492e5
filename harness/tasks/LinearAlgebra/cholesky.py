"""Cholesky factor of real symmetric / complex Hermitian positive-definite matrices (lower or upper)."""

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (check_close, check_reconstruction, check_tensor, check_triangular, cond2,
                                   forward_bound, hermitian_part, log_spaced, mh, real_dtype, spd, wide)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "cholesky"
SIGNATURE = "cholesky(A, upper=False, out=None)"
DTYPES = ["float64", "complex64", "complex128", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["complex128", "complex64", "float64"]
CORE_KWARGS = ["upper"]
DIFFICULTY = 4
PERF_MIX = "convex"  # a mean of Hermitian positive-definite matrices is one
# Declared edge: conditioning, and tiny complex values, which the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e8": "edge", "tiny-scale-c128": "edge"}
DESCRIPTION = """
Cholesky decomposition of a Hermitian (complex) or symmetric (real) positive-definite matrix, like
torch.linalg.cholesky(A, upper=upper). A has shape (*, n, n) (n or the batch may be 0; A may be
non-contiguous) and dtype float64, complex64, complex128 (or float32); it is exactly Hermitian, so
a kernel may read either triangle. With upper=False (default) return the lower triangular L with
A = L @ L^H (L^H the conjugate transpose; the plain transpose for real A); with upper=True return
U = L^H, upper triangular, A = U^H @ U. The factor is unique: its diagonal is real and positive
(for complex dtypes the imaginary parts of the diagonal are exactly 0), and the entries on the other
side of the diagonal are exactly 0. Return a new tensor of A's shape and dtype; if `out` is given,
write the result into it and return it. Accuracy must be that of the standard algorithm in A's
precision: L @ L^H reproduces A to a relative Frobenius error of order n * u (u = 2^-53 for
float64/complex128, 2^-24 for float32/complex64). The input must not be modified.
"""


def reference(A, upper=False, out=None):
    return torch.linalg.cholesky(A, upper=upper, out=out)


# -- checking ----------------------------------------------------------------------------------------
# The factor is unique, but its rounding depends on the order of the updates, so it is judged by its
# properties and against the float64 factor: triangular with exact zeros on the other side, a real positive
# diagonal, the reconstruction ||A - L L^H||_F <= 16 * d * u * ||A||_F, d = max(n, 16)
# (harness/linalg_checks.py BACKWARD_C; Cholesky is backward stable with no growth: measured worst case
# 0.006 of the bound, LAPACK and the Triton solution alike), and the forward error ||L - L*||_F <= 16 * d *
# u * cond2(A) * ||L*||_F (FORWARD_C; measured worst case 0.002 of it). A missing conjugate (L L^T for
# complex A), the plain transpose for upper=True, garbage left in the other triangle or float32 updates in a
# float64 task all fail by orders of magnitude.
CHECK_NOTE = (
    "The factor must be triangular with a real positive diagonal, reconstruct A (L L^H or U^H U) to a "
    "relative Frobenius error of 16*max(n,16)*u, and be within 16*max(n,16)*u*cond(A) of the float64 factor, since its "
    "rounding depends on the order of the updates."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, upper = args["A"], args["upper"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    out = output.to(A.device)
    msg = check_triangular(out, upper=upper, where="output")
    if msg:
        return msg
    d = torch.diagonal(out, dim1=-2, dim2=-1)
    if out.is_complex() and bool((d.imag != 0).any()):
        return "output: the diagonal of a Cholesky factor is real (imaginary parts must be exactly 0)"
    dr = d.real if out.is_complex() else d
    if not bool((dr > 0).all()):
        return f"output: the diagonal of a Cholesky factor is positive (found {dr.min().item()!r})"
    n = A.shape[-1]
    u_dtype = real_dtype(A.dtype)
    L = mh(wide(out)) if upper else wide(out)
    msg = check_reconstruction(A, L @ mh(L), n, u_dtype, "L @ L^H" if not upper else "U^H @ U")
    if msg:
        return msg
    exact = torch.linalg.cholesky(wide(A))
    return check_close(L, exact, forward_bound(n, u_dtype, cond2(A)), "output",
                       "forward error of the factor")


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    n = A.shape[-1]
    batch = A.numel() // max(n * n, 1)
    # n^3 / 3 multiply-adds; a complex multiply-add is 4 real ones
    flops = batch * n ** 3 / 3.0 * (4.0 if A.is_complex() else 1.0)
    return Cost(flops=flops, bytes=float(numel_bytes(A) + numel_bytes(output)))


def _gram(g, *shape, complex_=False):
    """X X^H / k + I with Gaussian X (n x k, k = n): the upstream examples' SPD matrices (condition
    numbers ~ 1 .. 4n)."""
    *batch, n = shape
    x = g.randn(*batch, n, n, dtype=torch.float64)
    if complex_:
        x = torch.complex(x, g.randn(*batch, n, n, dtype=torch.float64))
    return hermitian_part(x @ mh(x) / n + torch.eye(n, dtype=x.dtype, device=x.device))


def cases(g: Inputs):
    c64, c128, f64 = torch.complex64, torch.complex128, torch.float64
    yield Case("spd-64-f64", spd(g, 64))
    yield Case("spd-48-f64-upper", spd(g, 48), upper=True)
    yield Case("gram-batch-3x33-f64", _gram(g, 3, 33))
    yield Case("spd-40-c64", spd(g, 40, complex_=True).to(c64))
    yield Case("gram-batch-2x37-c64-upper", _gram(g, 2, 37, complex_=True).to(c64), upper=True)
    yield Case("spd-56-c128", spd(g, 56, complex_=True))
    yield Case("gram-batch-4x20-c128-upper", _gram(g, 4, 20, complex_=True), upper=True)
    yield Case("explicit-lower-c128", spd(g, 2, 17, complex_=True), upper=False)
    yield Case("tiny-1x1-batch-c64", spd(g, 3, 1, complex_=True).to(c64))
    yield Case("tiny-2x2-batch-f64", spd(g, 5, 2), upper=True)
    # edge: layouts, conditioning, magnitudes, other dtype, empty, out=
    yield Case("transposed-f64", g.transposed(spd(g, 40)))
    yield Case("strided-c128", g.strided(spd(g, 2, 24, complex_=True)), upper=True)
    # kappa = 1e8 (eigenvalues log-spaced 1 .. 1e-8): the forward bound grows with kappa, the
    # reconstruction bound does not
    yield Case("ill-conditioned-1e8", spd(g, 32, eigenvalues=log_spaced(g, k=32, cond=1e8)))
    yield Case("huge-scale-f64", 1e200 * spd(g, 20))
    yield Case("tiny-scale-c128", 1e-200 * spd(g, 20, complex_=True))
    yield Case("float32", spd(g, 2, 36).to(torch.float32))
    yield Case("empty-batch", spd(g, 0, 4).to(c64))
    yield Case("empty-0x0", torch.empty(0, 0, dtype=f64, device=g.device))
    yield Case("out-f64", spd(g, 2, 12), out=g.strided(torch.empty(2, 12, 12, dtype=f64, device=g.device)))
    yield Case("out-c64-upper", spd(g, 10, complex_=True).to(c64), upper=True,
               out=torch.empty(10, 10, dtype=c64, device=g.device))


def perf_cases(g: Inputs):
    yield Case("f64-1024", _gram(g, 1024))
    yield Case("f64-4096", _gram(g, 4096))
    yield Case("c128-2048-upper", _gram(g, 2048, complex_=True), upper=True)
    yield Case("c64-batch-512x128", _gram(g, 512, 128, complex_=True).to(torch.complex64))
