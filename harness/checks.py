"""Building blocks for tasks' custom checkers (the ``check`` a task file may define)."""

from __future__ import annotations

import inspect
import math
from typing import Any, Callable

import torch

from harness.taskdef import Case

EPS32 = torch.finfo(torch.float32).eps


def bind_arguments(fn: Callable[..., Any], case: Case) -> dict[str, Any]:
    """The case's arguments by parameter name of ``fn``, defaults filled in."""
    bound = inspect.signature(fn).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def check_summed_scalar(output: Any, expected: torch.Tensor, exact: float, magnitude: float, n: int, *,
                        per_term: float = 0.0, c: float = 8.0, k: float = 16.0, rtol: float = 1.1e-4) -> str | None:
    """Judge a float32 scalar that sums ``n`` terms against its float64 value ``exact``.

    Allowed error: ``rtol*|exact| + eps32*(k*per_term + c*sqrt(n)*magnitude)``, where ``magnitude``
    is the same reduction over |term| and ``per_term`` bounds the rounding inside the terms. Rounding
    errors of a sum in any reasonable order grow like sqrt(n)*eps*magnitude (a plain sequential sum
    stays near 0.3 of that), so ``c = 8`` passes every correct order while a missing or doubled term
    fails. NaN must match NaN.
    """
    if not isinstance(output, torch.Tensor):
        return f"output: expected a tensor, got {type(output).__name__}"
    if output.shape != expected.shape or output.dtype != expected.dtype:
        return f"output: {output.dtype}{list(output.shape)} != expected {expected.dtype}{list(expected.shape)}"
    got = output.double().item()
    if math.isnan(exact) or math.isnan(got):
        return None if math.isnan(exact) and math.isnan(got) else f"output: got {got!r}, expected {exact!r}"
    allowed = rtol * abs(exact) + EPS32 * (k * per_term + c * math.sqrt(max(n, 1)) * magnitude)
    if not abs(got - exact) <= allowed:
        return (f"output: got {got!r}, expected {exact!r} (float64 evaluation; PyTorch float32 gives "
                f"{expected.item()!r}): |err| {abs(got - exact):.3g} > allowed {allowed:.3g}")
    return None
