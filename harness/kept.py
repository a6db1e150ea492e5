"""What a perf process keeps of a call for the judge: the outputs in full, the arguments only where
the reference changes them.

A call's record holds the arguments after the call (in-place semantics; a wrapper that scribbles on
its inputs is wrong). At perf sizes those arguments are as large as the outputs, and keeping,
saving and reading them back doubled the judge's cost for most tasks, whose references leave
their inputs alone. So an argument the reference does not change is kept as a digest of its
storage's bytes (every byte, the gaps of a strided view included), taken on the GPU at once, and
both sides' digests must be equal: the bytes are the inputs both processes drew alike
(perf/server.py). An argument the reference changes is kept in full and compared within the
task's tolerances, as in exe. Shared by the perf processes (which keep) and the comparison (which
recognises a digest).

The digest is a keyed random linear form over the bytes: two different byte strings collide with
probability below 2**-60 for a key drawn by the baseline at random. It is computed by harness code
in the candidate's process, so it is exactly as trustworthy as the saved result bytes it replaces.
"""

from __future__ import annotations

from typing import Any

import torch

from harness.invoke import CallRecord
from harness.taskdef import map_tensors, tensor_leaves

DIGEST_PREFIX = "<argument left unchanged: bytes digest "
_CHUNK = 1 << 22                 # bytes per step: int64 temporaries of 32 MB
_MODULUS = (1 << 61) - 1         # a prime: chunk sums (< 2**61) are added modulo it without overflow
_WEIGHTS = 1 << 31               # weights in [1, 2**31): a byte-weight product sum of a chunk stays < 2**61


def _storage_bytes(t: torch.Tensor) -> torch.Tensor:
    """Every byte of ``t``'s storage as a flat uint8 tensor (no copy)."""
    storage = t.untyped_storage()
    return torch.empty(0, dtype=torch.uint8, device=t.device).set_(storage, 0, (storage.nbytes(),), (1,))


def storage_digest(t: torch.Tensor, key: int) -> str:
    """A digest of every byte of ``t``'s storage, keyed by ``key`` (the same bytes and key give the
    same string on any process using the same device type and torch)."""
    data = _storage_bytes(t)
    forms = []  # two independent forms: a collision needs both to collide
    for seed_offset in range(2):
        generator = torch.Generator(device=t.device)
        generator.manual_seed((key * 2 + seed_offset) & ((1 << 63) - 1))
        forms.append(generator)
    chunks = range(0, data.numel(), _CHUNK)
    # each chunk's byte-weight product sum (< 2**61), added up modulo the prime once, on the host:
    # three kernels a chunk and form (the weights multiplied in place by the bytes, widened on
    # the fly, then summed into their slot), where a running total cost three more and a copy of
    # the chunk as int64 (the digest of the kept results was 15% of a perf job's timed requests)
    sums = torch.empty((len(forms), len(chunks)), dtype=torch.int64, device=t.device)
    for index, start in enumerate(chunks):
        chunk = data[start:start + _CHUNK]
        for form, generator in enumerate(forms):
            weights = torch.randint(1, _WEIGHTS, chunk.shape, generator=generator, device=t.device, dtype=torch.int64)
            torch.sum(weights.mul_(chunk), dim=0, out=sums[form, index])
    words = [sum(row) % _MODULUS for row in sums.tolist()]
    return f"{DIGEST_PREFIX}{words[0]:016x}{words[1]:016x} of {data.numel()} bytes>"


def is_digest(value: Any) -> bool:
    return type(value) is str and value.startswith(DIGEST_PREFIX)


def kept_record(record: CallRecord, changed: set[int], key: int) -> CallRecord:
    """A copy of ``record`` that no later call can overwrite: its outputs cloned, its tensor
    arguments cloned where their leaf index (in ``tensor_leaves`` order over the positional then
    keyword arguments) is in ``changed``, digested otherwise."""
    clones: dict[tuple, torch.Tensor] = {}  # the outputs' copies, by the view each copied

    def copy_output(t: torch.Tensor) -> torch.Tensor:
        copy = t.clone()
        clones.setdefault(_view(t), copy)
        return copy

    # rebuilt from exact types first, as invoke.detached does (a submission's subclass runs no code)
    # rebuilt from exact types, the arguments too (their own attributes refused: harness/shadowing.py)
    payload = record.to_payload()
    output = map_tensors(payload["output"], copy_output)
    index = iter(range(len(tensor_leaves([payload["args_after"], list(payload["kwargs_after"].values())]))))
    digests: dict[int, str] = {}  # per storage: views of one buffer are digested once

    def keep(t: torch.Tensor) -> Any:
        if next(index) in changed:
            # an in-place call returns the argument it changed: one copy serves both (and is saved
            # and read once: torch.save writes a shared storage once)
            shared = clones.get(_view(t))
            return shared if shared is not None else t.detach().clone()
        ptr = t.untyped_storage().data_ptr()
        if ptr not in digests:
            digests[ptr] = storage_digest(t, key)
        return digests[ptr]

    args = [map_tensors(a, keep) for a in payload["args_after"]]
    kwargs = {k: map_tensors(v, keep) for k, v in payload["kwargs_after"].items()}
    return CallRecord(output, args, kwargs, list(record.aliases))


def _view(t: torch.Tensor) -> tuple:
    """What makes two tensors the same view of the same memory."""
    return (t.device, t.untyped_storage().data_ptr(), t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)


def changed_leaves(before: list[torch.Tensor], after: list[torch.Tensor]) -> set[int]:
    """Indices of the leaves of ``after`` (a call's arguments, as ``tensor_leaves`` lists them)
    whose storage bytes differ from those of the same leaf in ``before`` (the inputs as drawn)."""
    changed = set()
    for i, (a, b) in enumerate(zip(before, after)):
        ba, bb = _storage_bytes(a), _storage_bytes(b)
        if ba.numel() != bb.numel() or any(not torch.equal(ba[s:s + _CHUNK], bb[s:s + _CHUNK])
                                           for s in range(0, ba.numel(), _CHUNK)):
            changed.add(i)
    return changed
