"""Standard deviation of the sums of a float32 tensor over some dimensions (sum, then std of all sums)."""

import math
import warnings

import torch

from harness.checks import bind_arguments, check_bounded, unit_roundoff
from harness.taskdef import Case, Cost, Inputs, numel_bytes, tolerance_for

ENTRY = "fused_sum_std"
SIGNATURE = "fused_sum_std(input, dim=None, keepdim=False, dtype=None, correction=1, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["correction", "dim", "keepdim"]
DIFFICULTY = 4
DESCRIPTION = """
Sum `input` over the dimension(s) `dim`, then return the standard deviation of ALL the resulting
sums (one number), like torch.std(torch.sum(input, dim=dim, keepdim=keepdim, dtype=dtype),
correction=correction, keepdim=keepdim, out=out). `input` is a float32 tensor of any shape (possibly
0-d, empty or non-contiguous). `dim` is None (sum everything: a single sum), an int or a tuple of
ints (negative values count from the end). With P sums s_1..s_P and their mean m, the result is
sqrt(sum_i (s_i - m)^2 / max(0, P - correction)); `correction` (default 1) is the degrees-of-freedom
correction, so P <= correction divides by 0 (inf, or NaN when the squared deviations sum to 0, e.g.
a single sum with correction=1), and P = 0 gives NaN. The result is a single element: a 0-d tensor,
or with keepdim=True a tensor of shape (1,) * input.dim(). If `dtype` is given (torch.float64) the
input is converted to it before summing and the sums and result use it; otherwise float32. Sums can
share a large common value (e.g. rows with mean 1000) and differ little, so compute the deviations
from the mean in a second pass over the sums (never E[s^2] - E[s]^2). NaN or inf in the input gives
NaN. If `out` (a one-element tensor of the result's shape and dtype) is given, write the result into
it and return `out`; otherwise return a new tensor. The input must not be modified.
"""


def reference(input, dim=None, keepdim=False, dtype=None, correction=1, out=None):
    sums = torch.sum(input, dim=dim, keepdim=keepdim, dtype=dtype)
    return torch.std(sums, correction=correction, keepdim=keepdim, out=out)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    # one add per input element for the sums, a few operations per sum for the deviation pass;
    # the sums themselves are an intermediate (never counted as traffic).
    return Cost(flops=float(x.numel()), bytes=float(numel_bytes(x) + numel_bytes(output)))


# -- checking the output -----------------------------------------------------------------------------
# Compared with the same computation in float64. A float32 sum of K terms may err, in any correct
# order, by up to ~_C * sqrt(K) * eps * sum_j |x_ij| (the random-walk bound used throughout, _C = 8),
# and the standard deviation is 1-Lipschitz in the l2 norm of the sums divided by sqrt(dof), so the
# sums' errors move it by at most ||delta||_2 / sqrt(P - correction). The deviation pass adds
# _C * sqrt(P) * eps relative. On sums with a large common value (1e6 +- 30) this allows the
# rounding of any sound float32 summation, while one-pass E[s^2] - E[s]^2 in float32 (which loses
# the whole variance there) still fails.
_C = 8.0

CHECK_NOTE = (
    "result compared with a float64 evaluation, allowing besides the default tolerance the rounding "
    "of float32 sums over K terms (random-walk bound, propagated through the std) and of the "
    "deviation pass over the P sums."
)


def _dims(x, dim):
    if dim is None:
        return list(range(x.dim()))
    return [d % max(x.dim(), 1) for d in ((dim,) if isinstance(dim, int) else dim)]


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x = args["input"]
    dtype = args["dtype"] or x.dtype
    dims = _dims(x, args["dim"])
    xd = x.double()
    if x.dim() and dims:
        sums = xd.sum(dim=dims)
        mags = xd.abs().sum(dim=dims)
    else:
        sums, mags = xd.clone(), xd.abs()
    with warnings.catch_warnings():  # dof <= 0 is a case here, not a mistake
        warnings.simplefilter("ignore", UserWarning)
        exact = torch.std(sums.reshape(-1), correction=args["correction"]).reshape(expected.shape)
    p = sums.numel()
    k = x.numel() // max(p, 1) if x.numel() else 0
    u = 2 * unit_roundoff(dtype)  # eps of the summation dtype
    delta = _C * math.sqrt(max(k, 1)) * u * mags.reshape(-1)
    dof = max(p - args["correction"], 0)
    tol = tolerance_for(dtype)
    spread = delta.square().sum().sqrt().item() / math.sqrt(dof) if dof > 0 else 0.0
    bound = (tol.atol + tol.rtol + _C * math.sqrt(max(p, 1)) * u) * exact.abs() + spread
    return check_bounded(output, exact.to(expected.device), bound.nan_to_num(nan=0.0, posinf=0.0).to(expected.device),
                         dtype=dtype)


# -- cases -------------------------------------------------------------------------------------------
def cases(g: Inputs):
    yield Case("rows-dim1", g.randn(64, 300), dim=1)
    yield Case("small-dim1", g.uniform(2, 3, low=0.0, high=6.0), dim=1)
    yield Case("cols-dim0", g.randn(3000, 6), dim=0)
    yield Case("keepdim", g.uniform(37, 1000, low=-2.0, high=5.0), dim=1, keepdim=True)
    yield Case("correction-0", g.randn(50, 129), dim=1, correction=0)
    yield Case("middle-dim-correction-2", g.randn(8, 515, 5), dim=1, correction=2)
    yield Case("tuple-dims", g.randn(6, 7, 8, 9), dim=(0, 2))
    # Long rows: the sums are split over several programs.
    yield Case("long-rows", g.randn(4, 50000), dim=1)
    # Sums share a large common value (~1e6) and differ by ~30.
    yield Case("large-mean-sums", g.randn(200, 1000, mean=1000.0), dim=1)
    yield Case("large-mean-cols", g.randn(500, 300, mean=-200.0, std=0.5), dim=0, keepdim=True)
    yield Case("outliers", g.heavy_tailed(16, 1000, scale=3.0), dim=1)
    # Everything summed into one number: its std is 0 / 0 = NaN with correction=1, 0 with 0.
    yield Case("all-default", g.randn(1000))
    yield Case("all-correction-0", g.randn(30, 40), correction=0)
    yield Case("all-keepdim", g.randn(30, 40), keepdim=True)
    yield Case("1d-dim0", g.randn(5000), dim=0, correction=0)
    # Edge: P <= correction divides by zero (inf), negative dims, layouts, special values, dtype, out=.
    yield Case("correction-exceeds-p", g.randn(3, 20), dim=1, correction=5)
    yield Case("tuple-negative-keepdim", g.randn(4, 33, 65), dim=(-2, -1), keepdim=True)
    yield Case("negative-dim", g.randn(12, 70), dim=-1)
    yield Case("strided", g.strided(g.randn(33, 65)), dim=1)
    yield Case("transposed-dim0", g.transposed(g.randn(40, 50)), dim=0)
    yield Case("transposed-dim1", g.transposed(g.randn(60, 30)), dim=1, keepdim=True)
    x = g.randn(5, 300)
    x[2, 123] = float("nan")
    yield Case("nan", x, dim=1)
    x = g.randn(5, 300)
    x[0, 7] = float("inf")
    yield Case("inf", x, dim=1)
    yield Case("empty-reduction", g.randn(0, 7), dim=0)
    yield Case("no-sums", g.randn(0, 7), dim=1)
    yield Case("0d-input", g.tensor(2.5), correction=0)
    yield Case("dtype-float64", g.randn(40, 333, mean=100.0), dim=1, dtype=torch.float64)
    yield Case("out", g.randn(12, 345), dim=1, out=g.randn())
    yield Case("out-keepdim", g.randn(9, 10, 11), dim=(0, 2), keepdim=True, correction=0, out=g.randn(1, 1, 1))


def perf_cases(g: Inputs):
    yield Case("rows-8192x8192", g.randn(8192, 8192), dim=1)
    yield Case("cols-8192x8192", g.randn(8192, 8192), dim=0)
    yield Case("3d-1024x256x256-dims-1-2", g.randn(1024, 256, 256), dim=(1, 2), keepdim=True)
    yield Case("all-64M", g.randn(1 << 26), dim=0, correction=0)
