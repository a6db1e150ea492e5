"""The statistical judge of Random/rand.py: no false alarm on PyTorch's own generator, and no pass
for a deterministic sequence tuned to the simpler statistics."""

from __future__ import annotations

import math

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
