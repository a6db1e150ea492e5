"""Fill a new tensor with uniform random numbers in [0, 1) (torch.rand), judged by distribution tests."""

import math

import torch

from harness.checks import judge_positions, statistics_device
from harness.taskdef import Case, Inputs

ENTRY = "rand"
SIGNATURE = ("rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None, "
             "requires_grad=False, pin_memory=False)")
DTYPES = ["float64", "float32", "float16", "bfloat16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["device", "dtype", "generator", "requires_grad"]
DIFFICULTY = 2
# Outputs that depend on no input tensor: copies alone could make them from values prepared in
# advance, so the wrapper may copy only arguments as given, and join nothing (sandbox/integrity.py).
DATA_MOVEMENT = True
DESCRIPTION = """
Return a new tensor of shape `size` filled with independent random numbers uniformly distributed on
[0, 1), like torch.rand(*size, generator=generator, out=out, dtype=dtype, device=device,
requires_grad=requires_grad). `size` is given either as separate ints (rand(4, 5)) or as one
tuple/list (rand((4, 5))); an empty tuple gives a 0-d tensor. `dtype` is torch.float64, float32,
float16 or bfloat16; None means the default dtype, float32. Every value must lie in [0, 1): 1.0 is
never allowed, even after rounding to float16/bfloat16. Values must use the resolution of the dtype:
float64 values need at least 32 random bits each (53 is ideal), float32 values 24 (the float32
significand). `device` is the device of the result (the tests always pass it). With
requires_grad=True the result is returned with requires_grad set. `generator` is an optional
torch.Generator; reproducing PyTorch's own random stream is NOT required (a kernel may derive its
seed from the generator or ignore it), but results must differ from call to call; draw seeds in
Python (e.g. os.urandom, the random module, generator.initial_seed()), since PyTorch's random
functions count as PyTorch compute in the wrapper. If `out` is given, the numbers are written into
it and it is returned. `layout` is always torch.strided and `pin_memory` False. The result is judged
statistically, not against PyTorch's numbers: shape, dtype, range, and tests of uniformity, of
independence between positions and between calls.
"""

CHECK_NOTE = ("random output: shape, dtype, range [0,1), float resolution, and distribution tests "
              "(Kolmogorov-Smirnov, mean, variance, correlation at several lags, runs above/below 1/2, "
              "uniformity of successive pairs, periodicity, repeats of and dependence on earlier calls, "
              "anywhere in the output) with a false-alarm "
              "rate below 1e-6 per case, since the bits cannot match PyTorch's")

# One store per element plus a few integer ops to turn random bits into a float.
FLOPS_PER_ELEMENT = 4

# -- the statistical checker ------------------------------------------------------------------
# Each two-sided test below fails a correct generator with probability at most ALPHA (bounds that
# hold for every n: Dvoretzky-Kiefer-Wolfowitz-Massart for KS, Bernstein's inequality for means of
# bounded variables, Hoeffding's for the runs count; the serial test's threshold lies far beyond the
# chi-square tail bound of Laurent and Massart at ALPHA). A case runs at most 16 such tests, so its
# false-alarm rate is below 1e-6. Several lags, the runs and the serial test are there for
# deterministic sequences tuned to look random to a few statistics (a Weyl sequence frac(c + i*a)
# with a chosen so that neighbours are uncorrelated is uniform, has the right moments and no
# lag-1 correlation, but its pairs lie on a few lines and its lag-2 correlation is large).
# Counting tests (periodicity, resolution, repeats across calls) fail only when more than a quarter
# of m >= 64 independent comparisons hit an event of probability <= 2**-7 under a correct generator
# (two values being equal, a value lying on a coarse grid): by the Chernoff bound that happens with
# probability < exp(-64 * 0.65) < 1e-18.
ALPHA = 5e-8
_L = math.log(2.0 / ALPHA)
CORRELATION_LAGS = (1, 2, 3, 4, 5, 6, 7, 8, 16, 64)  # plus the row length (vertical neighbours)
SERIAL_BINS = 16          # successive pairs binned on a 16 x 16 grid
SERIAL_MIN_PER_BIN = 20   # the serial test runs when each bin expects at least this many pairs
MIN_STAT_N = 1000  # distribution tests need enough values to have power
MIN_COUNT = 64  # comparisons a counting test needs
SHARE = 0.25  # share of hits that fails a counting test
# Across calls: each call's values at ACROSS_SAMPLE positions the judge draws (harness/checks.py
# judge_positions) are remembered, and a later call is compared with every earlier one at the same
# positions for how many values are equal (at most EQUAL_CHANCE per position for independent draws
# of the dtype's resolution; at REPEAT_ALPHA each, so the 16 earlier calls a case can have cost
# ALPHA/4 in all), and with the last ACROSS_CALLS for dependence, at ACROSS_ALPHA per test: the
# differences frac(x_new - x_old), uniform for independent calls (a fixed stream shifted per call
# gives one value), and the pairs (x_old, x_new) filling the unit square (any function of the
# earlier call lies on curves). With the 16 tests above a case's false-alarm rate stays below 1e-6.
ACROSS_SAMPLE = 4096
ACROSS_CALLS = 4
ACROSS_ALPHA = ALPHA / 4
REPEAT_ALPHA = ALPHA / 64
ACROSS_MIN = 256  # positions two calls share for the tests of differences and pairs to run
PAIR_BINS = 8  # the pairs' grid: 64 cells, each expecting at least SERIAL_MIN_PER_BIN pairs
EQUAL_CHANCE = {torch.float64: 2.0 ** -32, torch.float32: 2.0 ** -24, torch.float16: 2.0 ** -7,
                torch.bfloat16: 2.0 ** -7}
JUDGE_COPIES = 8  # float64 copies of the output the tests hold at once (the sort's values and indices, temporaries)


def _bernstein(n: int, var: float, bound: float) -> float:
    """t such that P(|mean of n iid values - mu| >= t) <= ALPHA, for values with variance <= var
    and |value - mu| <= bound (Bernstein)."""
    a = 2.0 * _L * bound / 3.0
    return (a + math.sqrt(a * a + 8.0 * n * _L * var)) / (2.0 * n)


def _disjoint_pairs(x: torch.Tensor, lag: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Pairs (x_i, x_{i+lag}) that share no element: i in the even blocks of `lag` positions."""
    blocks = x[: x.numel() // (2 * lag) * (2 * lag)].view(-1, 2, lag)
    return blocks[:, 0].reshape(-1), blocks[:, 1].reshape(-1)


def _lags(n: int, shape) -> list[int]:
    lags = set()
    lag = 1
    while lag <= n // 2:
        lags.add(lag)
        lag *= 2
    stride = 1
    for s in reversed(list(shape)[1:]):  # row-to-row, plane-to-plane, ... distances
        stride *= int(s)
        lags.add(stride)
    lags.add(n // 2)
    return sorted(l for l in lags if 1 <= l <= n // 2)


def _distribution(x: torch.Tensor, shape, dtype: torch.dtype) -> str | None:
    n = x.numel()
    # Output grids (float16/bfloat16 especially) shift the CDF and moments by at most one unit in
    # the last place near 1; allow that much on top of each statistical threshold.
    grid = torch.finfo(dtype).eps
    # Uniformity: Kolmogorov-Smirnov distance to U(0, 1).
    s = torch.sort(x).values
    k = torch.arange(1, n + 1, dtype=torch.float64, device=x.device)
    d = max((k / n - s).max().item(), (s - (k - 1) / n).max().item())
    d_max = math.sqrt(_L / (2.0 * n)) + grid
    if d > d_max:
        return f"not uniform on [0,1): Kolmogorov-Smirnov distance {d:.4g} > {d_max:.4g} (n={n})"
    # Mean 1/2 and variance 1/12.
    m = x.mean().item()
    t = _bernstein(n, 1.0 / 12.0, 0.5) + grid
    if abs(m - 0.5) > t:
        return f"mean {m:.6g} differs from 1/2 by more than {t:.3g} (n={n})"
    v = (x - 0.5).square().mean().item()
    t = _bernstein(n, 1.0 / 180.0, 1.0 / 6.0) + grid
    if abs(v - 1.0 / 12.0) > t:
        return f"variance {v:.6g} differs from 1/12 by more than {t:.3g} (n={n})"
    # Independence at several lags and of vertically adjacent values: E[(x_i - 1/2)(x_j - 1/2)] = 0.
    for lag in sorted(set(CORRELATION_LAGS) | ({int(shape[-1])} if len(shape) >= 2 else set())):
        a, b = _disjoint_pairs(x, lag)
        if a.numel() < MIN_STAT_N // 4:
            continue
        z = ((a - 0.5) * (b - 0.5)).mean().item()
        t = _bernstein(a.numel(), 1.0 / 144.0, 0.25) + grid
        if abs(z) > t:
            return f"values {lag} apart are correlated: mean product {z:.4g}, bound {t:.3g}"
    msg = _runs(x) or _serial(x)
    if msg:
        return msg
    # Periodicity: a stream that repeats (same seed/offset reused per block or per row) makes
    # x_i == x_{i+lag} for most i; a correct one almost never.
    for lag in _lags(n, shape):
        a, b = _disjoint_pairs(x, lag)
        if a.numel() >= MIN_COUNT:
            same = (a == b).double().mean().item()
            if same > SHARE:
                return f"the sequence repeats: {same:.0%} of values equal the value {lag} positions later"
    # Resolution: a float64 built from one float32 (24 bits) lies on the 2**-24 grid, a float32
    # built from 16 bits on the 2**-16 grid, and so does the difference of two such values
    # whatever constant they are shifted by (a grid moved off 0: rand_low_resolution_offset.py).
    # With the bits the description asks for (32 per float64, 24 per float32) a difference of two
    # independent values lands on that grid with probability <= 2**-8. (Differences of values in
    # [0, 1) on a grid no finer than 2**-53 are exact in float64.)
    coarse = {torch.float64: 2.0 ** 24, torch.float32: 2.0 ** 16}.get(dtype)
    if coarse is not None:
        a, b = _disjoint_pairs(x, 1)
        d = (a - b) * coarse
        on_grid = (d == d.floor()).double().mean().item()
        if a.numel() >= MIN_COUNT and on_grid > SHARE:
            return (f"{dtype} values carry too few random bits: {on_grid:.0%} of the differences of "
                    f"neighbours are multiples of 2**-{int(math.log2(coarse))}")
    return None


def _across(x: torch.Tensor, dtype: torch.dtype, label: str, positions: torch.Tensor,
            old: torch.Tensor, dependence: bool) -> str | None:
    """The tests of one call's values ``x`` against an earlier call's (case ``label``), whose values
    at ``positions`` are ``old`` (see ACROSS_SAMPLE): repeats, and with ``dependence`` the rest."""
    shared = positions < x.numel()
    new, old = x[positions[shared].to(x.device)].cpu(), old[shared]
    m = new.numel()
    if m < MIN_COUNT:
        return None
    log_term = math.log(2.0 / REPEAT_ALPHA)
    q = EQUAL_CHANCE[dtype]
    equal = int((new == old).sum())
    a = 2.0 * log_term / 3.0
    limit = m * q + (a + math.sqrt(a * a + 8.0 * log_term * m * q * (1.0 - q))) / 2.0  # Bernstein
    if equal > limit:
        return (f"{equal} of {m} values at positions drawn by the judge equal those of an earlier call (case "
                f"{label!r}; independent draws: at most {limit:.1f}): the seed is not fresh per call")
    if not dependence or m < ACROSS_MIN:
        return None
    log_term = math.log(2.0 / ACROSS_ALPHA)
    grid = torch.finfo(dtype).eps  # the dtype's grid moves the differences' CDF by about one step
    s = torch.sort(torch.frac(new - old + 1.0)).values  # in [0, 1]: x_new - x_old mod 1
    k = torch.arange(1, m + 1, dtype=torch.float64)
    d = max((k / m - s).max().item(), (s - (k - 1) / m).max().item())
    d_max = math.sqrt(log_term / (2.0 * m)) + grid
    if d > d_max:
        return (f"the values are not independent of an earlier call's (case {label!r}): the differences "
                f"x_new - x_old (mod 1) at positions drawn by the judge are not uniform (Kolmogorov-Smirnov "
                f"distance {d:.4g} > {d_max:.4g}, n={m}): one stream reused, shifted per call?")
    bins = PAIR_BINS
    if m >= SERIAL_MIN_PER_BIN * bins * bins:
        cells = ((old * bins).floor().clamp(0, bins - 1) * bins + (new * bins).floor().clamp(0, bins - 1)).long()
        counts = torch.bincount(cells, minlength=bins * bins).double()
        expected = m / (bins * bins)
        stat = ((counts - expected).square() / expected).sum().item()
        dof, t = bins * bins - 1, 2.0 * log_term
        limit = dof + 2.0 * math.sqrt(dof * t) + 2.0 * t
        if stat > limit:
            return (f"the values are not independent of an earlier call's (case {label!r}): pairs (x_old, x_new) "
                    f"at positions drawn by the judge, chi-square {stat:.0f} over {dof} degrees of freedom > {limit:.0f}")
    return None


def _runs(x: torch.Tensor) -> str | None:
    """Runs above/below 1/2: for independent values each neighbour pair changes side with
    probability 1/2, independently, so the number of changes is Binomial(n - 1, 1/2)."""
    above = x >= 0.5
    changes = (above[1:] != above[:-1]).sum().item()
    m = x.numel() - 1
    t = math.sqrt(m * _L / 2.0)  # Hoeffding
    if abs(changes - m / 2.0) > t:
        return f"runs above/below 1/2: {changes} side changes in {m} steps, expected {m / 2:.0f} +- {t:.0f}"
    return None


def _serial(x: torch.Tensor) -> str | None:
    """Successive disjoint pairs (x_2i, x_2i+1) must fill the unit square evenly: Pearson's
    statistic over a 16 x 16 grid, with 255 degrees of freedom."""
    k = SERIAL_BINS
    pairs = x[: x.numel() // 2 * 2].view(-1, 2)
    n = pairs.shape[0]
    if n < SERIAL_MIN_PER_BIN * k * k:
        return None
    cells = (pairs * k).floor().clamp_(0, k - 1).long()
    counts = torch.bincount(cells[:, 0] * k + cells[:, 1], minlength=k * k).double()
    expected = n / (k * k)
    stat = ((counts - expected).square() / expected).sum().item()
    dof = k * k - 1
    t = 2.0 * _L  # twice the exponent of the Laurent-Massart bound: room for the multinomial's tail
    limit = dof + 2.0 * math.sqrt(dof * t) + 2.0 * t
    if stat > limit:
        return f"successive values are not independent: serial chi-square {stat:.0f} over {dof} degrees of freedom > {limit:.0f}"
    return None


def check(case: Case, output, expected) -> str | None:
    if not isinstance(output, torch.Tensor):
        return f"expected a tensor, got {type(output).__name__}"
    if output.shape != expected.shape:
        return f"shape {list(output.shape)} != expected {list(expected.shape)}"
    if output.dtype != expected.dtype:
        return f"dtype {output.dtype} != expected {expected.dtype}"
    x = output.detach().to(statistics_device(output, JUDGE_COPIES), torch.float64).reshape(-1)
    n = x.numel()
    if n == 0:
        return None
    bad = ~torch.isfinite(x) | (x < 0) | (x >= 1)
    if bad.any():
        i = int(torch.nonzero(bad)[0])
        return f"{int(bad.sum())} of {n} values outside [0, 1), first at flat index {i}: {x[i].item()!r}"
    if n >= MIN_STAT_N:
        msg = _distribution(x, list(output.shape), output.dtype)
        if msg:
            return msg
    # Across calls: a generator reseeded identically on every call (a constant seed), everywhere or
    # past some position, repeats its numbers; one stream shifted per call does not repeat them but
    # makes each call a function of the last (see ACROSS_SAMPLE). Compared with the earlier calls
    # of other cases of the same run (for dependence, the last few), shared through `case.history`.
    history = getattr(case, "history", None)
    if history is not None:
        # (the same call judged again, a re-judge, is the same case object; another config's call of
        # the case has an object of its own: run/reference.py PassInputs)
        earlier = [entry for entry in history if entry[1] is not case]
        for i, (label, _, positions, old) in enumerate(earlier):
            msg = _across(x, output.dtype, label, positions, old, dependence=i >= len(earlier) - ACROSS_CALLS)
            if msg:
                return msg
        positions = judge_positions(n, ACROSS_SAMPLE)
        history[:] = earlier + [(case.label, case, positions, x[positions.to(x.device)].cpu())]
    return None


# -- cases ------------------------------------------------------------------------------------
class _SeededGenerator(torch.Generator):
    """A torch.Generator that shows (and compares equal to) a fixed label: the harness compares
    non-tensor arguments after the call by value, and across processes by their repr."""

    def __repr__(self) -> str:
        return self._label

    def __eq__(self, other) -> bool:
        return other is self or other == self._label

    __hash__ = torch.Generator.__hash__


def _generator(g: Inputs) -> torch.Generator:
    seed = int(g.randint(0, 1 << 62, 1).item())
    gen = _SeededGenerator(device=g.device)
    gen.manual_seed(seed)
    gen._label = f"Generator(seed={seed})"
    return gen


def reference(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
              requires_grad=False, pin_memory=False):
    return torch.rand(*size, generator=generator, out=out, dtype=dtype, layout=layout, device=device,
                      requires_grad=requires_grad, pin_memory=pin_memory)


def cases(g: Inputs):
    # `out=` and `layout=` are not exercised: the harness compares every argument's state after
    # the call with the reference's, which random contents of `out` cannot match, and a
    # torch.layout argument does not survive that comparison.
    f64, f32, dev = torch.float64, torch.float32, g.device
    history: list = []  # this run's outputs, for the across-calls test (see check)

    def case(label, *size, **kw):
        c = Case(label, *size, device=dev, **kw)
        c.history = history
        return c

    yield case("f64-1d", 32768, dtype=f64)
    yield case("f64-2d", 129, 257, dtype=f64)
    yield case("f64-tuple-size", (33, 65), dtype=f64)
    yield case("f64-list-size", [4, 37, 129], dtype=f64)
    yield case("f64-odd", 1003, dtype=f64)
    # Two calls of the same shape: a generator reseeded identically per call repeats itself.
    yield case("repeat-a", 64, 64, dtype=f64)
    yield case("repeat-b", 64, 64, dtype=f64)
    yield case("default-dtype", 20000)
    yield case("f32", 32768, dtype=f32)
    yield case("f32-3d", 7, 9, 311, dtype=f32)
    # Narrow dtypes: a float32 uniform rounded to the nearest bfloat16/float16 hits 1.0 with
    # probability 2**-9 / 2**-12 per value: almost surely (1 - e**-39) in the bfloat16 case.
    yield case("f16", 32768, dtype=torch.float16)
    yield case("bf16", 20000, dtype=torch.bfloat16)
    yield case("generator-f64", 50, 200, dtype=f64, generator=_generator(g))
    yield case("generator-f32", 200, 50, generator=_generator(g))
    yield case("requires-grad", 100, 100, dtype=f64, requires_grad=True)
    yield case("single", 1, dtype=f64)
    yield case("scalar", (), dtype=f64)


def perf_cases(g: Inputs):
    dev = g.device
    yield Case("16M-f64", 1 << 24, dtype=torch.float64, device=dev)
    yield Case("64M-f64", 1 << 26, dtype=torch.float64, device=dev)
    yield Case("128M-f32", 1 << 27, dtype=torch.float32, device=dev)
