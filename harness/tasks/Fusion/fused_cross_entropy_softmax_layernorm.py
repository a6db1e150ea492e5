"""Cross-entropy of float32 logits plus layer normalization of their softmax, returned together."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_cross_entropy_softmax_layernorm"
SIGNATURE = ("fused_cross_entropy_softmax_layernorm(logits, targets, normalized_shape, weight=None, ignore_index=-100, "
             "reduction='mean', label_smoothing=0.0, eps=1e-05, *, out=None)")
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = ["ignore_index", "label_smoothing", "out", "weight"]
TIERS = {"out": "core", "out-weight-smooth-ignore": "core"}  # upstream's test passes out=
DIFFICULTY = 3
DESCRIPTION = """
From one tensor of logits compute two results and return them as a tuple (loss, normalized):
1. loss = torch.nn.functional.cross_entropy(logits, targets, weight=weight, ignore_index=ignore_index,
   reduction=reduction, label_smoothing=label_smoothing). `logits` is float32 of shape (N, C),
   possibly non-contiguous (as may be `targets`, `weight` and `out`); `targets` int64 (N,) class
   indices in [0, C) or equal to `ignore_index` (default -100; may also be a valid class, which is
   then ignored). With lp = log_softmax of a row
   (compute the log-sum-exp stably), the loss of a row with target y is
   (1 - s) * weight[y] * (-lp[y]) + (s / C) * sum_c weight[c] * (-lp[c]), s = label_smoothing in
   [0, 1] (default 0.0), `weight` an optional float32 (C,) tensor (None: all ones); ignored rows give 0.
   reduction='none' gives a float32 (N,) tensor of row losses, 'sum' their sum, 'mean' (default) the
   sum divided by the sum of weight[target] over non-ignored rows (their count without weight; NaN if
   all are ignored), each a 0-dim float32 tensor.
2. normalized = torch.nn.functional.layer_norm(torch.softmax(logits, dim=-1), normalized_shape,
   eps=eps) without affine parameters: each row's probabilities p (softmax over the C classes) become
   (p - mean(p)) / sqrt(var(p) + eps) with the row's mean and biased variance. `normalized_shape` is
   C given as an int, a tuple or a list (normalization over the last dimension). `eps` > 0 (default
   1e-5). A float32 (N, C) tensor.
If `out` (keyword-only) is given, it is a float32 (N, C) tensor (possibly non-contiguous): write
`normalized` into it and return (loss, out). The inputs must not be modified.
"""


def reference(logits, targets, normalized_shape, weight=None, ignore_index=-100, reduction="mean",
              label_smoothing=0.0, eps=1e-05, *, out=None):
    loss = F.cross_entropy(logits, targets, weight=weight, ignore_index=ignore_index, reduction=reduction,
                           label_smoothing=label_smoothing)
    probabilities = torch.softmax(logits, dim=-1)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    normalized = F.layer_norm(probabilities, shape, eps=eps)
    if out is not None:
        out.copy_(normalized)
        return loss, out
    return loss, normalized


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, t, w = args["logits"], args["targets"], args["weight"]
    weights = numel_bytes(w) if w is not None else 0
    loss, normalized = output
    # per logit: the log-sum-exp (4), smoothing term (2), probability, mean and variance (4), normalize (2)
    return Cost(flops=12.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(t) + weights + numel_bytes(loss)
                                                    + numel_bytes(normalized)))


# -- checking -------------------------------------------------------------------------------------
# The normalized probabilities and an unreduced loss are compared with the defaults (1e-4 relative
# plus 1e-5 of the RMS): p carries a few ulp, and p - mean(p) loses no more than ulp(1/C) to
# cancellation, tiny beside the outputs' O(0.1..1) spread. A 'mean'/'sum' loss is compared with the
# float64 loss (harness/checks.py: check_summed_scalar): 1.1e-4 relative, plus 16 eps32 times the
# same reduction of weight-scaled |lse| + |x| (rounding inside each term), plus 8 sqrt(n) eps32 times
# the reduction of |term| (any summation order). A wrong smoothing split, an unweighted mean or a
# counted ignored row is off by far more.


def _loss_bound(args):
    x = args["logits"].double()
    w = None if args["weight"] is None else args["weight"].double()
    red, s, ii, tgt = args["reduction"], args["label_smoothing"], args["ignore_index"], args["targets"]
    exact = F.cross_entropy(x, tgt, weight=w, ignore_index=ii, reduction=red, label_smoothing=s)
    per = F.cross_entropy(x, tgt, weight=w, ignore_index=ii, reduction="none", label_smoothing=s).abs()
    c = x.shape[1]
    wv = torch.ones(c, dtype=torch.float64, device=x.device) if w is None else w.abs()
    mag = torch.logsumexp(x, dim=1, keepdim=True).abs() + x.abs()
    valid = tgt != ii
    tg = torch.where(valid, tgt, 0)
    per_mag = torch.where(valid, mag.gather(1, tg[:, None])[:, 0] * wv[tg] + s / c * (mag * wv).sum(1), 0.0)
    denom = torch.where(valid, wv[tg], 0.0).sum() if red == "mean" else torch.tensor(1.0, dtype=torch.float64)
    return exact.item(), (per.sum() / denom).item(), (per_mag.sum() / denom).item(), tgt.numel()


CHECK_NOTE = ("normalized probabilities (and a 'none' loss) compared as usual; a 'mean'/'sum' loss compared "
              "with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude "
              "of the terms.")


def check(case, output, expected):
    if not isinstance(output, (tuple, list)) or len(output) != 2:
        return f"output: expected a tuple (loss, normalized), got {type(output).__name__}"
    msg = compare_outputs(output[1], expected[1], where="output[1]")
    if msg:
        return msg
    args = bind_arguments(reference, case)
    if args["reduction"] == "none":
        return compare_outputs(output[0], expected[0], where="output[0]")
    exact, a, m, n = _loss_bound(args)
    msg = check_summed_scalar(output[0], expected[0], exact, abs(a), n, per_term=abs(m), c=8.0, k=16.0, rtol=1.1e-4)
    return f"output[0] (loss): {msg}" if msg else None


def _targets(g: Inputs, c: int, n: int, ignore: int | None = None, every: int = 4):
    t = g.randint(0, c, n)
    if ignore is not None:
        t[::every] = ignore
    return t


def cases(g: Inputs):
    # Upstream-like (N, C) logits with normalized_shape = C, weight, ignore_index, smoothing and out=.
    for reduction in ("mean", "sum", "none"):
        yield Case("plain", g.randn(37, 11), _targets(g, 11, 37), 11, reduction=reduction)
        yield Case("weight-smooth", g.randn(64, 50, std=2.0), _targets(g, 50, 64), 50,
                   weight=g.uniform(50, low=0.2, high=2.0), reduction=reduction, label_smoothing=0.1)
        yield Case("ignore", g.randn(40, 16), _targets(g, 16, 40, ignore=-100), (16,), reduction=reduction)
    yield Case("ignore-valid-class", g.randn(60, 7), _targets(g, 7, 60), [7], ignore_index=3, label_smoothing=0.2)
    yield Case("eps", g.randn(30, 128, std=3.0), _targets(g, 128, 30), 128, eps=1e-3)
    yield Case("out", g.randn(33, 20), _targets(g, 20, 33), 20, out=g.randn(33, 20))
    yield Case("out-weight-smooth-ignore", g.randn(48, 24), _targets(g, 24, 48, ignore=-100, every=5), 24,
               weight=g.uniform(24, low=0.5, high=1.5), label_smoothing=0.25, out=g.randn(48, 24))
    # Large and offset logits (stable softmax), a wide row (chunked), a very peaked softmax.
    yield Case("offset-logits", g.uniform(20, 300, low=150.0, high=250.0), _targets(g, 300, 20), 300,
               reduction="sum", label_smoothing=0.1)
    yield Case("outliers", g.heavy_tailed(64, 100, scale=10.0), _targets(g, 100, 64), 100, label_smoothing=0.05)
    yield Case("wide-3000", g.randn(6, 3000, std=2.0), _targets(g, 3000, 6), 3000)
    yield Case("single-row", g.randn(1, 9), _targets(g, 9, 1), 9, reduction="none")
    # Layouts and all-ignored.
    yield Case("transposed", g.transposed(g.randn(48, 40)), _targets(g, 40, 48), 40, label_smoothing=0.1)
    yield Case("strided-none", g.strided(g.randn(33, 65)), _targets(g, 65, 33), 65, reduction="none")
    yield Case("all-ignored-mean", g.randn(6, 5), g.tensor([-100] * 6, dtype=torch.int64), 5)
    # targets and class weights read as dense (stride 1) take the gaps (zeros, NaN weights) and
    # other rows' targets; out written as dense misses its view
    yield Case("strided-targets-weight-out", g.randn(36, 24), g.strided(_targets(g, 24, 36, ignore=-100, every=5)),
               24, weight=g.strided(g.uniform(24, low=0.5, high=1.5)), reduction="none", label_smoothing=0.2,
               out=g.strided(g.randn(36, 24)))


def perf_cases(g: Inputs):
    # Upstream's (N, 1024) logits at the large end (268 and 537 MB in, as much out).
    yield Case("65536x1024-mean", g.randn(65536, 1024), _targets(g, 1024, 65536), 1024)
    yield Case("131072x1024-weight-smooth", g.randn(131072, 1024), _targets(g, 1024, 131072), 1024,
               weight=g.uniform(1024, low=0.5, high=1.5), label_smoothing=0.1, ignore_index=0)
    yield Case("8192x32000-none", g.randn(8192, 32000), _targets(g, 32000, 8192), 32000, reduction="none")
