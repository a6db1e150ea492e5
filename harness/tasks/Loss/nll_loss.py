"""Negative log-likelihood loss over class log-probabilities, with class weights and ignore_index."""

import inspect

import torch
import torch.nn.functional as F

from harness.checks import check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "nll_loss"
SIGNATURE = "nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["ignore_index", "weight"]
DIFFICULTY = 2
DESCRIPTION = """
Compute the negative log-likelihood loss. `input` is a float32 tensor of log-probabilities of shape
(N, C) (N samples, C classes), (N, C, d1, ..., dk) (classes along dimension 1) or (C,) for a single
sample; it may be non-contiguous. `target` is an int64 tensor of class indices of shape (N,),
(N, d1, ..., dk) or () respectively, with values in [0, C) or equal to `ignore_index`. For each target
position the loss is -weight[c] * input[n, c, ...] with c = target[n, ...]; positions whose target
equals `ignore_index` (default -100; it may also be a valid class index, which is then ignored)
contribute 0. `weight` (default None, meaning all ones) is an optional float32 tensor of shape (C,)
with one rescaling weight per class. `reduction` selects the result: 'none' returns the losses as a
new float32 tensor of the target's shape (0 at ignored positions); 'sum' returns their sum and 'mean'
(the default) the weighted mean, i.e. the sum divided by the sum of weight[target] over the
non-ignored positions (NaN when every position is ignored), each as a 0-dimensional float32 tensor.
The inputs must not be modified.
"""


def reference(input, target, weight=None, ignore_index=-100, reduction="mean"):
    return F.nll_loss(input, target, weight=weight, ignore_index=ignore_index, reduction=reduction)


def _bind(case: Case) -> dict:
    bound = inspect.signature(reference).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return bound.arguments


def cost(case: Case, output) -> Cost:
    args = _bind(case)
    r = args["target"].numel()
    # Only the targeted entry of each row is read: target + one input value (+ one weight) per position.
    moved = numel_bytes(args["target"]) + r * 4 * (1 if args["weight"] is None else 2) + numel_bytes(output)
    return Cost(flops=2.0 * r, bytes=float(moved))


# -- checking reduced (0-dim) results ------------------------------------------------------------
# A 'mean'/'sum' result adds n terms (and for 'mean' n weights) in an order that differs between
# PyTorch and any kernel, so the candidate is compared with the loss evaluated in float64 on the
# same inputs (exact for our purposes), allowing:
#   _RTOL * |exact|                  the default float32 bound for a scalar (atol + rtol of taskdef);
#   _C * sqrt(n) * eps32 * S         float32 rounding of the accumulation, where S is the same
#                                    reduction applied to |term| = weight[c] * |input[n, c]| (inputs
#                                    that are not log-probabilities give terms of both signs).
# Rounding errors of an fp32 running sum behave like a random walk: a plain sequential sum errs by
# about 0.3 * sqrt(n) * eps32 * S, tree/blocked sums far less; _C = 8 leaves a wide margin while
# still being ~1e-5 * S at n = 20000, far below the effect of any real bug (an ignored target
# counted, a wrong denominator, a wrong column).
_RTOL = 1.1e-4
_C = 8.0


def _exact(args):
    x = args["input"].double()
    w = args["weight"]
    w = None if w is None else w.double()
    kw = dict(ignore_index=args["ignore_index"], reduction=args["reduction"])
    exact = F.nll_loss(x, args["target"], weight=w, **kw)
    s = F.nll_loss(-x.abs(), args["target"], weight=None if w is None else w.abs(), **kw)
    return exact, abs(s.item()), args["target"].numel()


CHECK_NOTE = (
    "'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude of the terms, since the kernel may sum in another order than PyTorch."
)

def check(case, output, expected):
    args = _bind(case)
    if args["reduction"] == "none":
        return compare_outputs(output, expected)
    exact, s, n = _exact(args)
    return check_summed_scalar(output, expected, exact.item(), s, n, c=_C, rtol=_RTOL)


def _log_probs(g: Inputs, *shape: int, scale: float = 1.0):
    return torch.log_softmax(g.randn(*shape, std=scale), dim=1 if len(shape) > 1 else 0)


def _targets(g: Inputs, c: int, *shape: int, ignore: int | None = None, every: int = 4):
    """Class indices in [0, c); with ``ignore``, every ``every``-th position is set to it."""
    t = g.randint(0, c, *shape)
    if ignore is not None:
        t.view(-1)[::every] = ignore
    return t


def cases(g: Inputs):
    for reduction in ("none", "mean", "sum"):
        yield Case("plain", _log_probs(g, 37, 11), _targets(g, 11, 37), reduction=reduction)
        yield Case("weight-ignore", _log_probs(g, 129, 50), _targets(g, 50, 129, ignore=-100),
                   weight=g.uniform(50, low=0.1, high=3.0), reduction=reduction)
        # ignore_index that is also a valid class: those positions must be skipped, weight too.
        yield Case("ignore-valid-class-3", _log_probs(g, 200, 7), _targets(g, 7, 200), weight=g.uniform(7, low=0.5, high=2.0),
                   ignore_index=3, reduction=reduction)
        yield Case("spatial-3d", _log_probs(g, 4, 7, 5), _targets(g, 7, 4, 5, ignore=-100, every=3),
                   reduction=reduction)
    yield Case("spatial-4d-weight", _log_probs(g, 2, 5, 6, 7), _targets(g, 5, 2, 6, 7), weight=g.strided(g.uniform(5)),
               reduction="mean")
    yield Case("wide-1000", _log_probs(g, 16, 1000, scale=3.0), _targets(g, 1000, 16), weight=g.uniform(1000))
    # Scores that are not log-probabilities: terms of both signs (the 'mean' nearly cancels).
    yield Case("raw-scores-mean", g.randn(500, 9), _targets(g, 9, 500), reduction="mean")
    yield Case("outliers-sum", g.heavy_tailed(300, 13, scale=5.0), _targets(g, 13, 300, ignore=-1, every=7),
               weight=g.uniform(13, low=0.0, high=2.0), ignore_index=-1, reduction="sum")
    yield Case("transposed", g.transposed(_log_probs(g, 64, 40)), _targets(g, 40, 64), reduction="mean")
    yield Case("strided-none", g.strided(_log_probs(g, 33, 65)), g.strided(_targets(g, 65, 33)), reduction="none")
    yield Case("unbatched-none", _log_probs(g, 17), g.randint(0, 17), reduction="none")
    yield Case("unbatched-mean", _log_probs(g, 17), g.randint(0, 17), weight=g.uniform(17, low=0.5, high=2.0))
    yield Case("single-row", _log_probs(g, 1, 9), _targets(g, 9, 1))
    # Every target ignored: 'mean' is 0/0 = NaN, 'sum' is 0.
    yield Case("all-ignored-mean", _log_probs(g, 6, 5), g.tensor([-100] * 6, dtype=torch.int64))
    yield Case("all-ignored-sum", _log_probs(g, 6, 5), g.tensor([-100] * 6, dtype=torch.int64), reduction="sum")


def perf_cases(g: Inputs):
    # Only one entry per row is read, so the traffic is ~12-16 bytes per target position: growing
    # numbers of positions, up to 2**24 (about 270 MB with the output).
    yield Case("32768x1000-weight-mean", g.randn(32768, 1000), _targets(g, 1000, 32768, ignore=-100, every=10),
               weight=g.uniform(1000))
    yield Case("1Mx128-none", g.randn(1 << 20, 128), _targets(g, 128, 1 << 20), reduction="none")
    yield Case("4Mx16-weight-sum", g.randn(1 << 22, 16), _targets(g, 16, 1 << 22), weight=g.uniform(16),
               reduction="sum")
    yield Case("16Mx16-none", g.randn(1 << 24, 16), _targets(g, 16, 1 << 24, ignore=-100, every=10),
               reduction="none")
