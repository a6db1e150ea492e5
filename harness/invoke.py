"""Calling an entry function on a case and capturing everything the checker needs.

Used identically for the reference (in the trusted parent) and for a submission (in a worker), so
both sides are observed the same way: the returned value, the state of every tensor argument after
the call (in-place and ``out=`` semantics), and which argument each returned tensor aliases.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import torch

from harness.taskdef import Case, map_tensors, tensor_leaves


@dataclass
class CallRecord:
    """What one call produced."""

    output: Any
    args_after: list[Any]
    kwargs_after: dict[str, Any]
    aliases: list[str | None]  # per output tensor leaf: the argument it shares storage with

    def to_payload(self) -> dict:
        return {"output": _plain(self.output), "args_after": [_plain(a) for a in self.args_after],
                "kwargs_after": {k: _plain(v) for k, v in self.kwargs_after.items()},
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


def move_like_reference(payload: dict, reference: CallRecord) -> CallRecord:
    """A candidate's saved call payload as a record, its tensors moved to the device of the
    reference's outputs (a worker saves on the CPU; the reference may live on a GPU)."""
    output = reference.output if isinstance(reference.output, tuple) else (reference.output,)
    leaves = [t for t in output if isinstance(t, torch.Tensor)]
    device = leaves[0].device if leaves else torch.device("cpu")
    moved = {k: map_tensors(payload[k], lambda t: t.to(device)) for k in ("output", "args_after", "kwargs_after")}
    return CallRecord.from_payload(moved | {"aliases": payload["aliases"]})


def _plain(obj: Any) -> Any:
    """Namedtuples (torch.return_types) become tuples so results load with ``weights_only=True``."""
    if isinstance(obj, torch.Tensor):
        return obj.detach()
    if isinstance(obj, (tuple, list)):
        return tuple(_plain(x) for x in obj)
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if obj is None or isinstance(obj, (bool, int, float, str, complex)):
        return obj
    if isinstance(obj, (torch.dtype, torch.device, torch.Size)):
        return obj
    return repr(obj)


def detached(record: CallRecord) -> CallRecord:
    """A copy of ``record`` whose tensors no later call can overwrite (the call buffers are reused)."""
    clone = lambda t: t.detach().clone()  # noqa: E731
    return CallRecord(map_tensors(record.output, clone), map_tensors(list(record.args_after), clone),
                      map_tensors(dict(record.kwargs_after), clone), list(record.aliases))


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


def argument_storages(case: Case) -> dict[str, int]:
    """Storage address of every tensor argument, keyed ``"0"``, ``"1"``... or by keyword."""
    named = {str(i): a for i, a in enumerate(case.args)} | dict(case.kwargs)
    return {k: v.untyped_storage().data_ptr() for k, v in named.items() if isinstance(v, torch.Tensor)}


def call_case(fn: Callable[..., Any], case: Case) -> CallRecord:
    """Call ``fn`` on ``case`` (which it may mutate) and capture the result."""
    storages = argument_storages(case)
    return record_of(fn(*case.args, **case.kwargs), case, storages)


def record_of(output: Any, case: Case, storages: dict[str, int]) -> CallRecord:
    """The record of a call on ``case`` that returned ``output`` (``storages``: the arguments'
    storage addresses before the call, see :func:`argument_storages`)."""
    aliases = []
    for leaf in tensor_leaves(output):
        ptr = leaf.untyped_storage().data_ptr()
        aliases.append(next((k for k, p in storages.items() if p == ptr and ptr != 0), None))
    return CallRecord(output, list(case.args), dict(case.kwargs), aliases)
