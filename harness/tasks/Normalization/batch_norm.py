"""Batch normalization of a float32 (N, C, ...) tensor, with in-place running-statistics updates."""

import math

import torch
import torch.nn.functional as F

from harness.checks import EPS32, bind_arguments, check_bounded
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "batch_norm"
SIGNATURE = ("batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, "
             "momentum=0.1, eps=1e-05)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "momentum", "training"]
# Beyond the upstream test (which passes running statistics and both or neither of weight and bias,
# on data of ordinary spread): absent running statistics, weight or bias alone, means ~1000x the spread.
TIERS = {"train-no-running-stats": "edge", "train-bias-only": "edge", "eval-weight-only": "edge",
         "train-large-mean": "edge", "train-large-mean-4d": "edge", "eval-large-mean": "edge"}
DIFFICULTY = 4
DESCRIPTION = """
Batch normalization like torch.nn.functional.batch_norm(input, running_mean, running_var, weight,
bias, training, momentum, eps). `input` is float32 of shape (N, C) or (N, C, d1, d2, ...) with any
number of trailing dimensions, possibly non-contiguous (e.g. channels-last); channel c is
input[:, c, ...]. `weight` and `bias` are float32 (C,) tensors or None (meaning 1 and 0).
`running_mean` and `running_var` are float32 (C,) tensors (possibly non-contiguous), or both None
when training=True.
- training=False (default): out = (x - running_mean[c]) / sqrt(running_var[c] + eps) * weight[c] + bias[c];
  nothing is modified.
- training=True: for each channel, over its n = N * d1 * d2 * ... values, mean = sum / n and the
  biased variance var = sum((x - mean)^2) / n normalize the input:
  out = (x - mean) / sqrt(var + eps) * weight[c] + bias[c]. If the running tensors are given they
  are updated IN PLACE: running_mean = (1 - momentum) * running_mean + momentum * mean and
  running_var = (1 - momentum) * running_var + momentum * var * n / (n - 1) (the UNBIASED variance
  for the running estimate, the biased one for normalizing). n >= 2 whenever N > 0; N = 0 gives an
  empty output and leaves the running tensors untouched.
`momentum` is a float in [0, 1] (default 0.1; None is not accepted); `eps` a float > 0 (default 1e-5).
Channels may have a mean far larger than their spread (e.g. 3000 +- 1): compute mean and variance
in float32 with a numerically stable method (two-pass, or Welford/Chan merging of partial
statistics), never as E[x^2] - E[x]^2. A NaN in a channel makes that channel's outputs (and, in
training, its running statistics) NaN. Return a new float32 tensor of the input's shape; inputs other
than the running tensors must not be modified.
"""


def reference(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x = args["input"]
    params = sum(numel_bytes(t) for t in (args["running_mean"], args["running_var"], args["weight"], args["bias"])
                 if t is not None)
    # The fewest operations per element any method needs -- training: an add for the sum, a
    # multiply-add for the second moment, a multiply-add to normalize; inference: one multiply-add
    # (scale and shift folded per channel).
    flops = (5.0 if args["training"] else 2.0) * x.numel()
    return Cost(flops=flops, bytes=float(numel_bytes(x) + numel_bytes(output) + params))


# -- checking the output -----------------------------------------------------------------------------
# The output is compared with batch_norm evaluated in float64 on the same inputs, elementwise within
# the default bound (1e-5 of the RMS + 1e-4 relative) plus what any stable float32 computation may
# err by, with s = |weight[c]| / sqrt(var[c] + eps) the output's sensitivity to the mean:
#   _C * sqrt(n) * eps32 * mean|x|_c * s     the channel mean sums n values in some order (the
#                                            random-walk bound used throughout, _C = 8);
#   _C * sqrt(n) * eps32 * |exact - bias|    the variance sums n nonnegative terms likewise;
#   _K * eps32 * (|x| + |mean|) * s          the elementwise formula, e.g. x * scale + shift with
#                                            shift = bias - mean * scale (a few roundings).
# (n = 1 in inference: the statistics are given.) These terms matter only for channels whose mean is
# far from 0 relative to their spread: at mean 3000 +- 1 (n = 128) they allow ~0.03 absolute, while
# E[x^2] - E[x]^2 in float32 loses the whole variance there (ulp(9e6) = 1 = var) and misses by O(1) or
# gives NaN. Running statistics are compared by the harness with the default tolerance (they are
# O(1) or O(mean) with errors of a few ulp for a stable method); a running variance updated with the
# biased variance is off by momentum / (n - 1) relative, >= 7e-4 on the small-n cases here.
_C = 8.0
_K = 4.0


def _exact(args):
    x = args["input"].double()
    w = args["weight"].double() if args["weight"] is not None else None
    b = args["bias"].double() if args["bias"] is not None else None
    c = x.shape[1]
    red = [0] + list(range(2, x.dim()))
    view = [1, c] + [1] * (x.dim() - 2)
    if args["training"]:
        exact = F.batch_norm(x, None, None, w, b, True, 0.0, args["eps"])
        mean = x.mean(red)
        var = x.var(red, unbiased=False)
        n = x.numel() // max(c, 1)
        mean_abs = x.abs().mean(red)
    else:
        mean, var = args["running_mean"].double(), args["running_var"].double()
        exact = F.batch_norm(x, mean, var, w, b, False, 0.0, args["eps"])
        n, mean_abs = 1, torch.zeros_like(mean)
    wabs = w.abs() if w is not None else torch.ones(c, dtype=torch.float64, device=x.device)
    sens = (wabs / (var + args["eps"]).sqrt()).view(view)
    shift = b.view(view) if b is not None else 0.0
    root_n = math.sqrt(max(n, 1))
    allowance = (_C * root_n * EPS32 * mean_abs.view(view) * sens
                 + _C * root_n * EPS32 * (exact - shift).abs()
                 + _K * EPS32 * (x.abs() + mean.view(view).abs()) * sens)
    return exact, allowance


CHECK_NOTE = (
    "output compared with float64 batch_norm, allowing besides the default tolerance the rounding of "
    "a stable float32 mean/variance over n values (grows with sqrt(n) and with |mean| / std, so "
    "E[x^2] - E[x]^2 still fails on channels with mean >> std); running statistics compared as usual."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    if args["input"].numel() == 0:
        return check_bounded(output, args["input"].double(), args["input"].double(), dtype=torch.float32)
    exact, allowance = _exact(args)
    finite = exact[torch.isfinite(exact)]
    rms = finite.square().mean().sqrt().item() if finite.numel() else 0.0
    bound = 1e-5 * (rms or 1.0) + 1e-4 * exact.abs() + allowance
    return check_bounded(output, exact, bound.nan_to_num(nan=0.0, posinf=0.0), dtype=torch.float32)


# -- cases -------------------------------------------------------------------------------------------
def _stats(g: Inputs, c: int):
    """Running statistics as a model would hold them: means ~N(0, 1), variances in [0.5, 2]."""
    return g.randn(c), g.uniform(c, low=0.5, high=2.0)


def _channels(g: Inputs, shape, means, stds):
    """Input whose channel c is means[c] + stds[c] * N(0, 1)."""
    c = shape[1]
    view = [1, c] + [1] * (len(shape) - 2)
    return g.randn(*shape) * g.tensor(stds).view(view) + g.tensor(means).view(view)


def cases(g: Inputs):
    # Inference (the default) and training, on 4-D inputs like the upstream test's.
    yield Case("eval-4d", g.randn(4, 6, 9, 11), *_stats(g, 6))
    yield Case("train-4d", g.randn(4, 6, 9, 11), *_stats(g, 6), training=True)
    yield Case("eval-affine", g.randn(3, 5, 7, 13), *_stats(g, 5), g.randn(5), g.randn(5))
    yield Case("train-affine-momentum-eps", g.uniform(4, 5, 8, 8, low=-2.0, high=3.0), *_stats(g, 5),
               g.randn(5), g.randn(5), training=True, momentum=0.2, eps=1e-3)
    # 2-D (N, C) and 3-D (N, C, L); small n makes the unbiased running variance visibly different.
    yield Case("train-2d", g.randn(64, 24), *_stats(g, 24), training=True, momentum=0.5)
    yield Case("eval-2d", g.randn(50, 17), *_stats(g, 17), g.randn(17), g.randn(17))
    yield Case("train-3d", g.randn(16, 10, 50), *_stats(g, 10), g.randn(10), g.randn(10), training=True)
    yield Case("train-3d-n2", g.randn(2, 7, 1), *_stats(g, 7), training=True, momentum=0.3)
    yield Case("train-5d", g.randn(2, 4, 5, 6, 7), *_stats(g, 4), g.randn(4), g.randn(4), training=True)
    # Channels with their own offsets and spreads, and means far beyond the spread (3000 +- 1):
    # E[x^2] - E[x]^2 in float32 cancels catastrophically there.
    yield Case("train-channel-shifts", _channels(g, (8, 4, 20, 20), [5.0, -3.0, 0.5, 40.0], [2.0, 0.1, 1.0, 10.0]),
               *_stats(g, 4), g.randn(4), g.randn(4), training=True, momentum=0.25)
    yield Case("train-large-mean", _channels(g, (8, 3, 16), [3000.0, -2000.0, 4096.0], [1.0, 0.5, 2.0]),
               g.tensor([2900.0, -1900.0, 4000.0]), g.uniform(3, low=0.5, high=2.0), training=True)
    yield Case("train-large-mean-4d", _channels(g, (4, 2, 12, 12), [1500.0, -800.0], [0.5, 0.2]),
               *_stats(g, 2), g.randn(2), g.randn(2), training=True, momentum=0.3)
    yield Case("eval-large-mean", _channels(g, (4, 3, 30), [1000.0, -500.0, 250.0], [0.1, 1.0, 0.5]),
               g.tensor([1000.0, -500.0, 250.0]), g.tensor([0.01, 1.0, 0.25]), g.randn(3), g.randn(3))
    # Many values per channel: kernels split the reduction and merge partial statistics.
    yield Case("train-large-n", g.randn(2, 3, 150, 160, mean=0.5), *_stats(g, 3), g.randn(3), g.randn(3),
               training=True)
    yield Case("train-outliers", g.heavy_tailed(6, 8, 12, 12, scale=2.0), *_stats(g, 8), training=True)
    yield Case("train-momentum-1", g.randn(5, 6, 30), *_stats(g, 6), training=True, momentum=1.0)
    yield Case("train-momentum-0", g.randn(5, 6, 30), *_stats(g, 6), training=True, momentum=0.0, eps=0.1)
    yield Case("eval-n1", g.randn(1, 9), *_stats(g, 9), g.randn(9), g.randn(9))
    # Optional arguments: no running statistics; weight or bias alone.
    yield Case("train-no-running-stats", g.randn(4, 6, 25), None, None, g.randn(6), g.randn(6), training=True)
    yield Case("train-bias-only", g.randn(4, 6, 25), *_stats(g, 6), None, g.randn(6), training=True)
    yield Case("eval-weight-only", g.randn(4, 6, 25), *_stats(g, 6), g.randn(6), None)
    # Layouts: channels-last and strided inputs, strided running statistics (updated in place).
    cl = g.randn(3, 8, 10, 9).to(memory_format=torch.channels_last)
    yield Case("train-channels-last", cl, *_stats(g, 8), g.randn(8), g.randn(8), training=True)
    yield Case("eval-strided", g.strided(g.randn(5, 7, 33)), *_stats(g, 7), g.strided(g.randn(7)), g.strided(g.randn(7)))
    rm, rv = _stats(g, 6)
    yield Case("train-strided-stats", g.randn(6, 6, 20), g.strided(rm), g.strided(rv), training=True, momentum=0.4)
    # NaN poisons its channel (outputs and running statistics).
    x = g.randn(4, 5, 6, 6)
    x[2, 1, 3, 4] = float("nan")
    yield Case("train-nan", x, *_stats(g, 5), training=True)
    x = g.randn(4, 5, 12)
    x[0, 3, 7] = float("nan")
    yield Case("eval-nan", x, *_stats(g, 5))
    # Magnitudes.
    yield Case("train-large-magnitude", g.randn(4, 3, 40, std=3e7), *_stats(g, 3), training=True)
    yield Case("train-tiny-values", g.randn(4, 3, 40, std=1e-7), *_stats(g, 3), training=True, eps=1e-12)
    # Empty batches: an empty output, running statistics untouched.
    yield Case("eval-empty", g.randn(0, 4, 5), *_stats(g, 4))
    yield Case("train-empty", g.randn(0, 4, 5), *_stats(g, 4), training=True)


def perf_cases(g: Inputs):
    # Upstream's (32, 32, L, 128) shapes: 336 MB and 805 MB inputs.
    def big(l):
        return g.randn(32, 32, l, 128)
    yield Case("train-32x32x640x128", big(640), *_stats(g, 32), g.randn(32), g.randn(32), training=True)
    yield Case("train-32x32x1536x128", big(1536), *_stats(g, 32), g.randn(32), g.randn(32), training=True)
    yield Case("eval-32x32x1024x128", big(1024), *_stats(g, 32), g.randn(32), g.randn(32))
    # A ResNet-style activation: many channels, 56x56 maps (205 MB).
    yield Case("train-64x256x56x56", g.randn(64, 256, 56, 56), *_stats(g, 256), g.randn(256), g.randn(256),
               training=True)
