"""Calling an entry function on a case and capturing everything the checker needs.

Used identically for the reference (in the trusted parent) and for a submission (in a worker), so
both sides are observed the same way: the returned value, the state of every tensor argument after
the call (in-place and ``out=`` semantics), and which argument each returned tensor aliases.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import torch

from harness.shadowing import shadowed, shadowing_message
from harness.taskdef import Case, map_tensors, tensor_leaves


@dataclass
class CallRecord:
    """What one call produced."""

    output: Any
    args_after: list[Any]
    kwargs_after: dict[str, Any]
    aliases: list[str | None]  # per output tensor leaf: the argument it shares storage with

    def to_payload(self) -> dict:
        """The record rebuilt from exact built-in types (see :func:`_plain`), at most
        ``MAX_VALUES`` values in all."""
        budget = [MAX_VALUES]
        return {"output": _plain(self.output, budget), "args_after": [_plain(a, budget) for a in self.args_after],
                "kwargs_after": {k: _plain(v, budget) for k, v in self.kwargs_after.items()},
                "aliases": list(self.aliases)}

    @classmethod
    def from_payload(cls, payload: dict) -> "CallRecord":
        return cls(payload["output"], payload["args_after"], payload["kwargs_after"], payload["aliases"])


def payload_bytes(record: CallRecord) -> int:
    """Bytes of the storages a record's tensors hold (what saving its payload writes, about)."""
    leaves = tensor_leaves([record.output, record.args_after, list(record.kwargs_after.values())])
    return sum(t.untyped_storage().nbytes() for t in leaves)


def saved_payload_limit(references: list[CallRecord], copies: int = 1) -> int:
    """The most bytes a worker may write for ``copies`` saved calls of each of ``references``: what
    the reference records carry, with room for outputs that are views of larger buffers (8x), and
    a fixed allowance for small cases."""
    return (64 << 20) + 8 * copies * sum(payload_bytes(rec) for rec in references)


def saved_tensor_limit(reference: CallRecord) -> int:
    """The most tensors a worker's saved call may hold: twice the reference record's, plus a few
    (a wrong structure is judged wrong, but reading it must stay cheap)."""
    return 2 * len(tensor_leaves([reference.output, reference.args_after, list(reference.kwargs_after.values())])) + 16


def move_like_reference(payload: dict, reference: CallRecord) -> CallRecord:
    """A candidate's saved call payload as a record, its tensors moved to the device of the
    reference's outputs (a worker saves on the CPU; the reference may live on a GPU)."""
    output = reference.output if isinstance(reference.output, tuple) else (reference.output,)
    leaves = [t for t in output if isinstance(t, torch.Tensor)]
    device = leaves[0].device if leaves else torch.device("cpu")
    moved = {k: map_tensors(payload[k], lambda t: to_device(t, device)) for k in ("output", "args_after", "kwargs_after")}
    return CallRecord.from_payload(moved | {"aliases": payload["aliases"]})


STAGED_COPY_BYTES = 8 << 20  # from this size up, a host tensor goes to a GPU through page-locked memory


def to_device(t: torch.Tensor, device: torch.device) -> torch.Tensor:
    """``t`` on ``device``. A large host tensor bound for a GPU is first copied into page-locked
    memory, from which the GPU reads it directly: from pageable memory (a result the judge mapped
    from its file) the driver copies through small staging buffers of its own, several times
    slower (benchmarks/judge_io_probe.py). Falls back to the plain copy where none can be locked."""
    if device.type != "cuda" or t.device.type != "cpu" or t.nbytes < STAGED_COPY_BYTES:
        return t.to(device)
    try:
        staged = t.pin_memory()
    except RuntimeError:
        return t.to(device)
    return staged.to(device)


class ForeignValue(PermissionError):
    """A call returned (or left in its arguments) a tensor of a subclass: its methods are the
    submission's code, which the harness would run when it reads the value (a tampering verdict)."""


class TooManyValues(ValueError):
    """A call's result holds more values than any task's result has (an error, not a result)."""


# No task's result and arguments hold more than a few hundred values (tensors, numbers, containers);
# a call that returns more is wrong anyway, and saving and judging them all would cost the harness.
MAX_VALUES = 10_000
_SCALARS = frozenset({bool, int, float, str, complex, type(None), torch.dtype, torch.device, torch.Size})
# Sub-byte integer dtypes torch.save cannot write (no task's output is one): a result of one becomes a
# placeholder, judged a mismatch, rather than failing the harness's save of the call's outputs
_UNSAVABLE_DTYPES = frozenset(getattr(torch, f"{kind}{bits}") for kind in ("int", "uint") for bits in range(1, 8)
                              if hasattr(torch, f"{kind}{bits}"))


def _plain(obj: Any, budget: list[int]) -> Any:
    """``obj`` rebuilt from exact built-in types only (so reading it runs no code of a submission's:
    no subclass's ``detach``, ``__iter__`` or ``__class__`` property): plain tensors detached,
    tuples of any class (namedtuples, torch.return_types: read with tuple's own iterator) and lists
    as tuples, dicts, scalars; any other value becomes a placeholder naming its type. A tensor subclass raises :class:`ForeignValue`; more values than
    ``budget[0]`` (counted down) raise :class:`TooManyValues`."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooManyValues(f"the call's result holds more than {MAX_VALUES} values (tensors, numbers, containers)")
    kind = type(obj)
    if kind is torch.Tensor:
        hidden = shadowed(obj)
        if hidden:  # its own detach would hand back whatever the submission put there
            raise ForeignValue(shadowing_message(hidden))
        if obj.dtype in _UNSAVABLE_DTYPES:
            return f"<a tensor of dtype {obj.dtype}>"
        return _DETACH(obj)
    if issubclass(kind, torch.Tensor):
        raise ForeignValue(f"tampering: a value of type {_name(kind)!r}, a torch.Tensor subclass (return plain tensors)")
    if kind in _SCALARS:  # (torch.Size among them, a tuple kept as it is)
        return obj
    if kind is list:
        return tuple(_plain(x, budget) for x in list.__iter__(obj))
    if issubclass(kind, tuple):
        return tuple(_plain(x, budget) for x in tuple.__iter__(obj))
    if kind is dict:
        return {k: _plain(v, budget) for k, v in dict.items(obj) if type(k) in _SCALARS}
    return f"<a value of type {_name(kind)}>"


_type_name = type.__dict__["__name__"].__get__  # type's own, whatever a metaclass defines
# torch.Tensor's own methods, called as functions: an attribute of a tensor's own hides a method
# from ``t.detach()``, not from these (harness/shadowing.py)
_DETACH, _UNTYPED_STORAGE = torch.Tensor.detach, torch.Tensor.untyped_storage
_STORAGE_PTR = torch.UntypedStorage.data_ptr


def not_plain(obj: Any, budget: int = MAX_VALUES) -> str | None:
    """What in ``obj`` is not built from exact types (:func:`_plain` would keep it whole), or None.
    Reads only real types (``type()``, never a ``__class__`` the object defines) and iterates
    containers with the built-in types' own methods, so no code of a submission's runs: cheap
    enough for every timed repetition's result, none of which may be a value that does its work
    only when the harness reads it."""
    stack, left = [obj], budget
    while stack:
        left -= 1
        if left < 0:
            return f"more than {budget} values"
        value = stack.pop()
        kind = type(value)
        if kind is torch.Tensor:
            hidden = shadowed(value)
            if hidden:
                return f"a tensor whose own attribute {hidden!r} hides torch.Tensor's"
            continue
        if kind in _SCALARS:
            continue
        if kind is list:
            stack.extend(list.__iter__(value))
        elif issubclass(kind, tuple):
            stack.extend(tuple.__iter__(value))
        elif kind is dict:
            stack.extend(dict.values(value))
        else:
            return f"a value of type {_name(kind)}"
    return None


def _name(kind: type) -> str:
    return str.__str__(_type_name(kind))


def detached(record: CallRecord) -> CallRecord:
    """A copy of ``record`` whose tensors no later call can overwrite (the call buffers are reused),
    rebuilt from exact types as :meth:`CallRecord.to_payload` does (lists become tuples)."""
    payload = record.to_payload()
    clone = lambda t: t.clone()  # noqa: E731
    return CallRecord(map_tensors(payload["output"], clone), list(map_tensors(payload["args_after"], clone)),
                      map_tensors(payload["kwargs_after"], clone), list(record.aliases))


def clone_case(case: Case) -> Case:
    """A deep copy of a case that keeps every tensor's exact layout (strides, offset, the bytes in
    the gaps of strided views) and the storage sharing between arguments."""
    storages: dict[int, torch.UntypedStorage] = {}

    def clone(obj: Any) -> Any:
        if isinstance(obj, torch.Tensor):
            src = obj.untyped_storage()
            key = src.data_ptr()
            if key not in storages:
                storages[key] = src.clone()
            out = torch.empty(0, dtype=obj.dtype, device=obj.device)
            out.set_(storages[key], obj.storage_offset(), obj.size(), obj.stride())
            return out
        if isinstance(obj, (tuple, list)):
            return type(obj)(clone(x) for x in obj)
        if isinstance(obj, dict):
            return {k: clone(v) for k, v in obj.items()}
        return obj

    new = Case(case.label)
    new.args = tuple(clone(a) for a in case.args)
    new.kwargs = {k: clone(v) for k, v in case.kwargs.items()}
    return new


@dataclass(frozen=True)
class Arguments:
    """A case's arguments as a call is handed them: the tensor objects inside every container
    (``held``: lists, tuples and dicts rebuilt around the same tensors) and the storage address of
    each, keyed ``"0"``, ``"1"``... or by keyword, with ``[i]`` / ``[key]`` for what a container
    holds (``"0[2]"``, ``"out[1]"``). The state judged after the call is the held tensors': a call
    that replaces a list's entries instead of updating them leaves the caller's tensors unchanged
    (tests/adversarial/adam_list_entries_swapped.py), and a result that is a tensor inside an
    ``out=`` tuple names it (tests/adversarial/min_gelu_tuple_out_not_returned.py)."""

    args: tuple
    kwargs: dict[str, Any]
    storages: dict[str, int]


def arguments_of(case: Case) -> Arguments:
    """The :class:`Arguments` of ``case`` before its call (tensors read through torch.Tensor's own
    methods: an argument may carry attributes of the submission's; containers through the built-in
    types' own iterators)."""
    storages: dict[str, int] = {}

    def held(obj: Any, key: str) -> Any:
        kind = type(obj)
        if isinstance(obj, torch.Tensor):
            storages[key] = _STORAGE_PTR(_UNTYPED_STORAGE(obj))
            return obj
        if kind is list:
            return [held(x, f"{key}[{i}]") for i, x in enumerate(list.__iter__(obj))]
        if kind is tuple:
            return tuple(held(x, f"{key}[{i}]") for i, x in enumerate(tuple.__iter__(obj)))
        if kind is dict:
            return {k: held(v, f"{key}[{k}]") for k, v in dict.items(obj)}
        return obj

    args = tuple(held(a, str(i)) for i, a in enumerate(case.args))
    kwargs = {k: held(v, k) for k, v in case.kwargs.items()}
    return Arguments(args, kwargs, storages)


def call_case(fn: Callable[..., Any], case: Case) -> CallRecord:
    """Call ``fn`` on ``case`` (which it may mutate) and capture the result."""
    before = arguments_of(case)
    return record_of(fn(*case.args, **case.kwargs), before)


def record_of(output: Any, before: Arguments) -> CallRecord:
    """The record of a call handed ``before`` (see :func:`arguments_of`) that returned ``output``:
    the arguments' state after it is the state of the tensors it was handed."""
    aliases = []
    for leaf in tensor_leaves(output):
        ptr = _STORAGE_PTR(_UNTYPED_STORAGE(leaf))
        aliases.append(next((k for k, p in before.storages.items() if p == ptr and ptr != 0), None))
    return CallRecord(output, list(before.args), dict(before.kwargs), aliases)
