"""Cosine embedding loss of two float32 batches of vectors, each row L2-normalized first."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_cosine_embedding_loss_with_normalization"
SIGNATURE = "fused_cosine_embedding_loss_with_normalization(input1, input2, target, margin=0, reduction='mean')"
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = ["margin", "reduction"]
DIFFICULTY = 3
DESCRIPTION = """
`input1` and `input2` are float32 tensors of shape (N, D) and `target` an int64 (N,) tensor of
labels 1 or -1; any of them may be non-contiguous. L2-normalize every row of both inputs,
u = x / max(||x||_2, 1e-12) (as torch.nn.functional.normalize(x, p=2, dim=1) does; an all-zero row
stays zero), and let cos[i] = sum_k u1[i, k] * u2[i, k]. The per-row loss is 1 - cos[i] where
target[i] == 1 and max(0, cos[i] - margin) where target[i] == -1. `margin` is a float (default 0;
values in [-1, 1] make sense). reduction='none' returns the float32 (N,) losses; 'mean' (default)
their mean over the N rows and 'sum' their sum, as 0-dimensional float32 tensors. The inputs must
not be modified.
"""


def reference(input1, input2, target, margin=0, reduction="mean"):
    u1 = F.normalize(input1, p=2, dim=1)
    u2 = F.normalize(input2, p=2, dim=1)
    cos = torch.sum(u1 * u2, dim=1)
    loss = torch.where(target == 1, 1.0 - cos, torch.where(target == -1, torch.clamp(cos - margin, min=0.0),
                                                            torch.zeros_like(cos)))
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). cos carries a few ulp whatever the
# order of its three row sums (dot product and two squared norms, D <= a few hundred terms of one
# sign for the norms), so 1 - cos and cos - margin err by ~1e-7 absolute; the cases keep the losses
# O(0.1..1) (no pair of near-identical rows, whose 1 - cos would be all rounding), and a sum of N
# such terms errs by sqrt(N) eps32 relative at most. A missing normalization, margin on the wrong
# side, clamping the positive branch or a mean over the wrong count is off by far more.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b, t = args["input1"], args["input2"], args["target"]
    # per element: three multiply-adds (dot product and two squared norms)
    return Cost(flops=6.0 * a.numel(), bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(t)
                                                   + numel_bytes(output)))


def _labels(g: Inputs, n: int):
    return g.randint(0, 2, n) * 2 - 1


def cases(g: Inputs):
    # Upstream-like: (N, D) pairs with labels +-1, every reduction, several margins.
    for reduction in ("mean", "sum", "none"):
        yield Case("plain", g.randn(37, 20), g.randn(37, 20), _labels(g, 37), reduction=reduction)
        yield Case("margin", g.randn(64, 33), g.randn(64, 33), _labels(g, 64), margin=0.2, reduction=reduction)
    yield Case("neg-margin", g.randn(50, 16), g.randn(50, 16), _labels(g, 50), margin=-0.3)
    yield Case("margin-half-none", g.uniform(40, 70, low=-0.5, high=1.0), g.uniform(40, 70, low=-0.5, high=1.0),
               _labels(g, 40), margin=0.5, reduction="none")
    yield Case("all-positive", g.randn(30, 12), g.randn(30, 12), g.tensor([1] * 30, dtype=torch.int64))
    yield Case("all-negative-sum", g.randn(30, 12), g.randn(30, 12), g.tensor([-1] * 30, dtype=torch.int64),
               margin=0.1, reduction="sum")
    yield Case("scaled-rows", g.randn(48, 64) * g.uniform(48, 1, low=0.01, high=100.0), g.randn(48, 64),
               _labels(g, 48), reduction="none")
    yield Case("wide-d", g.randn(16, 3000), g.randn(16, 3000), _labels(g, 16), margin=0.1)
    yield Case("big-batch", g.randn(2000, 48), g.randn(2000, 48), _labels(g, 2000), margin=0.1)
    yield Case("outliers", g.heavy_tailed(64, 40, scale=3.0), g.heavy_tailed(64, 40), _labels(g, 64),
               reduction="sum")
    # Edge: layouts, an all-zero row (normalize leaves it zero), tiny and huge magnitudes.
    yield Case("transposed", g.transposed(g.randn(40, 24)), g.randn(40, 24), _labels(g, 40), reduction="none")
    yield Case("strided", g.randn(33, 17), g.strided(g.randn(33, 17)), _labels(g, 33), margin=0.25)
    z = g.randn(10, 8)
    z[3] = 0.0
    yield Case("zero-row-none", z, g.randn(10, 8), g.tensor([1, -1, 1, 1, -1, 1, -1, -1, 1, 1], dtype=torch.int64),
               margin=-0.2, reduction="none")
    yield Case("huge-values", g.randn(20, 30, std=1e15), g.randn(20, 30, std=1e15), _labels(g, 20), reduction="none")
    yield Case("tiny-values", g.randn(20, 30, std=1e-18), g.randn(20, 30), _labels(g, 20), reduction="none")
    # targets read as dense (stride 1) take the gaps' zeros and other rows' labels
    yield Case("strided-target", g.randn(41, 19), g.randn(41, 19), g.strided(_labels(g, 41)), margin=0.1,
               reduction="none")


def perf_cases(g: Inputs):
    # Upstream's (N, 256) embeddings at the large end: 268 MB and 1.07 GB per input.
    yield Case("262144x256-mean", g.randn(262144, 256), g.randn(262144, 256), _labels(g, 262144), margin=0.1)
    yield Case("1048576x256-none", g.randn(1 << 20, 256), g.randn(1 << 20, 256), _labels(g, 1 << 20),
               margin=0.1, reduction="none")
