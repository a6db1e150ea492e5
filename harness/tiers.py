"""Correctness tiers of a task's cases: ``core`` and ``edge``.

``core`` is what the published benchmark's own tests exercise: contiguous, non-empty tensors of the
task's core dtypes, finite values in ordinary ranges, the core keyword arguments. ``edge`` is
everything else the harness checks: strided and broadcast views, empty and 0-d tensors, NaN and
infinities, magnitudes beyond 1e6, many values below 1e-6, ``out=`` and in-place forms, negative
dims, other dtypes. A case's tier is read from its inputs, so a new case
needs no bookkeeping; a task file may declare, as data:

- ``CORE_DTYPES``: dtype names its core cases use (default: all its dtypes); tensors of the kinds
  (floating, integer) it names are checked against it;
- ``CORE_KWARGS``: keyword arguments its core cases may pass (default: any; passing a reference
  default explicitly is core too);
- ``TIERS``: ``{case label: "core" | "edge"}`` for a case the rule gets wrong (a value range the
  rule cannot see, say).

The traits that make a case ``edge`` also name the failure causes of the taxonomy (see
report/summary.py).
"""

from __future__ import annotations

import inspect
from typing import Any

import torch

from harness.taskdef import Case, tensor_leaves
from harness.verdicts import CORE_TIER as CORE
from harness.verdicts import EDGE_TIER as EDGE

TIERS = (CORE, EDGE)

# Traits of a case's inputs, each a reason for the edge tier and a failure cause.
NON_CONTIGUOUS = "non_contiguous"
EMPTY_OR_0D = "empty_or_0d"
NAN_INF = "nan_inf"
EXTREME_MAGNITUDE = "extreme_magnitude"
TINY_VALUES = "tiny_values"
INPLACE_OUT = "inplace_out"
NEGATIVE_DIM = "negative_dim"
OTHER_DTYPE = "other_dtype"
OTHER_KWARGS = "other_kwargs"
DECLARED_EDGE = "declared_edge"
TRAITS = (NON_CONTIGUOUS, EMPTY_OR_0D, NAN_INF, EXTREME_MAGNITUDE, TINY_VALUES, INPLACE_OUT, NEGATIVE_DIM,
          OTHER_DTYPE, OTHER_KWARGS, DECLARED_EDGE)
HUGE = 1e6          # a finite value beyond this is an extreme magnitude
TINY = 1e-6         # nonzero values below this, when they are a good share of a tensor, test tiny-value precision
TINY_SHARE = 0.1    # (random data has about 1e-6 of its values there; an edge case puts many there on purpose)
_DIM_KWARGS = ("dim", "dims", "axis", "start_dim", "end_dim", "dim0", "dim1", "dim_norm")


def case_traits(case: Case, module: Any = None) -> list[str]:
    """The edge traits of ``case`` (empty for a core case) under ``module``'s declarations."""
    tensors = tensor_leaves([list(case.args), [v for k, v in case.kwargs.items()]])
    read = tensor_leaves([list(case.args), [v for k, v in case.kwargs.items() if not k.startswith("out")]])
    traits = []
    if any(not t.is_contiguous() for t in tensors):  # strided, transposed and broadcast views
        traits.append(NON_CONTIGUOUS)
    if any(t.numel() == 0 or t.dim() == 0 for t in tensors):
        traits.append(EMPTY_OR_0D)
    if any(t.is_floating_point() and t.numel() and not bool(torch.isfinite(t).all()) for t in read):  # out= is written, not read
        traits.append(NAN_INF)
    floats = [t for t in read if t.is_floating_point() and t.numel()]
    if any(bool((t[torch.isfinite(t)].abs() > HUGE).any()) for t in floats):
        traits.append(EXTREME_MAGNITUDE)
    if any(_tiny_share(t) >= TINY_SHARE for t in floats):
        traits.append(TINY_VALUES)
    if case.kwargs.get("out") is not None or case.kwargs.get("inplace") is True:
        traits.append(INPLACE_OUT)
    if any(_negative(case.kwargs.get(name)) for name in _DIM_KWARGS):
        traits.append(NEGATIVE_DIM)
    core_dtypes = getattr(module, "CORE_DTYPES", None)
    # the dtypes a case asks for count as its tensors' do (rand(..., dtype=torch.float16) is a
    # float16 case, as is mean(x, dtype=torch.float64) a float64 one)
    asked = [v for v in list(case.args) + list(case.kwargs.values()) if isinstance(v, torch.dtype)]
    if core_dtypes is not None and any(_dtype_name(d) not in core_dtypes for d in [t.dtype for t in tensors] + asked
                                       if _kind(d) in {_kind(getattr(torch, name)) for name in core_dtypes}):
        traits.append(OTHER_DTYPE)
    core_kwargs = getattr(module, "CORE_KWARGS", None)
    if core_kwargs is not None and any(k not in core_kwargs and not _is_default(module, k, v)
                                       for k, v in case.kwargs.items()):
        traits.append(OTHER_KWARGS)
    declared = getattr(module, "TIERS", {}).get(case.label)
    if declared == CORE:
        return []
    if declared == EDGE and not traits:
        traits.append(DECLARED_EDGE)
    return traits


def tier_of(case: Case, module: Any = None) -> str:
    return EDGE if case_traits(case, module) else CORE


def _tiny_share(t: torch.Tensor) -> float:
    nonzero = t[(t != 0) & torch.isfinite(t)].abs()
    return (nonzero < TINY).double().mean().item() if nonzero.numel() else 0.0


def _kind(dtype: torch.dtype) -> str:
    """Floating-point, integer or bool: ``CORE_DTYPES`` constrains the tensors of the kinds it names
    (a float task's int64 index tensors are not "other dtypes")."""
    if dtype == torch.bool:
        return "bool"
    return "float" if dtype.is_floating_point or dtype.is_complex else "int"


def _is_default(module: Any, name: str, value: Any) -> bool:
    """Whether the reference's signature gives ``name`` the default ``value`` (passing it explicitly
    exercises nothing new)."""
    reference = getattr(module, "reference", None)
    if reference is None or isinstance(value, torch.Tensor):
        return False
    try:
        parameter = inspect.signature(reference).parameters.get(name)
    except (TypeError, ValueError):
        return False
    if parameter is None or parameter.default is inspect.Parameter.empty:
        return False
    try:
        return bool(parameter.default == value)
    except Exception:  # noqa: BLE001 - an exotic default that does not compare
        return False


def _negative(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value < 0
    if isinstance(value, (tuple, list)):
        return any(_negative(v) for v in value)
    return False


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")
