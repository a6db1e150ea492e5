"""Solution X of the square float64 linear system A X = B (batched, broadcasting), A invertible."""

import torch

from harness.checks import bind_arguments
from harness.linalg_checks import (check_close, check_residual, check_tensor, cond2, forward_bound, log_spaced,
                                   needs_pivoting, spd, wide, with_singular_values)
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "solve"
SIGNATURE = "solve(A, B)"
DTYPES = ["float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = []
DIFFICULTY = 4
# Declared edge: conditioning the tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e6": "edge"}
DESCRIPTION = """
Solve the square linear system A X = B for X, like torch.linalg.solve(A, B), in float64. A is a
float64 tensor (*, n, n) of invertible matrices; B is float64 of shape (*, n, k) (k right-hand
sides per matrix), or a vector: B of shape (n,), or, when A is batched, B of shape A.shape[:-1] (one
vector per matrix), in which case X has B's vector form ((*, n)). The batch dimensions of A and B
broadcast against each other (e.g. A (3, n, n) with B (n, k) gives X (3, n, k)). Either input may
be non-contiguous; n or the batch may be 0 (empty result). Return a new float64 tensor X; the
inputs must not be modified. Use a backward-stable method (e.g. LU with partial pivoting): the
residual B - A X must be of the order of float64 rounding relative to |A| |X| + |B|, and X within
n * 2^-53 * cond(A) of the exact solution.
"""

F64 = torch.float64


def reference(A, B):
    return torch.linalg.solve(A, B)


# -- checking ----------------------------------------------------------------------------------------
# X is unique, so it is compared with the float64 solution, allowing a forward error ||X - X*||_F <= 16 * d
# * u64 * cond2(A) * ||X*||_F per system, d = max(n, 16) (harness/ linalg_checks.py FORWARD_C), and the
# residual ||B - A X||_F <= 16 * d * u64 * (||A||_F ||X||_F + ||B||_F) (RESIDUAL_C). Measured worst cases:
# forward 0.008 (Triton) / 0.0004 (LAPACK, which the float64 reference repeats) of the bound, residual
# 0.003. Elimination without pivoting on the "needs-pivoting" systems errs by ~5e8 times the forward bound;
# float32 arithmetic in the substitution by ~4e4 times; a permutation applied as P instead of P^T by O(1).
CHECK_NOTE = (
    "X is compared with the float64 solution under a forward-error bound 16*max(n,16)*2^-53*cond(A) "
    "(relative, Frobenius norm, per system) and its residual ||B - A X|| must be within "
    "16*max(n,16)*2^-53*(||A|| ||X|| + ||B||), since a kernel's elimination order differs from LAPACK's."
)


def _as_matrices(A, B, X):
    """(A, B, X) with B and X as (*, n, k) matrices, batch dimensions broadcast."""
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    if vector:
        B, X = B.unsqueeze(-1), X.unsqueeze(-1)
    batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    n, k = A.shape[-1], B.shape[-1]
    return A.expand(*batch, n, n), B.expand(*batch, n, k), X


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, B = args["A"], args["B"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    A3, B3, X3 = _as_matrices(A, B, output.to(A.device))
    exact = torch.linalg.solve(wide(A3), wide(B3))
    n = A.shape[-1]
    kappa = cond2(A3)
    return (check_close(X3, exact, forward_bound(n, F64, kappa), "output")
            or check_residual(A3, X3, B3, n, F64, "output"))


def cost(case: Case, output) -> Cost:
    A, B = case.args[0], case.args[1]
    n = A.shape[-1]
    k = 1 if output.dim() == A.dim() - 1 or B.dim() == 1 else B.shape[-1]
    batch = output.numel() // max(n * k, 1)
    # LU of each matrix (2/3 n^3) and a forward and a backward substitution per right-hand side (2 n^2)
    flops = batch * (2.0 / 3.0 * n ** 3 + 2.0 * n * n * k)
    return Cost(flops=flops, bytes=float(numel_bytes(A) + numel_bytes(B) + numel_bytes(output)))


def cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F64)  # noqa: E731
    yield Case("square-64-rhs1", r(64, 64), r(64, 1))
    yield Case("batched-4x33-rhs5", r(4, 33, 33), r(4, 33, 5))
    yield Case("many-rhs-20x70", r(20, 20), r(20, 70))
    yield Case("needs-pivoting-40", needs_pivoting(g, 40), r(40, 3))
    yield Case("spd-48", spd(g, 48), r(48, 2))
    yield Case("broadcast-A-batch", r(3, 16, 16), r(16, 4))
    yield Case("broadcast-B-batch", r(17, 17), r(2, 17, 3))
    yield Case("tiny-1x1", r(1, 1), r(1, 1))
    yield Case("tiny-2x2-batch", r(5, 2, 2), r(5, 2, 1))
    # vectors: B (n,) and a batch of vectors B (*, n)
    yield Case("vector-rhs", r(29, 29), r(29))
    yield Case("batched-vectors", r(3, 21, 21), r(3, 21))
    # edge: layouts, conditioning, magnitudes, zeros, empty
    yield Case("transposed-A", g.transposed(r(36, 36)), r(36, 2))
    yield Case("strided-B", r(2, 24, 24), g.strided(r(2, 24, 6)))
    # kappa = 1e6: the forward bound grows with kappa, the residual bound does not
    yield Case("ill-conditioned-1e6", with_singular_values(g, log_spaced(g, k=32, cond=1e6), 32, 32), r(32, 2))
    yield Case("huge-scale-1e150", 1e150 * r(20, 20), r(20, 3))
    yield Case("tiny-scale-1e-150", 1e-150 * r(20, 20), 1e-150 * r(20, 3))
    yield Case("zero-rhs", r(12, 12), torch.zeros(12, 2, dtype=F64, device=g.device))
    yield Case("empty-batch", r(0, 5, 5), r(0, 5, 2))
    yield Case("empty-rhs", r(6, 6), r(6, 0))


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F64)  # noqa: E731
    yield Case("2048-rhs1", r(2048, 2048), r(2048, 1))
    yield Case("4096-rhs16", r(4096, 4096), r(4096, 16))
    yield Case("batch-1024x64-rhs1", r(1024, 64, 64), r(1024, 64, 1))
