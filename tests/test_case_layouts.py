"""Every tensor argument of every task is passed in a non-contiguous layout by at least one of its
correctness cases: a kernel that reads an argument as if it were dense must fail somewhere. Wrong
kernels that read a conv bias, a loss target or an ``out=`` buffer flat passed 24 tasks while only
the first argument was ever strided (a red-team survey, 2026-12-07)."""

from __future__ import annotations

import inspect

import torch

from harness.task import all_tasks
from harness.taskdef import Inputs

# Arguments no case passes strided yet: each needs a case (and its bundled solution checked), and
# this list only shrinks (empty now: every gap has its case). A new task may not add to it.
NOT_YET_STRIDED: frozenset[tuple[str, str]] = frozenset()


def _never_strided() -> set[tuple[str, str]]:
    """(task, argument) for every tensor argument of more than one element that some case passes
    and no case passes non-contiguous."""
    found = set()
    for task in all_tasks().values():
        signature = inspect.signature(task.reference)
        passed, strided = set(), set()
        for case in task.module.cases(Inputs(0)):
            bound = signature.bind(*case.args, **case.kwargs)
            for name, value in bound.arguments.items():
                if isinstance(value, torch.Tensor) and value.numel() > 1 and value.dim() >= 1:
                    passed.add(name)
                    if not value.is_contiguous():
                        strided.add(name)
        found |= {(task.id, name) for name in passed - strided}
    return found


def test_every_tensor_argument_is_strided_in_some_case():
    never = _never_strided()
    assert never <= NOT_YET_STRIDED, sorted(never - NOT_YET_STRIDED)  # a new gap: add a strided case
    assert NOT_YET_STRIDED <= never, sorted(NOT_YET_STRIDED - never)  # closed: take it off the list
