"""Batch normalization (inference or training, running statistics updated in place) then Hardsigmoid."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_hardsigmoid_batch_norm"
SIGNATURE = ("fused_hardsigmoid_batch_norm(x, running_mean, running_var, weight=None, bias=None, training=False, "
             "momentum=0.1, eps=1e-05, inplace=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["inplace", "training"]
DIFFICULTY = 2
DESCRIPTION = """
Batch-normalize `x` per channel and apply Hardsigmoid to the result, like
torch.nn.functional.hardsigmoid(torch.nn.functional.batch_norm(x, running_mean, running_var, weight,
bias, training, momentum, eps)). `x` is float32 of shape (N, C) or (N, C, d1, d2, ...), possibly
non-contiguous (e.g. channels-last); channel c is x[:, c, ...]. `weight` and `bias` are float32 (C,)
tensors or None (meaning 1 and 0); `running_mean` and `running_var` are float32 (C,) tensors, or
both None when training=True.
- training=False (default): y = (x - running_mean[c]) / sqrt(running_var[c] + eps) * weight[c] + bias[c].
- training=True: each channel's mean and biased variance over its n = N * d1 * d2 * ... values
  (sum of squared deviations / n) replace the running ones in that formula, and the running tensors
  (when given) are updated IN PLACE: running_mean = (1 - momentum) * running_mean + momentum * mean,
  running_var = (1 - momentum) * running_var + momentum * var * n / (n - 1) (the unbiased variance).
  Compute the statistics in float32 with a numerically stable method (two-pass or Welford/Chan).
Then out = hardsigmoid(y) = 0 for y <= -3, 1 for y >= 3, y / 6 + 1/2 in between.
`momentum` is a float in [0, 1] (default 0.1), `eps` a float > 0 (default 1e-5). `inplace`
(default False) only says the activation may overwrite the intermediate normalized tensor: it has
no visible effect, `x` is never modified and a new float32 tensor of x's shape is returned in both
cases. NaN in a channel propagates to that channel's outputs. N = 0 gives an empty output and
leaves the running tensors untouched.
"""


def reference(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05,
              inplace=False):
    y = F.batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps)
    return F.hardsigmoid(y, inplace=inplace)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS) for the output and the updated
# running statistics. Outputs lie in [0, 1] and the slope of hardsigmoid is 1/6, so the few-ulp
# error of a stable float32 mean/variance (channels here have means of the order of their spread)
# is far inside; a biased running variance is off by momentum / (n - 1) >= 2e-4 relative on the
# small-n cases, a wrong eps or a missing clamp by far more.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x = args["x"]
    params = sum(numel_bytes(t) for t in (args["running_mean"], args["running_var"], args["weight"], args["bias"])
                 if t is not None)
    # training: sum and squared deviations (3), normalize (2), activation (3); inference: 2 + 3
    flops = (8.0 if args["training"] else 5.0) * x.numel()
    return Cost(flops=flops, bytes=float(numel_bytes(x) + numel_bytes(output) + params))


def _stats(g: Inputs, c: int):
    """Running statistics as a model would hold them: means ~N(0, 1), variances in [0.5, 2]."""
    return g.randn(c), g.uniform(c, low=0.5, high=2.0)


def _affine(g: Inputs, c: int):
    # weights ~2 spread the normalized values past +-3, so both clamps of hardsigmoid are hit
    return g.randn(c, std=2.0), g.randn(c)


def cases(g: Inputs):
    # Upstream-like: 4-D inputs with running statistics and affine parameters, both modes, inplace.
    for training in (False, True):
        for inplace in (False, True):
            yield Case("4d", g.randn(4, 6, 9, 11, std=2.0), *_stats(g, 6), *_affine(g, 6), training=training,
                       inplace=inplace)
    yield Case("train-momentum-eps", g.uniform(4, 5, 8, 8, low=-2.0, high=3.0), *_stats(g, 5), *_affine(g, 5),
               training=True, momentum=0.3, eps=1e-3)
    yield Case("train-2d-small-n", g.randn(6, 24, std=3.0), *_stats(g, 24), *_affine(g, 24), training=True,
               momentum=0.5)
    yield Case("eval-2d", g.randn(50, 17, std=3.0), *_stats(g, 17), *_affine(g, 17))
    yield Case("train-3d", g.randn(16, 10, 50), *_stats(g, 10), *_affine(g, 10), training=True)
    yield Case("train-shifted", g.randn(8, 4, 20, 20, mean=3.0), *_stats(g, 4), *_affine(g, 4), training=True)
    yield Case("train-large-n", g.randn(2, 3, 100, 120), *_stats(g, 3), *_affine(g, 3), training=True)
    # a mean far above the spread: E[x^2] - E[x]^2 in float32 cancels (a stable variance is asked for)
    yield Case("train-mean-100", g.randn(8, 4, 50, mean=100.0), *_stats(g, 4), training=True)
    yield Case("train-5d", g.randn(2, 4, 5, 6, 7), *_stats(g, 4), *_affine(g, 4), training=True)
    # Edge: optional arguments absent, layouts, NaN, empty.
    yield Case("eval-no-affine", g.randn(4, 6, 25, std=4.0), *_stats(g, 6))
    yield Case("train-no-running-stats", g.randn(4, 6, 25), None, None, *_affine(g, 6), training=True)
    yield Case("train-weight-only", g.randn(4, 6, 25), *_stats(g, 6), g.randn(6, std=2.0), None, training=True)
    cl = g.randn(3, 8, 10, 9).to(memory_format=torch.channels_last)
    yield Case("train-channels-last", cl, *_stats(g, 8), *_affine(g, 8), training=True)
    yield Case("eval-strided", g.strided(g.randn(5, 7, 33)), *_stats(g, 7), *map(g.strided, _affine(g, 7)))
    rm, rv = _stats(g, 6)
    yield Case("train-strided-stats", g.randn(6, 6, 20), g.strided(rm), g.strided(rv), training=True, momentum=0.4)
    x = g.randn(4, 5, 6, 6)
    x[2, 1, 3, 4] = float("nan")
    yield Case("train-nan", x, *_stats(g, 5), training=True)
    yield Case("eval-empty", g.randn(0, 4, 5), *_stats(g, 4))
    yield Case("train-empty", g.randn(0, 4, 5), *_stats(g, 4), training=True)


def perf_cases(g: Inputs):
    # Upstream's (1, 64, H, W) maps grown to H200 size, plus a batched activation (205-537 MB).
    yield Case("eval-1x64x1024x2048", g.randn(1, 64, 1024, 2048), *_stats(g, 64), *_affine(g, 64))
    yield Case("train-1x64x1024x2048", g.randn(1, 64, 1024, 2048), *_stats(g, 64), *_affine(g, 64), training=True)
    yield Case("train-64x256x56x56", g.randn(64, 256, 56, 56), *_stats(g, 256), *_affine(g, 256), training=True)
