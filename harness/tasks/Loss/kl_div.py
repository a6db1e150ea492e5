"""Kullback-Leibler divergence loss from float32 log-probabilities, with four reductions and log_target."""

import warnings

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "kl_div"
SIGNATURE = "kl_div(input, target, reduction='batchmean', log_target=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["log_target", "reduction"]
DIFFICULTY = 3
DESCRIPTION = """
Compute the Kullback-Leibler divergence loss between `input`, a float32 tensor of log-probabilities
(any shape with at least one dimension, usually (batch, classes), possibly non-contiguous), and
`target`, a float32 tensor of the same shape. With log_target=False (the default) `target` holds
probabilities (>= 0) and the elementwise loss is target * (log(target) - input), where a zero target
contributes exactly 0 (0 * log 0 = 0); with log_target=True `target` holds log-probabilities and the
elementwise loss is exp(target) * (target - input). `reduction` selects the result: 'none' returns the
elementwise losses as a new tensor of the input's shape; 'sum' returns their sum, 'mean' their
average over all elements, and 'batchmean' (the default here) their sum divided by the size of the
first dimension, each as a 0-dimensional float32 tensor. The inputs must not be modified.
"""


def reference(input, target, reduction="batchmean", log_target=False):
    with warnings.catch_warnings():  # PyTorch warns that 'mean' is not 'batchmean'; it is tested on purpose
        warnings.simplefilter("ignore", UserWarning)
        return F.kl_div(input, target, reduction=reduction, log_target=log_target)


def cost(case: Case, output) -> Cost:
    x, t = case.args[0], case.args[1]
    # a log or exp, a subtract, a multiply and an accumulate
    return Cost(flops=5.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(t) + numel_bytes(output)))


# -- checking reduced (0-dim) results ------------------------------------------------------------
# A reduced result adds n terms in an order that differs between PyTorch and any kernel, so the
# candidate is compared with the loss evaluated in float64 on the same inputs (exact for our
# purposes), allowing:
#   _RTOL * |exact|                  the default float32 bound for a scalar (atol + rtol of taskdef);
#   _K * eps32 * M                   float32 rounding inside each term: a term is a difference,
#                                    t*log t - t*x (or exp(t)*(t - x)), so it carries a few ulp of
#                                    M = the same reduction applied to t*(|log t| + |x|) (or
#                                    exp(t)*(|t| + |x|)), even where the two parts cancel;
#   _C * sqrt(n) * eps32 * A         rounding of the accumulation, A = the same reduction applied
#                                    to |term| (terms have both signs).
# Rounding errors of an fp32 running sum behave like a random walk: a plain sequential sum errs by
# about 0.3 * sqrt(n) * eps32 * A, tree/blocked sums far less; _C = 8 leaves a wide margin while
# still being ~1e-5 * A at n = 20000, far below the effect of any real bug (a dropped element, a
# wrong denominator, NaN from 0 * log 0, fp16 accumulation).
_RTOL = 1.1e-4
_K = 16.0
_C = 8.0


def _exact(args):
    """(float64 loss, A, M, n) for the reduced result."""
    x = args["input"].double()
    t = args["target"].double()
    reduction, log_target = args["reduction"], args["log_target"]
    exact = reference(x, t, reduction=reduction, log_target=log_target)
    terms = F.kl_div(x, t, reduction="none", log_target=log_target)
    if log_target:
        m = t.exp() * (t.abs() + x.abs())
    else:
        m = torch.where(t > 0, t * (t.log().abs() + x.abs()), torch.zeros_like(t))
    denom = 1
    if reduction == "mean":
        denom = max(x.numel(), 1)
    elif reduction == "batchmean" and x.dim() != 0:
        denom = max(x.shape[0], 1)
    return exact, terms.abs().sum().item() / denom, m.sum().item() / denom, x.numel()


CHECK_NOTE = (
    "'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude of the terms, since the kernel may sum in another order than PyTorch."
)

def check(case, output, expected):
    args = bind_arguments(reference, case)
    if expected.dim() != 0:
        return compare_outputs(output, expected)
    exact, a, m, n = _exact(args)
    return check_summed_scalar(output, expected, exact.item(), a, n, per_term=m, c=_C, k=_K, rtol=_RTOL)


def _log_probs(g: Inputs, *shape: int, scale: float = 1.0):
    return torch.log_softmax(g.randn(*shape, std=scale), dim=-1)


def _probs(g: Inputs, *shape: int, scale: float = 1.0):
    return torch.softmax(g.randn(*shape, std=scale), dim=-1)


def _sparse_probs(g: Inputs, *shape: int):
    """Distributions with about half of the entries exactly 0 (0 * log 0 must give 0, not NaN)."""
    p = _probs(g, *shape) * (g.uniform(*shape) < 0.5)
    p[..., 0] += 1e-3  # no all-zero row
    return p / p.sum(dim=-1, keepdim=True)


def cases(g: Inputs):
    for reduction in ("none", "batchmean", "sum", "mean"):
        yield Case("probs-2d", _log_probs(g, 37, 129), _probs(g, 37, 129), reduction=reduction)
        yield Case("log-target-2d", _log_probs(g, 45, 101), _log_probs(g, 45, 101, scale=2.0),
                   reduction=reduction, log_target=True)
    yield Case("sparse-target-none", _log_probs(g, 31, 67), _sparse_probs(g, 31, 67), reduction="none")
    yield Case("sparse-target-batchmean", _log_probs(g, 31, 67), _sparse_probs(g, 31, 67))
    yield Case("one-hot-sum", _log_probs(g, 50, 10), F.one_hot(g.randint(0, 10, 50), 10).to(torch.float32),
               reduction="sum")
    # Peaked distributions: log-probabilities down to about -100, target entries that underflow.
    yield Case("peaked-batchmean", _log_probs(g, 16, 1000, scale=20.0), _probs(g, 16, 1000, scale=20.0))
    yield Case("peaked-log-target-sum", _log_probs(g, 16, 1000, scale=20.0), _log_probs(g, 16, 1000, scale=20.0),
               reduction="sum", log_target=True)
    # Arbitrary (unnormalised) scores and nonnegative targets: terms of both signs that cancel.
    yield Case("unnormalised-3d-batchmean", g.randn(4, 23, 50, std=3.0), g.uniform(4, 23, 50, low=0.0, high=2.0))
    yield Case("unnormalised-log-target-mean", g.heavy_tailed(60, 90), g.randn(60, 90), reduction="mean",
               log_target=True)
    yield Case("strided-batchmean", g.strided(_log_probs(g, 33, 65)), g.strided(_probs(g, 33, 65)))
    yield Case("transposed-log-target-none", g.transposed(_log_probs(g, 40, 70)), _log_probs(g, 40, 70),
               reduction="none", log_target=True)
    yield Case("large-batchmean", _log_probs(g, 20, 1009), _probs(g, 20, 1009))
    yield Case("1d-batchmean", _log_probs(g, 1001), _probs(g, 1001))
    yield Case("single-row", _log_probs(g, 1, 7), _probs(g, 1, 7), reduction="batchmean")


def perf_cases(g: Inputs):
    yield Case("8192x1024-batchmean", _log_probs(g, 8192, 1024), _probs(g, 8192, 1024))
    yield Case("32768x1024-none-log-target", _log_probs(g, 32768, 1024), _log_probs(g, 32768, 1024),
               reduction="none", log_target=True)
    yield Case("65536x1024-batchmean", _log_probs(g, 65536, 1024), _probs(g, 65536, 1024))
    yield Case("65536x1024-sum-log-target", _log_probs(g, 65536, 1024), _log_probs(g, 65536, 1024),
               reduction="sum", log_target=True)
