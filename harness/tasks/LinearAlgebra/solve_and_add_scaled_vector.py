"""Upper triangular solve A x = b in float64, then x + alpha * y."""

import torch

from harness.checks import bind_arguments, unit_roundoff
from harness.linalg_checks import check_close, check_tensor, cond2, forward_bound, fro, log_spaced, wide
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "solve_and_add_scaled_vector"
SIGNATURE = "solve_and_add_scaled_vector(A, b, y, alpha)"
DTYPES = ["float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["alpha"]
DIFFICULTY = 1
PERF_MIX = "in place"  # A stays upper triangular, its diagonal of magnitude 1..4
# Declared edge: conditioning, a garbage lower triangle, a row-vector y and a huge alpha, which the
# tier rule cannot see in the inputs.
TIERS = {"ill-conditioned-1e6": "edge", "lower-triangle-ignored": "edge", "y-row-broadcast": "edge",
         "huge-alpha": "edge"}
DESCRIPTION = """
Solve the upper triangular system A x = b, then add alpha * y to the solution, like
x = torch.linalg.solve_triangular(A, b, upper=True); x += alpha * y. A is float64 of shape
(*, n, n), upper triangular with a nonzero diagonal: only its upper triangle (diagonal included) is
read, whatever its strictly lower part holds. b is float64 (*, n, k) (at least 2-D; a column vector
is (n, 1)); the batch dimensions of A and b broadcast against each other. y is float64 and
broadcastable to x's shape (e.g. (n, 1) against (n, k), or (k,)), and alpha a Python float, used
with its full float64 value (note that Triton passes a Python float kernel argument as float32). Inputs
may be non-contiguous; k or the batch may be 0. Return a new float64 tensor x of shape
(broadcast batch, n, k); the inputs must not be modified. Accuracy: that of back substitution in
float64 (relative error of order n * 2^-53 * cond(A)).
"""

F64 = torch.float64


def reference(A, b, y, alpha):
    x = torch.linalg.solve_triangular(A, b, upper=True)
    x += alpha * y
    return x


# -- checking ----------------------------------------------------------------------------------------
# x is unique; it is compared with its float64 evaluation, allowing 16 * d * u64 * cond2(triu(A)) * ||A^-1
# b||_F, d = max(n, 16), for the back substitution (harness/linalg_checks.py FORWARD_C) plus 8 * u64 *
# ||alpha y||_F for the final scaled addition (one rounding each), per matrix; measured worst case 0.002 of
# the bound. Reading A's lower triangle, a lower-triangular (forward) solve, subtracting alpha * y or
# float32 arithmetic all fail by >= 1e4 times the bound.
CHECK_NOTE = (
    "Compared with the float64 result, allowing 16*max(n,16)*2^-53*cond(A)*||A^-1 b|| for the substitution plus "
    "8*2^-53*||alpha*y|| for the addition, per matrix, since the substitution order may differ."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    A, b, y, alpha = args["A"], args["b"], args["y"], args["alpha"]
    msg = check_tensor(output, expected.shape, expected.dtype, "output")
    if msg or output.numel() == 0:
        return msg
    T = torch.triu(wide(A))
    solved = torch.linalg.solve_triangular(T, wide(b), upper=True)
    scaled = (alpha * wide(y)).expand_as(solved)
    n = A.shape[-1]
    kappa = cond2(T).expand(solved.shape[:-2])
    allowed = forward_bound(n, F64, kappa) * fro(solved) + 8 * unit_roundoff(F64) * fro(scaled)
    return check_close(output.to(A.device), solved + scaled, 1.0, "output", scale=allowed)


def cost(case: Case, output) -> Cost:
    A, b, y = case.args[0], case.args[1], case.args[2]
    n, k = output.shape[-2], output.shape[-1]
    batch = output.numel() // max(n * k, 1)
    a_batch = A.numel() // max(n * n, 1)
    # back substitution (n^2 flops per right-hand side) and the scaled addition; only A's upper
    # triangle is read
    moved = A.element_size() * a_batch * n * (n + 1) / 2 + numel_bytes(b) + numel_bytes(y) + numel_bytes(output)
    return Cost(flops=batch * (n * n * k + 2.0 * n * k), bytes=float(moved))


def _upper(g, *shape):
    """Upper triangular matrices with N(0, 1/n) entries above a diagonal of magnitude 1..4 and random
    sign: condition numbers ~5-8 (random triangular matrices without that are exponentially
    ill-conditioned). Their strictly lower part is zero."""
    *batch, n = shape
    t = torch.triu(g.randn(*batch, n, n, dtype=F64), 1) / n ** 0.5
    d = g.randn(*batch, n, dtype=F64)
    return t + torch.diag_embed(torch.sign(d) * (1.0 + d.abs()))


def cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F64)  # noqa: E731
    yield Case("64-column", _upper(g, 64), r(64, 1), r(64, 1), 1.0)
    yield Case("40-rhs5", _upper(g, 40), r(40, 5), r(40, 5), -0.5)
    yield Case("y-column-broadcast", _upper(g, 33), r(33, 7), r(33, 1), 2.5)
    yield Case("alpha-zero", _upper(g, 20), r(20, 3), r(20, 3), 0.0)
    yield Case("many-rhs-24x70", _upper(g, 24), r(24, 70), r(24, 70), 0.75)
    yield Case("tiny-1x1", _upper(g, 1), r(1, 1), r(1, 1), 3.0)
    yield Case("batched-3x17", _upper(g, 3, 17), r(3, 17, 2), r(3, 17, 2), 1.0)
    # edge: the strictly lower triangle holds garbage that must not be read
    garbage = _upper(g, 30) + torch.tril(1e3 * r(30, 30), -1)
    yield Case("lower-triangle-ignored", garbage, r(30, 2), r(30, 2), 1.0)
    yield Case("y-row-broadcast", _upper(g, 18), r(18, 4), r(4), -1.5)
    yield Case("transposed-A", g.transposed(_upper(g, 36)), r(36, 2), r(36, 2), 1.0)
    yield Case("strided-b-y", _upper(g, 2, 25), g.strided(r(2, 25, 3)), g.strided(r(25, 3)), 0.5)
    # kappa = 1e6: a diagonal spread 1 .. 1e-6 (the bound grows with kappa)
    ill = _upper(g, 32) * 0.1
    ill.diagonal().copy_(log_spaced(g, k=32, cond=1e6))
    yield Case("ill-conditioned-1e6", torch.triu(ill), r(32, 2), r(32, 2), 1.0)
    yield Case("huge-alpha", _upper(g, 16), r(16, 2), r(16, 2), 1e12)
    yield Case("empty-rhs", _upper(g, 6), r(6, 0), r(6, 0), 1.0)


def perf_cases(g: Inputs):
    r = lambda *s: g.randn(*s, dtype=F64)  # noqa: E731
    yield Case("4096-column", _upper(g, 4096), r(4096, 1), r(4096, 1), 1.0)
    yield Case("8192-rhs16", _upper(g, 8192), r(8192, 16), r(8192, 1), 0.5)
    yield Case("batch-256x256-rhs8", _upper(g, 256, 256), r(256, 256, 8), r(256, 256, 8), -1.0)
