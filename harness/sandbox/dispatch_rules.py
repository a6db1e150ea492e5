"""Sealing torch's per-operator dispatch rules against the harness's own modes.

torch keeps an open table of rules, one per (operator, dispatch-mode class)
(``torch._library.simple_registry``, ``torch.library.register_torch_dispatch``): when an operator
is dispatched to a mode whose class has a rule for it, torch calls the rule *instead of* the
mode's ``__torch_dispatch__``, with the mode handed to it. A rule for the harness's op monitor let
``torch.relu`` run unseen (``dispatch_rule_for_monitor.py``), or handed the monitor itself to the
submission (``dispatch_rule_hands_monitor.py``). The table is plain data (no audit event guards
it), so the lookup is sealed instead: torch's C++ asks ``find_torch_dispatch_rule`` through the
first function it finds there and keeps it, so the harness installs its own lookup, which finds
no rule for the harness's modes, and makes that first lookup itself.
"""

from __future__ import annotations

from typing import Any, Callable

import torch
from torch.utils._python_dispatch import TorchDispatchMode


class _SealProbe(TorchDispatchMode):
    """A mode of no use but to show which lookup torch's C++ keeps."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


# (as for the op monitor: torch's dynamo-disabling wrapper would import dynamo at the first call)
_SealProbe.__torch_dispatch__ = getattr(_SealProbe.__dict__["__torch_dispatch__"], "__wrapped__",
                                        _SealProbe.__dict__["__torch_dispatch__"])


def seal_dispatch_rules(harness_modes: tuple[type, ...]) -> bool:
    """Make rules for ``harness_modes`` unfindable by torch; True when torch's C++ is shown to use
    the sealed lookup (a probe's rule is not called), False where it cannot be (another torch, or
    a lookup torch kept before this process called this)."""
    try:
        from torch._library import simple_registry
        original: Callable[..., Any] = simple_registry.find_torch_dispatch_rule
        entry = simple_registry.singleton.find("aten::neg").torch_dispatch_rules
    except (ImportError, AttributeError):
        return False
    sealed = frozenset(harness_modes) | {_SealProbe}

    def find_torch_dispatch_rule(op: Any, torch_dispatch_class: type) -> Callable[..., Any] | None:
        if torch_dispatch_class in sealed:
            return None
        return original(op, torch_dispatch_class)

    simple_registry.find_torch_dispatch_rule = find_torch_dispatch_rule
    ran: list[bool] = []

    def probe_rule(mode, func, types, args=(), kwargs=None):
        ran.append(True)
        return func(*args, **(kwargs or {}))

    handle = entry.register(_SealProbe, probe_rule)
    try:
        with _SealProbe():
            torch.neg(torch.ones(1))
    finally:
        handle.destroy()
    return not ran
