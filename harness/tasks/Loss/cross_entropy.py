"""Cross-entropy loss of float32 logits against class indices, with class weights and ignore_index."""

import inspect

import torch
import torch.nn.functional as F

from harness.checks import check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "cross_entropy"
SIGNATURE = "cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean')"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["ignore_index"]
DIFFICULTY = 2
DESCRIPTION = """
Compute the cross-entropy loss between unnormalised logits and class-index targets. `input` is a
float32 tensor of shape (N, C) (N samples, C classes), (N, C, d1, ..., dk) (classes along dimension
1) or (C,) for a single sample; it may be non-contiguous. `target` is an int64 tensor of class indices
of shape (N,), (N, d1, ..., dk) or () respectively, with values in [0, C) or equal to `ignore_index`.
For each target position with class c the loss is weight[c] * (logsumexp_j input[n, j, ...] -
input[n, c, ...]), i.e. -weight[c] * log_softmax(input)[c]; logits can be large (thousands), so the
log-sum-exp must be computed stably. Positions whose target equals `ignore_index` (default -100; it
may also be a valid class index, which is then ignored) contribute 0. `weight` (default None, meaning
all ones) is an optional float32 tensor of shape (C,) with one rescaling weight per class.
`reduction` selects the result: 'none' returns the losses as a new float32 tensor of the target's
shape (0 at ignored positions); 'sum' returns their sum and 'mean' (the default) the weighted mean,
i.e. the sum divided by the sum of weight[target] over the non-ignored positions (NaN when every
position is ignored), each as a 0-dimensional float32 tensor. The inputs must not be modified.
"""


def reference(input, target, weight=None, ignore_index=-100, reduction="mean"):
    return F.cross_entropy(input, target, weight=weight, ignore_index=ignore_index, reduction=reduction)


def _bind(case: Case) -> dict:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return bound.arguments


def cost(case: Case, output) -> Cost:
    args = _bind(case)
    x, t, w = args["input"], args["target"], args["weight"]
    # per logit: max, subtract, exp, add; per row a log and the target gather
    # the class weights are read at most once each (a gather per target from a cached table)
    weights = min(numel_bytes(w), t.numel() * w.element_size()) if w is not None else 0
    moved = numel_bytes(x) + numel_bytes(t) + numel_bytes(output) + weights
    return Cost(flops=4.0 * x.numel(), bytes=float(moved))


# -- checking reduced (0-dim) results ------------------------------------------------------------
# A 'mean'/'sum' result adds n terms (and for 'mean' n weights) in an order that differs between
# PyTorch and any kernel, so the candidate is compared with the loss evaluated in float64 on the
# same inputs (exact for our purposes), allowing:
#   _RTOL * |exact|                  the default float32 bound for a scalar (atol + rtol of taskdef);
#   _K * eps32 * M                   float32 rounding inside each term: lse - x[c] is a difference of
#                                    two rounded values (lse itself sums C exponentials), so a term
#                                    carries a few ulp of M = the same reduction applied to
#                                    weight[c] * (|lse| + |x[c]|): with logits in the thousands a loss
#                                    near 0 still has an error of ~eps32 * 1000 in any float32
#                                    implementation (PyTorch's too);
#   _C * sqrt(n) * eps32 * A         rounding of the accumulation, A = the same reduction applied to
#                                    |term| (= |exact| for nonnegative weights).
# Rounding errors of an fp32 running sum behave like a random walk: a plain sequential sum errs by
# about 0.3 * sqrt(n) * eps32 * A, tree/blocked sums far less; _C = 8 leaves a wide margin while
# still being ~1e-5 * A at n = 20000, far below the effect of any real bug (an ignored target
# counted, a wrong denominator, an unstable or truncated log-sum-exp).
_RTOL = 1.1e-4
_K = 16.0
_C = 8.0


def _exact(args):
    """(float64 loss, A, M, n) for the reduced result."""
    x = args["input"].double()
    w = args["weight"]
    w = None if w is None else w.double()
    wa = None if w is None else w.abs()
    kw = dict(ignore_index=args["ignore_index"], reduction=args["reduction"])
    exact = F.cross_entropy(x, args["target"], weight=w, **kw)
    a = F.cross_entropy(x, args["target"], weight=wa, **kw)
    cdim = 0 if x.dim() == 1 else 1
    mag = torch.logsumexp(x, dim=cdim, keepdim=True).abs() + x.abs()
    m = F.nll_loss(-mag, args["target"], weight=wa, **kw)
    return exact, abs(a.item()), abs(m.item()), args["target"].numel()


CHECK_NOTE = (
    "'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude of the terms, since the kernel may sum in another order than PyTorch."
)

def check(case, output, expected):
    args = _bind(case)
    if args["reduction"] == "none":
        return compare_outputs(output, expected)
    exact, a, m, n = _exact(args)
    return check_summed_scalar(output, expected, exact.item(), a, n, per_term=m, c=_C, k=_K, rtol=_RTOL)


def _targets(g: Inputs, c: int, *shape: int, ignore: int | None = None, every: int = 4):
    """Class indices in [0, c); with ``ignore``, every ``every``-th position is set to it."""
    t = g.randint(0, c, *shape)
    if ignore is not None:
        t.view(-1)[::every] = ignore
    return t


def cases(g: Inputs):
    for reduction in ("none", "mean", "sum"):
        yield Case("plain", g.randn(37, 11), _targets(g, 11, 37), reduction=reduction)
        yield Case("weight-ignore", g.randn(129, 50, std=2.0), _targets(g, 50, 129, ignore=-100),
                   weight=g.uniform(50, low=0.1, high=3.0), reduction=reduction)
        # ignore_index that is also a valid class: those positions must be skipped, weight too.
        yield Case("ignore-valid-class-3", g.randn(200, 7), _targets(g, 7, 200), weight=g.uniform(7, low=0.5, high=2.0),
                   ignore_index=3, reduction=reduction)
        yield Case("spatial-3d", g.randn(4, 7, 5), _targets(g, 7, 4, 5, ignore=-100, every=3), reduction=reduction)
    # Large logits: exp overflows float32 unless the row maximum is subtracted first.
    yield Case("large-logits-none", g.heavy_tailed(64, 100, scale=30.0), _targets(g, 100, 64), reduction="none")
    yield Case("large-logits-mean", g.heavy_tailed(64, 100, scale=30.0), _targets(g, 100, 64),
               weight=g.uniform(100, low=0.5, high=1.5))
    yield Case("offset-logits-sum", g.uniform(20, 300, low=150.0, high=250.0), _targets(g, 300, 20), reduction="sum")
    # C above 2048: a kernel must combine the log-sum-exp over several chunks of a row.
    yield Case("wide-2500", g.randn(8, 2500, std=3.0), _targets(g, 2500, 8))
    yield Case("wide-1000-weight-none", g.randn(16, 1000), _targets(g, 1000, 16), weight=g.uniform(1000),
               reduction="none")
    yield Case("spatial-4d-weight", g.randn(2, 5, 6, 7), _targets(g, 5, 2, 6, 7), weight=g.strided(g.uniform(5)),
               reduction="mean")
    yield Case("transposed", g.transposed(g.randn(64, 40)), _targets(g, 40, 64), reduction="mean")
    yield Case("strided-none", g.strided(g.randn(33, 65)), g.strided(_targets(g, 65, 33)), reduction="none")
    yield Case("outliers-ignore-neg1-sum", g.heavy_tailed(300, 13, scale=2.0), _targets(g, 13, 300, ignore=-1, every=7),
               ignore_index=-1, reduction="sum")
    yield Case("unbatched-none", g.randn(17), g.randint(0, 17), reduction="none")
    yield Case("unbatched-mean", g.randn(17), g.randint(0, 17), weight=g.uniform(17, low=0.5, high=2.0))
    yield Case("single-row", g.randn(1, 9), _targets(g, 9, 1))
    # Every target ignored: 'mean' is 0/0 = NaN.
    yield Case("all-ignored-mean", g.randn(6, 5), g.tensor([-100] * 6, dtype=torch.int64))


def perf_cases(g: Inputs):
    yield Case("4096x1000-mean", g.randn(4096, 1000), _targets(g, 1000, 4096))
    yield Case("32768x1000-weight-none", g.randn(32768, 1000), _targets(g, 1000, 32768), weight=g.uniform(1000),
               reduction="none")
    yield Case("65536x1000-ignore-mean", g.randn(65536, 1000), _targets(g, 1000, 65536, ignore=-100, every=10))
    yield Case("4096x32768-sum", g.randn(4096, 32768), _targets(g, 32768, 4096), reduction="sum")
