"""Cross-entropy of log_softmax(input) against class indices: class weights, ignore_index, label smoothing."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_cross_entropy_log_softmax"
SIGNATURE = ("fused_cross_entropy_log_softmax(input, target, dim=1, weight=None, ignore_index=-100, "
             "reduction='mean', label_smoothing=0.0)")
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = ["label_smoothing", "reduction", "weight"]
DIFFICULTY = 4
DESCRIPTION = """
Apply log_softmax to the logits along `dim`, then the cross-entropy loss against class indices,
like torch.nn.functional.cross_entropy(torch.nn.functional.log_softmax(input, dim), target,
weight=weight, ignore_index=ignore_index, reduction=reduction, label_smoothing=label_smoothing).
`input` is float32 of shape (N, C) or (N, C, d1, ..., dk) with classes along dimension 1, possibly
non-contiguous; `dim` names that class dimension (1, or -1 for a 2-D input; default 1). Since
log_softmax is idempotent, the result is the cross-entropy of the logits themselves: with
lp[c] = x[c] - logsumexp_j x[j] over the classes of one position (compute the log-sum-exp stably:
logits may be in the hundreds), the loss of a position with target class y is
  (1 - s) * weight[y] * (-lp[y]) + (s / C) * sum_c weight[c] * (-lp[c]),
where s = label_smoothing in [0, 1] (default 0.0) and `weight` is an optional float32 (C,) tensor
(None means all ones). `target` is int64 of shape (N,) or (N, d1, ..., dk) with values in [0, C) or
equal to `ignore_index` (default -100; it may also be a valid class, which is then ignored);
ignored positions contribute 0 to both terms. reduction='none' returns the per-position losses as a
float32 tensor of the target's shape; 'sum' returns their sum; 'mean' (default) returns the sum
divided by the sum of weight[target] over the non-ignored positions (their count without weight;
NaN when all are ignored); both as 0-dimensional float32 tensors. `target` and `weight` may be
non-contiguous too. The inputs must not be modified.
"""


def reference(input, target, dim=1, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    log_probs = F.log_softmax(input, dim=dim)
    return F.cross_entropy(log_probs, target, weight=weight, ignore_index=ignore_index, reduction=reduction,
                           label_smoothing=label_smoothing)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, t, w = args["input"], args["target"], args["weight"]
    weights = numel_bytes(w) if w is not None else 0
    # per logit: max, subtract, exp, add, and the smoothing term's multiply-add
    return Cost(flops=6.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(t) + numel_bytes(output) + weights))


# -- checking reduced (0-dim) results --------------------------------------------------------------
# 'none' outputs are compared with the defaults (1e-4 relative plus 1e-5 of the RMS). 'mean'/'sum'
# scalars add n per-position terms in an order that differs between PyTorch and any kernel, so they
# are compared with the loss evaluated in float64 (harness/checks.py: check_summed_scalar), allowing
# 1.1e-4 relative, plus eps32 * 16 * M for the rounding inside each term (M = the same reduction of
# weight-scaled |lse| + |x| magnitudes: a loss near 0 from logits in the hundreds still carries
# ~eps32 * 100 in any float32 evaluation, PyTorch's too), plus eps32 * 8 * sqrt(n) * A for the
# accumulation (A = the same reduction of |term|). That is ~1e-5 relative at n = 20000, far below a
# wrong smoothing split (s vs s / C), a mean over all positions instead of the weighted count, or an
# ignored target counted.


def _exact(args):
    x = args["input"].double()
    w = args["weight"]
    w = None if w is None else w.double()
    red, s, ii = args["reduction"], args["label_smoothing"], args["ignore_index"]
    exact = reference(x, args["target"], args["dim"], w, ii, red, s)
    per = reference(x, args["target"], args["dim"], w, ii, "none", s).abs()
    # per-position magnitude of the quantities a float32 kernel rounds
    mag = torch.logsumexp(x, dim=1, keepdim=True).abs() + x.abs()
    c = x.shape[1]
    wv = torch.ones(c, dtype=torch.float64, device=x.device) if w is None else w.abs()
    wview = wv.view([1, c] + [1] * (x.dim() - 2))
    tgt = args["target"]
    valid = tgt != ii
    tg = torch.where(valid, tgt, 0)
    m_y = mag.gather(1, tg.unsqueeze(1)).squeeze(1) * wv[tg]
    m_all = (mag * wview).sum(1)
    per_mag = torch.where(valid, m_y + s / c * m_all, 0.0)
    if red == "mean":
        denom = torch.where(valid, wv[tg], 0.0).sum()
        return exact.item(), (per.sum() / denom).item(), (per_mag.sum() / denom).item(), tgt.numel()
    return exact.item(), per.sum().item(), per_mag.sum().item(), tgt.numel()


CHECK_NOTE = ("'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an "
              "error bound growing with sqrt(n) times the summed magnitude of the terms.")


def check(case, output, expected):
    args = bind_arguments(reference, case)
    if args["reduction"] == "none":
        return compare_outputs(output, expected)
    exact, a, m, n = _exact(args)
    return check_summed_scalar(output, expected, exact, abs(a), n, per_term=abs(m), c=8.0, k=16.0, rtol=1.1e-4)


def _targets(g: Inputs, c: int, *shape: int, ignore: int | None = None, every: int = 4):
    t = g.randint(0, c, *shape)
    if ignore is not None:
        t.view(-1)[::every] = ignore
    return t


def cases(g: Inputs):
    # Upstream-like: (N, C) logits, every reduction, with class weights and label smoothing.
    for reduction in ("mean", "sum", "none"):
        yield Case("plain", g.randn(37, 11), _targets(g, 11, 37), reduction=reduction)
        yield Case("weight", g.randn(64, 20, std=2.0), _targets(g, 20, 64), weight=g.uniform(20, low=0.2, high=2.0),
                   reduction=reduction)
        yield Case("smoothing", g.randn(50, 13), _targets(g, 13, 50), reduction=reduction, label_smoothing=0.1)
        yield Case("weight-smoothing", g.randn(80, 33), _targets(g, 33, 80), weight=g.uniform(33, low=0.5, high=1.5),
                   reduction=reduction, label_smoothing=0.3)
    yield Case("default-args", g.randn(128, 128), _targets(g, 128, 128))
    yield Case("smoothing-1", g.randn(40, 9), _targets(g, 9, 40), label_smoothing=1.0)
    # Other keywords: ignore_index (default and a valid class), the class dim named -1, spatial targets.
    yield Case("ignore-default-weight-smooth", g.randn(100, 17), _targets(g, 17, 100, ignore=-100),
               weight=g.uniform(17, low=0.5, high=2.0), label_smoothing=0.2)
    yield Case("ignore-valid-class-none", g.randn(60, 7), _targets(g, 7, 60), ignore_index=3, reduction="none",
               label_smoothing=0.15)
    yield Case("ignore-valid-class-sum", g.randn(60, 7), _targets(g, 7, 60), ignore_index=2, reduction="sum",
               weight=g.uniform(7, low=0.5, high=2.0))
    yield Case("dim-neg1", g.randn(30, 12), _targets(g, 12, 30), dim=-1, label_smoothing=0.1)
    yield Case("spatial-3d", g.randn(4, 6, 9), _targets(g, 6, 4, 9, ignore=-100, every=5), label_smoothing=0.1,
               weight=g.uniform(6, low=0.5, high=1.5))
    yield Case("spatial-4d-none", g.randn(2, 5, 3, 7), _targets(g, 5, 2, 3, 7), reduction="none", label_smoothing=0.2)
    # Large logits (exp overflows unless shifted), wide class dimension (chunked log-sum-exp).
    yield Case("offset-logits", g.uniform(20, 300, low=150.0, high=250.0), _targets(g, 300, 20), reduction="sum",
               label_smoothing=0.1)
    yield Case("outliers-none", g.heavy_tailed(64, 100, scale=30.0), _targets(g, 100, 64), reduction="none",
               label_smoothing=0.05)
    yield Case("wide-2500", g.randn(8, 2500, std=3.0), _targets(g, 2500, 8), label_smoothing=0.1,
               weight=g.uniform(2500, low=0.5, high=1.5))
    # Layouts and all-ignored.
    yield Case("transposed", g.transposed(g.randn(48, 40)), _targets(g, 40, 48), label_smoothing=0.1)
    yield Case("strided-none", g.strided(g.randn(33, 65)), _targets(g, 65, 33), reduction="none")
    yield Case("all-ignored-mean", g.randn(6, 5), g.tensor([-100] * 6, dtype=torch.int64))
    # targets and class weights read as dense (stride 1): the gaps' zeros, other positions' targets
    # and NaN weights
    yield Case("strided-target-weight", g.randn(40, 12), g.strided(_targets(g, 12, 40)),
               weight=g.strided(g.uniform(12, low=0.5, high=2.0)), reduction="none", label_smoothing=0.1)


def perf_cases(g: Inputs):
    # Upstream's (N, 128) logits at the large end (537 MB, 1.07 GB), plus a 1000-class batch.
    yield Case("1048576x128-mean", g.randn(1 << 20, 128), _targets(g, 128, 1 << 20))
    yield Case("2097152x128-smooth-weight", g.randn(1 << 21, 128), _targets(g, 128, 1 << 21),
               weight=g.uniform(128, low=0.5, high=1.5), label_smoothing=0.1)
    yield Case("65536x1000-none-smooth", g.randn(65536, 1000), _targets(g, 1000, 65536), reduction="none",
               label_smoothing=0.1)
