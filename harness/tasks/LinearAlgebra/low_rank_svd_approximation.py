"""Best rank-k approximation of float32 matrices through their singular value decomposition."""

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (check_close, check_tensor, forward_bound, fro, real_dtype, wide,
                                   with_singular_values)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "low_rank_svd_approximation"
SIGNATURE = "low_rank_svd_approximation(A, k, *, full_matrices=True, out=None)"
DTYPES = ["float32", "float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["full_matrices"]
DIFFICULTY = 3
PERF_MIX = "none"  # the inputs have a designed gap between singular values k and k + 1
# Declared edge: a tiny singular-value tail the tier rule cannot see in the inputs.
TIERS = {"tiny-tail": "edge"}
DESCRIPTION = """
Rank-k approximation A_k = U_k diag(S_k) Vh_k of a float32 (or float64) matrix or batch of matrices
A (*, m, n), where U, S, Vh is A's singular value decomposition (singular values in descending
order) and U_k = U[..., :, :k], S_k = S[..., :k], Vh_k = Vh[..., :k, :]: the best approximation of A
of rank k in the Frobenius norm. k is an int with 1 <= k <= min(m, n) (a larger k keeps all singular
values, giving A itself). `full_matrices` (default True) selects the full or reduced SVD as in
torch.linalg.svd; the result does not depend on it. Return a new tensor of A's shape and dtype; if
`out` is given, write the result into it and return it. The cases have a clear gap between the k-th
and the (k+1)-th singular value, which makes A_k unique; its accuracy must be that of a
backward-stable SVD in A's precision: error of order n * u * ||A|| * (1 + sigma_1 / (sigma_k -
sigma_k+1)), u = 2^-24 for float32. A may be non-contiguous; the batch may be empty. The input must
not be modified.
"""


def reference(A, k, *, full_matrices=True, out=None):
    U, S, Vh = torch.linalg.svd(A, full_matrices=full_matrices)
    U_k = U[..., :k]
    S_k = S[..., :k]
    Vh_k = Vh[..., :k, :]
    S_k_diag = torch.diag_embed(S_k)
    A_k = U_k @ S_k_diag @ Vh_k
    if out is not None:
        out.copy_(A_k)
        return out
    return A_k


# -- checking ----------------------------------------------------------------------------------------
# A_k is unique when sigma_k > sigma_k+1, and its sensitivity to a backward error E of the SVD is ||dA_k||
# <~ ||E|| (1 + sqrt(2) sigma_1 / gap), gap = sigma_k - sigma_k+1 (the rank-k projector moves by ||E|| /
# gap). It is compared with the float64 A_k, allowing ||A_k - A_k*||_F <= 16 * d(n) * u * kappa_k * ||A||_F,
# kappa_k = 1 + sigma_1 / gap (harness/ linalg_checks.py FORWARD_C; d(n) = max(m, n, 16)); kappa_k = 1 when
# k >= min(m, n). Measured worst cases: 0.04 of the bound for PyTorch's float32 SVD, 0.02 for the Triton
# solution (QR + one-sided Jacobi); keeping k + 1 terms, unsorted singular values, S applied twice or V in
# place of Vh err by >= 700 times it on these inputs.
CHECK_NOTE = (
    "Compared with the float64 rank-k approximation under a normwise bound "
    "16*max(m,n,16)*u*(1 + sigma_1/(sigma_k - sigma_k+1))*||A||_F, the sensitivity of the truncated SVD "
    "to a backward-stable SVD's rounding."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, k = args["A"], int(args["k"])
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    U, S, Vh = torch.linalg.svd(wide(A), full_matrices=False)
    exact = (U[..., :k] * S[..., :k].unsqueeze(-2)) @ Vh[..., :k, :]
    m, n = A.shape[-2], A.shape[-1]
    if k < min(m, n):
        kappa = 1.0 + S[..., 0] / (S[..., k - 1] - S[..., k])
    else:
        kappa = torch.ones(S.shape[:-1], dtype=torch.float64, device=S.device)
    return check_close(output.to(A.device), exact, forward_bound(max(m, n), real_dtype(A.dtype), kappa), "output",
                       scale=fro(A))


def cost(case: Case, output) -> Cost:
    A = case.args[0]
    k = int(case.args[1]) if len(case.args) > 1 else int(case.kwargs["k"])
    m, n = A.shape[-2], A.shape[-1]
    batch = A.numel() // max(m * n, 1)
    kk, l = min(m, n), max(m, n)
    # the bidiagonalization of a full SVD (4 l kk^2 - 4/3 kk^3) and the rank-k product (2 m n k); the
    # iterative part is not counted
    flops = batch * (4.0 * l * kk * kk - 4.0 / 3.0 * kk ** 3 + 2.0 * m * n * min(k, kk))
    return Cost(flops=flops, bytes=float(numel_bytes(A) + numel_bytes(output)))


def _gapped(g, *batch, m, n, k, tail=1.0, dtype=torch.float32):
    """A with singular values: k in [2, 4] and min(m, n) - k in [0, tail] (so the gap is >= 1)."""
    kk = min(m, n)
    top = g.uniform(*batch, k, low=2.0, high=4.0, dtype=torch.float64)
    rest = g.uniform(*batch, kk - k, low=0.0, high=tail, dtype=torch.float64)
    s = torch.cat([top, rest], dim=-1).sort(dim=-1, descending=True).values
    return with_singular_values(g, s, m, n).to(dtype)


def cases(g: Inputs):
    yield Case("gap-32-k8", _gapped(g, m=32, n=32, k=8), 8)
    yield Case("gap-tall-44x24-k10-reduced", _gapped(g, m=44, n=24, k=10), 10, full_matrices=False)
    yield Case("gap-wide-20x44-k5", _gapped(g, m=20, n=44, k=5), 5, full_matrices=True)
    yield Case("gap-batched-3x24-k6", _gapped(g, 3, m=24, n=24, k=6), 6)
    yield Case("k1-rank-one", _gapped(g, m=30, n=26, k=1), 1, full_matrices=False)
    yield Case("full-rank-k-eq-min", g.randn(2, 20, 14, dtype=torch.float32), 14)
    # Gaussian matrices: the gaps of their spectra are whatever they are (the bound adapts to them)
    yield Case("gaussian-28-k10", g.randn(28, 28, dtype=torch.float32), 10)
    # edge: a tail of tiny singular values, layouts, float64, empty, out=
    yield Case("tiny-tail", _gapped(g, m=30, n=22, k=4, tail=1e-6), 4)
    yield Case("transposed", g.transposed(_gapped(g, m=24, n=24, k=7)), 7)
    yield Case("strided-batch", g.strided(_gapped(g, 2, m=18, n=22, k=3)), 3, full_matrices=False)
    yield Case("float64", _gapped(g, m=30, n=20, k=9, dtype=torch.float64), 9)
    yield Case("empty-batch", g.randn(0, 6, 5, dtype=torch.float32), 2)
    yield Case("out", _gapped(g, m=16, n=12, k=3), 3,
               out=g.strided(torch.empty(16, 12, dtype=torch.float32, device=g.device)))


def perf_cases(g: Inputs):
    yield Case("256-k50", _gapped(g, m=256, n=256, k=50), 50)
    yield Case("512-k50-reduced", _gapped(g, m=512, n=512, k=50), 50, full_matrices=False)
    yield Case("1024-k50", _gapped(g, m=1024, n=1024, k=50), 50)
    yield Case("batch-64x128-k16", _gapped(g, 64, m=128, n=128, k=16), 16)
