"""The statistical judge of Random/rand.py: no false alarm on PyTorch's own generator, and no pass
for a deterministic sequence tuned to the simpler statistics."""

from __future__ import annotations

import math

import pytest
import torch

from harness.task import get_task

RAND = get_task("Random/rand.py")
# frac(c + i*a) with a(1 - a)/2 = 1/12: neighbours are uncorrelated, values uniform, moments right.
TUNED_STEP = (1 - math.sqrt(1 / 3)) / 2


def _weyl(n: int, offset: float) -> torch.Tensor:
    return torch.remainder(offset + torch.arange(n, dtype=torch.float64) * TUNED_STEP, 1.0)


def test_torch_rand_passes_every_case_for_many_seeds():
    module = RAND.module
    for seed in range(40):
        torch.manual_seed(seed)
        for case in RAND.correctness_cases(seed):
            case.history = None  # calls of different seeds are not one run
            kwargs = {k: v for k, v in case.kwargs.items() if k != "generator"}
            output = torch.rand(*case.args, **kwargs)
            expected = module.reference(*case.args, **case.kwargs)
            assert module.check(case, output, expected) is None, (seed, case.label)


def test_torch_rand_passes_the_tests_across_calls_for_many_runs():
    """Each run's cases share their history: every call is compared with the calls before it, at
    positions the judge draws (no false alarm on PyTorch's generator, any dtype)."""
    module = RAND.module
    for seed in range(25):
        torch.manual_seed(1000 + seed)
        for case in RAND.correctness_cases(seed):
            kwargs = {k: v for k, v in case.kwargs.items() if k != "generator"}
            output = torch.rand(*case.args, **kwargs)
            assert module.check(case, output, output) is None, (seed, case.label)


def _two_calls(first: torch.Tensor, second: torch.Tensor) -> str | None:
    """The judge's verdict on ``second`` after ``first`` (two float64 calls of 64 x 64, as the
    task's repeat cases)."""
    module = RAND.module
    cases = {c.label: c for c in RAND.correctness_cases(0)}
    history: list = []
    for case in (cases["repeat-a"], cases["repeat-b"]):
        case.history = history
    assert module.check(cases["repeat-a"], first, first) is None
    return module.check(cases["repeat-b"], second, second)


def test_calls_that_repeat_past_a_prefix_or_follow_from_each_other_fail():
    """A stream fresh only in its first values, one stream shifted per call (a rotation mod 1), or
    a call that is a function of the last (1 - x, frac(2x)) is not independent across calls;
    a fresh call is."""
    g = torch.Generator().manual_seed(3)
    first = torch.rand(64, 64, dtype=torch.float64, generator=g)
    fresh = torch.rand(64, 64, dtype=torch.float64, generator=g)
    assert _two_calls(first, fresh) is None
    past_prefix = torch.cat([fresh.reshape(-1)[:64], first.reshape(-1)[64:]]).view(64, 64)
    assert "the seed is not fresh per call" in _two_calls(first, past_prefix)
    rotated = torch.remainder(first + 0.3719, 1.0)
    assert "differences x_new - x_old" in _two_calls(first, rotated)
    assert "not independent" in _two_calls(first, 1.0 - first - 2 ** -53)
    assert "not independent" in _two_calls(first, torch.remainder(2 * first, 1.0))


def test_a_call_repeating_one_several_calls_back_fails():
    """Repeats are looked for in every earlier call, not only the last few (a cycle of five seeds
    repeats the call five back)."""
    module = RAND.module
    cases = [c for c in RAND.correctness_cases(0) if c.kwargs.get("dtype") == torch.float64][:6]
    history: list = []
    g = torch.Generator().manual_seed(6)
    first = None
    for i, case in enumerate(cases):
        case.history = history
        shape = case.args[0] if isinstance(case.args[0], (tuple, list)) else case.args
        out = torch.rand(*shape, dtype=torch.float64, generator=g)
        if i == 0:
            first = out.reshape(-1)
        verdict = module.check(case, out if i < 5 else torch.cat([first, out.reshape(-1)])[:out.numel()].view(out.shape),
                               out)
        assert (verdict is None) == (i < 5), (i, verdict)
    assert "the seed is not fresh per call" in verdict


def test_a_coarse_grid_shifted_off_zero_still_fails_the_resolution_test():
    """Float64 values of 24 random bits plus a constant lie on a shifted grid: their differences
    are on the 2**-24 grid, which 32 random bits make unlikely."""
    g = torch.Generator().manual_seed(4)
    coarse = torch.randint(0, 1 << 24, (32768,), generator=g, dtype=torch.float64) * 2.0 ** -24 + 2.0 ** -30
    assert "too few random bits" in RAND.module._distribution(coarse, [32768], torch.float64)
    assert RAND.module._distribution(torch.rand(32768, dtype=torch.float64, generator=g), [32768], torch.float64) is None


def test_the_tuned_sequence_has_the_moments_and_no_lag_one_correlation():
    x = _weyl(32768, 0.123)
    centred = x - 0.5
    assert abs(x.mean().item() - 0.5) < 1e-3 and abs(centred.square().mean().item() - 1 / 12) < 1e-3
    assert abs((centred[:-1] * centred[1:]).mean().item()) < 1e-3


def test_a_tuned_deterministic_sequence_fails_the_judge():
    module = RAND.module
    [case] = [c for c in RAND.correctness_cases(0) if c.label == "f64-1d"]
    case.history = None
    expected = module.reference(*case.args, **case.kwargs)
    assert module.check(case, _weyl(32768, 0.123), expected)
    # Each of the added statistics catches it on its own.
    assert "runs above/below" in module._runs(_weyl(32768, 0.5))
    assert "serial chi-square" in module._serial(_weyl(32768, 0.5))
    assert "2 apart are correlated" in module._distribution(_weyl(32768, 0.5), [32768], torch.float64)


def test_statistics_of_a_cpu_tensor_stay_on_the_cpu():
    from harness.checks import statistics_device
    assert statistics_device(torch.zeros(4), 8) == torch.device("cpu")


@pytest.mark.gpu
def test_statistical_judges_on_the_gpu_give_the_cpu_verdicts_at_perf_size():
    """rand and bitwise_and_binomial judge a CUDA output on the GPU (seconds instead of minutes at
    perf size): the same verdicts as on the CPU, for a right output and for wrong ones."""
    module = RAND.module
    n = 1 << 24
    [case] = [c for c in RAND.correctness_cases(0) if c.label == "f64-1d"]
    case.history = None
    right = torch.rand(n, dtype=torch.float64, device="cuda")
    wrong = {"tuned": _weyl(n, 0.123).cuda(), "float32 bits": right.float().double(),
             "repeating": right[: n // 2].repeat(2)}
    for label, output in {"right": right, **wrong}.items():
        on_gpu = module.check(case, output, output)
        assert on_gpu == module.check(case, output.cpu(), output.cpu()), label
        assert (on_gpu is None) == (label == "right"), (label, on_gpu)

    binomial = get_task("Math/bitwise_and_binomial.py")
    big = [c for c in binomial.perf_cases(0, "cuda") if c.label == "16M-n10"][0]
    good = binomial.module.reference(*big.args, **big.kwargs)
    for label, output in {"right": good, "shifted": (good + 1).clamp(max=10), "rounded mean": torch.full_like(good, 5.0)}.items():
        on_gpu = binomial.module.check(big, output, good)
        cpu_case = type(big)(big.label, *[a.cpu() if isinstance(a, torch.Tensor) else a for a in big.args],
                             **{k: v.cpu() if isinstance(v, torch.Tensor) else v for k, v in big.kwargs.items()})
        assert on_gpu == binomial.module.check(cpu_case, output.cpu(), good.cpu()), label
        assert (on_gpu is None) == (label == "right"), (label, on_gpu)


def test_dropout_masks_are_compared_across_calls_over_the_whole_mask():
    """The across-calls test of check_dropout reads mask bits at positions the judge draws over the
    whole output: a mask fresh in its first 4,096 elements and fixed after fails, a fresh one passes."""
    from harness.dropout_checks import check_dropout
    g = torch.Generator().manual_seed(5)
    n, p = 1 << 16, 0.5
    kept = torch.rand(n, dtype=torch.float64, generator=g) + 1.0  # told apart from 0 everywhere

    def judge(masks: list[torch.Tensor]) -> str | None:
        history: list = []
        verdicts = [check_dropout(torch.where(m, kept, 0.0).float(), kept, 0.0, p, kept_bound=1e-6,
                                  dtype=torch.float32, history=history, label=f"call{i}")
                    for i, m in enumerate(masks)]
        return next((v for v in verdicts if v), None)

    draw = lambda: torch.rand(n, generator=g) >= p  # noqa: E731
    first = draw()
    assert judge([first, draw(), draw()]) is None
    past_prefix = torch.cat([draw()[:4096], first[4096:]])
    assert "the seed is not fresh per call" in judge([first, past_prefix])
