"""Binomial samples with total_count trials and probs or sigmoid(logits) (input & other is unused)."""

import math

import torch

from harness.checks import statistics_device
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "bitwise_and_binomial"
SIGNATURE = "bitwise_and_binomial(input, other, total_count, probs=None, logits=None)"
DTYPES = ["float32", "int32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int32"]
CORE_KWARGS = ["logits", "probs"]
DIFFICULTY = 2
DESCRIPTION = """
Draw one Binomial sample per element, as the upstream reference does:
torch.distributions.Binomial(total_count=total_count, probs=p).sample(), with p = `probs` if it is
given, else p = torch.sigmoid(`logits`) (exactly one of the two is given). `total_count` is a
float32 tensor of non-negative integer values (possibly 0-dimensional) and `probs` (float32, values
in [0, 1]) or `logits` (float32, any value including ±inf) is broadcast against it; the result is a
new float32 tensor of the broadcast shape whose elements are independent samples: each is a whole
number k in [0, total_count] with probability C(n, k) p^k (1 - p)^(n - k). So n = 0 or p = 0 gives
exactly 0 and p = 1 gives exactly n. `input` and `other` are int32 tensors: the upstream function
computes input & other first but, as in the upstream reference, that value does not enter the
result (it need not be computed). Samples must be drawn inside the kernel (e.g. from tl.rand or
tl.philox, with any seed); they are checked statistically, not against PyTorch's random stream.
total_count values up to several thousand are tested (an O(total_count)-steps-per-element sampler
is very slow there). Any tensor argument may be non-contiguous. No input is modified.
"""

CHECK_NOTE = ("property check instead of matching PyTorch's random stream: shape, dtype, whole "
              "numbers in [0, total_count], exact results where p or n make the sample certain, and "
              "z-tests of the mean and variance, a chi-square goodness-of-fit test and lagged-pair "
              "independence tests, at a false-alarm rate below 1e-6 per case")

# Philox draws, a short search or one rejection step of a transformed-rejection sampler.
FLOPS_PER_ELEMENT = 60

_Z_MAX = 5.5  # two-sided normal tail 3.8e-8 per test
_CHI2_P_MIN = 1e-8  # per chi-square test
JUDGE_COPIES = 10  # float64 copies of the output the tests hold at once (samples, parameters, masked copies, temporaries)
# Up to ~17 tests per case (mean, variance, chi-square, 14 lags): < 1e-6 false alarms per case.


def cost(case: Case, output) -> Cost:
    # Only total_count, probs/logits and the result need to move (the AND is not used).
    tensors = list(case.args[2:]) + [v for v in case.kwargs.values() if isinstance(v, torch.Tensor)]
    moved = sum(numel_bytes(t) for t in tensors if isinstance(t, torch.Tensor)) + numel_bytes(output)
    return Cost(flops=FLOPS_PER_ELEMENT * output.numel(), bytes=float(moved))


def reference(input, other, total_count, probs=None, logits=None):
    input & other  # computed upstream, unused there too
    if probs is not None:
        return torch.distributions.Binomial(total_count=total_count, probs=probs).sample()
    if logits is not None:
        return torch.distributions.Binomial(total_count=total_count, probs=torch.sigmoid(logits)).sample()
    raise ValueError("Either `probs` or `logits` must be provided for Binomial distribution.")


def _params(case: Case):
    args = list(case.args)
    names = ["input", "other", "total_count", "probs", "logits"]
    kw = dict(zip(names, args))
    kw.update(case.kwargs)
    n = kw["total_count"]
    if kw.get("probs") is not None:
        p = kw["probs"]
    else:
        p = torch.sigmoid(kw["logits"])  # float32, as the reference computes it
    n, p = torch.broadcast_tensors(n.double(), p.double())
    return n, p


def _log_pmf(k, n, p):
    return (torch.lgamma(n + 1) - torch.lgamma(k + 1) - torch.lgamma(n - k + 1)
            + k * torch.log(p) + (n - k) * torch.log1p(-p))


def _chi_square(x, n, p):
    """p-value of a chi-square goodness-of-fit test of samples x against Binomial(n, p)."""
    ks = torch.arange(0, int(n) + 1, dtype=torch.float64, device=x.device)
    expected = x.numel() * torch.exp(_log_pmf(ks, torch.tensor(float(n), dtype=torch.float64, device=x.device),
                                               torch.tensor(p, dtype=torch.float64, device=x.device)))
    observed = torch.bincount(x.long(), minlength=int(n) + 1).double()
    # Merge bins from both ends inward until each holds an expected count of at least 5.
    bins_e, bins_o, acc_e, acc_o = [], [], 0.0, 0.0
    for e, o in zip(expected.tolist(), observed.tolist()):
        acc_e += e
        acc_o += o
        if acc_e >= 5.0:
            bins_e.append(acc_e)
            bins_o.append(acc_o)
            acc_e, acc_o = 0.0, 0.0
    if bins_e:
        bins_e[-1] += acc_e
        bins_o[-1] += acc_o
    if len(bins_e) < 2:
        return 1.0
    e = torch.tensor(bins_e, dtype=torch.float64)
    o = torch.tensor(bins_o, dtype=torch.float64)
    stat = ((o - e) ** 2 / e).sum()
    df = len(bins_e) - 1
    return torch.special.gammaincc(torch.tensor(df / 2.0, dtype=torch.float64), stat / 2).item()


def check(case: Case, output, expected):
    if not isinstance(output, torch.Tensor):
        return f"output: expected a tensor, got {type(output).__name__}"
    if output.shape != expected.shape:
        return f"output: shape {list(output.shape)} != expected {list(expected.shape)}"
    if output.dtype != expected.dtype:
        return f"output: dtype {output.dtype} != expected {expected.dtype}"
    if output.numel() == 0:
        return None
    where = statistics_device(output, JUDGE_COPIES)
    n, p = _params(case)
    n, p = n.to(where), p.to(where)
    x = output.detach().to(where, torch.float64)
    if not torch.isfinite(x).all():
        return "output: non-finite samples"
    if (x != x.round()).any():
        i = int(torch.nonzero((x != x.round()).flatten())[0])
        return f"output: samples must be whole numbers, got {x.flatten()[i].item()!r}"
    if ((x < 0) | (x > n)).any():
        i = int(torch.nonzero(((x < 0) | (x > n)).flatten())[0])
        return (f"output: sample {x.flatten()[i].item()!r} outside [0, total_count = "
                f"{n.flatten()[i].item():g}] at flat index {i}")
    certain = (p == 0) | (p == 1) | (n == 0)
    if (certain & (x != n * p)).any():
        i = int(torch.nonzero((certain & (x != n * p)).flatten())[0])
        return (f"output: sample must be exactly {(n * p).flatten()[i].item():g} where p = "
                f"{p.flatten()[i].item():g} and total_count = {n.flatten()[i].item():g}, got "
                f"{x.flatten()[i].item()!r}")
    rnd = ~certain
    if not rnd.any():
        return None
    xs, ns, ps = x[rnd], n[rnd], p[rnd]
    mu = ns * ps
    var = ns * ps * (1 - ps)
    if xs.numel() >= 100:
        z_mean = (xs - mu).sum() / var.sum().sqrt()
        if z_mean.abs() > _Z_MAX:
            return (f"output: sample mean off by {z_mean.item():.1f} standard errors "
                    f"(mean {xs.mean().item():.4g}, expected {mu.mean().item():.4g})")
        # Var[(X - np)^2] = npq (1 - 6pq) + 2 (npq)^2 for a Binomial(n, p).
        var_sq = var * (1 - 6 * ps * (1 - ps)) + 2 * var * var
        z_var = ((xs - mu) ** 2 - var).sum() / var_sq.sum().sqrt()
        if z_var.abs() > _Z_MAX:
            return (f"output: sample variance off by {z_var.item():.1f} standard errors "
                    f"(mean squared deviation {((xs - mu) ** 2).mean().item():.4g}, expected "
                    f"{var.mean().item():.4g})")
    # One parameter pair for the whole case: test the distribution's shape and independence.
    if rnd.all() and (n == n.flatten()[0]).all() and (p == p.flatten()[0]).all() and x.numel() >= 2000:
        n0, p0 = float(n.flatten()[0]), float(p.flatten()[0])
        flat = x.flatten()
        pval = _chi_square(flat, n0, p0)
        if pval < _CHI2_P_MIN:
            return f"output: samples do not follow Binomial({n0:g}, {p0:g}) (chi-square p-value {pval:.2g})"
        ks = torch.arange(0, int(n0) + 1, dtype=torch.float64)
        pmf = torch.exp(_log_pmf(ks, torch.tensor(n0, dtype=torch.float64), torch.tensor(p0, dtype=torch.float64)))
        collide = float((pmf * pmf).sum())  # P(two independent samples are equal)
        lag = 1
        while 2 * lag <= flat.numel():
            idx = torch.arange(flat.numel() - lag, device=flat.device)
            idx = idx[(idx // lag) % 2 == 0]  # disjoint pairs (i, i + lag)
            if idx.numel() >= 500:
                same = (flat[idx] == flat[idx + lag]).double().sum()
                z = (same - idx.numel() * collide) / math.sqrt(idx.numel() * collide * (1 - collide))
                if abs(z) > _Z_MAX:
                    return (f"output: samples {lag} apart are equal {int(same)} times in "
                            f"{idx.numel()} pairs, expected {idx.numel() * collide:.0f} for "
                            f"independent samples")
            lag *= 2
    return None


def cases(g: Inputs):
    i32 = torch.int32
    inf = float("inf")

    def ints(*shape):
        return g.randint(0, 16, *shape, dtype=i32)

    def full(value, *shape):
        return g.tensor(value).expand(*shape).contiguous() if shape else g.tensor(value)

    # The upstream test's shapes: four elements, n = 5 or 10, p = 1/2.
    a = g.tensor([1, 0, 1, 0], dtype=i32)
    b = g.tensor([1, 1, 0, 0], dtype=i32)
    yield Case("upstream-probs", a, b, g.tensor([5.0, 5.0, 5.0, 5.0]), probs=g.tensor([0.5] * 4))
    yield Case("upstream-logits", a, b, g.tensor([10.0] * 4), logits=g.tensor([0.0] * 4))
    # Certain outcomes: n = 0, p = 0, p = 1, saturated logits.
    yield Case("certain-probs", ints(6), ints(6), g.tensor([0.0, 5.0, 7.0, 3.0, 100.0, 0.0]),
               probs=g.tensor([0.5, 0.0, 1.0, 1.0, 0.0, 0.7]))
    yield Case("certain-logits", ints(4), ints(4), g.tensor([4.0, 4.0, 9.0, 9.0]),
               logits=g.tensor([inf, -inf, 40.0, -200.0]))
    # One (n, p) for many samples: distribution shape and independence are tested too.
    yield Case("n10-p0.3-scalar-count", ints(8192), ints(8192), full(10.0), probs=full(0.3, 8192))
    yield Case("bernoulli-logits", ints(8192), ints(8192), full(1.0, 8192), logits=full(0.4, 8192))
    yield Case("n200-p0.65", ints(4096), ints(4096), full(200.0), probs=full(0.65, 4096))
    yield Case("n40-p0.02", ints(8192), ints(8192), full(40.0, 8192), probs=full(0.02, 8192))
    # Per-element parameters.
    yield Case("mixed-counts-probs", ints(4099), ints(4099), g.randint(0, 31, 4099).to(torch.float32),
               probs=g.uniform(4099))
    yield Case("large-count", ints(4000), ints(4000), full(5000.0), probs=g.uniform(4000, low=0.05, high=0.95))
    yield Case("logits-per-element", ints(64, 64), ints(64, 64), full(20.0, 64, 64), logits=g.randn(64, 64, std=3.0))
    yield Case("broadcast", ints(8, 512), ints(8, 512), g.randint(0, 50, 8, 1).to(torch.float32),
               probs=g.uniform(1, 512))
    yield Case("strided-transposed", ints(40, 50), ints(40, 50),
               g.transposed(g.randint(5, 60, 40, 50).to(torch.float32)),
               probs=g.strided(g.uniform(40, 50)))
    yield Case("empty", ints(0), ints(0), g.randn(0).abs().round(), probs=g.uniform(0))
    # logits read as dense (stride 1) take the gaps' +inf (p = 1; a NaN there, as g.strided leaves,
    # would stall a rejection sampler instead of failing) and misplace the certain (+-inf) entries
    u = g.uniform(48, 64)
    logits = torch.full((48, 128), inf, device=g.device)[:, ::2]
    logits.copy_(torch.where(u < 0.15, inf, torch.where(u > 0.85, -inf, g.randn(48, 64, std=3.0))))
    yield Case("strided-logits", g.strided(ints(48, 64)), g.strided(ints(48, 64)), full(20.0, 48, 64),
               logits=logits)


def perf_cases(g: Inputs):
    for n in (1 << 22, 1 << 24, 1 << 26):
        yield Case(f"{n >> 20}M-n10", g.randint(0, 16, n, dtype=torch.int32),
                   g.randint(0, 16, n, dtype=torch.int32), g.tensor(10.0), probs=g.uniform(n))
    yield Case("16M-n1000-logits", g.randint(0, 16, 1 << 24, dtype=torch.int32),
               g.randint(0, 16, 1 << 24, dtype=torch.int32), g.tensor(1000.0), logits=g.randn(1 << 24))
