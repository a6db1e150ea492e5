"""Perf-size results judged at positions drawn after the call.

A perf case's results run to hundreds of megabytes. Saving them whole moved each through host memory
twice (staged from the GPU, then written into the sealed file the judge reads), most of what a job
with perf spent beyond its timing (benchmarks/results/2026-12-05-h100-timing-barrier). A kernel that
is wrong at perf sizes only is wrong at many elements (an index that overflows, a grid limit, a
race, a skipped block) or at the ends of the buffer (a tail mask); and a kernel that skips work to
look fast must skip a share of the work its time shows. So a result leaf of more than
``SAMPLE_ABOVE`` elements is saved as its values at: the first and last ``EDGE`` elements in
row-major order, and one sixteenth of the elements (at least ``DRAWN_MIN``) at positions drawn
uniformly from a key the parent draws after the result was kept, so no code of the submission's
ran knowing them. The judge draws the same positions on the reference and compares the values
there under the task's tolerance, its scale taken from the whole reference (harness/compare.py).

An error at a share ``f`` of a leaf's elements, away from its ends, escapes with probability
``(1 - f) ** drawn``: a 128M-element result gets 8M draws, and an error at one element in 100,000
escapes with probability about e**-80 (at one in 10 million, e**-0.8).

Sampling is done by harness code in the candidate's process, exactly as trustworthy as the whole
result it replaces (perf/server.py saves either); a task with its own check (which reads whole
results) is judged on whole results.
"""

from __future__ import annotations

from copy import copy
from itertools import count
from typing import Any

import torch

from harness.invoke import CallRecord
from harness.taskdef import map_tensors

SAMPLE_ABOVE = 1 << 22   # elements: leaves up to this size are saved whole
EDGE = 1 << 16           # elements at each end of a leaf always compared
DRAWN_MIN = 1 << 20      # positions drawn in a sampled leaf, at least
DRAWN_SHARE = 16         # and one per this many elements
SAMPLED = "sampled"      # payload key: {leaf ordinal (str): the leaf's shape}, for the leaves sampled
_PARTS = ("output", "args_after", "kwargs_after")


class SampledResultError(ValueError):
    """A saved payload's samples do not fit what the judge drew (an untrusted payload)."""


def drawn_count(numel: int) -> int:
    """How many values a sampled leaf of ``numel`` elements is saved as."""
    return 2 * EDGE + max(DRAWN_MIN, numel // DRAWN_SHARE)


def positions(numel: int, key: int, device: torch.device) -> torch.Tensor:
    """The row-major positions a leaf of ``numel`` elements is judged at, for ``key``: the same on
    every process of one torch build and device type (a seeded generator of that device)."""
    generator = torch.Generator(device=device)
    generator.manual_seed(key & ((1 << 63) - 1))
    drawn = torch.randint(0, numel, (drawn_count(numel) - 2 * EDGE,), generator=generator, device=device)
    return torch.cat([torch.arange(EDGE, device=device), drawn,
                      torch.arange(numel - EDGE, numel, device=device)])


def values_at(t: torch.Tensor, where: torch.Tensor) -> torch.Tensor:
    """``t``'s elements at row-major positions ``where``, read through its strides (a permuted or
    strided result is not copied whole to be read)."""
    where = where.to(t.device)
    offsets = torch.full_like(where, t.storage_offset())
    rest = where
    for size, stride in zip(reversed(t.shape), reversed(t.stride())):
        offsets += (rest % size) * stride
        rest = rest // size
    elements = t.untyped_storage().nbytes() // t.element_size()
    return t.as_strided((elements,), (1,), 0)[offsets]


def sampled_payload(payload: dict, key: int) -> dict:
    """A call payload (``CallRecord.to_payload``) with each tensor leaf of more than
    ``SAMPLE_ABOVE`` elements replaced by its values at ``positions(numel, key)``; the shapes of
    the leaves replaced under ``SAMPLED``, by ordinal among the payload's tensor leaves."""
    shapes: dict[str, list[int]] = {}
    ordinal = count()

    def sample(t: torch.Tensor) -> torch.Tensor:
        index = next(ordinal)
        if t.numel() <= SAMPLE_ABOVE:
            return t
        shapes[str(index)] = list(t.shape)
        return values_at(t, positions(t.numel(), key, t.device))

    sampled = {part: map_tensors(payload[part], sample) for part in _PARTS}
    return {**payload, **sampled, SAMPLED: shapes}


class CandidateSample:
    """A candidate's result leaf as saved: its values at the drawn positions, and its shape."""

    def __init__(self, values: torch.Tensor, shape: tuple[int, ...]) -> None:
        self.values, self.shape, self.dtype = values, shape, values.dtype


class ReferenceSample:
    """A reference leaf to be compared at the drawn positions (``whole`` gives the tolerance's
    scale and the messages' indices)."""

    def __init__(self, whole: torch.Tensor, key: int) -> None:
        self.whole, self.numel = whole, whole.numel()
        self.shape, self.dtype = tuple(whole.shape), whole.dtype
        self.positions = positions(whole.numel(), key, whole.device)
        self.values = values_at(whole, self.positions)

    def as_real(self) -> "ReferenceSample":
        """A complex leaf's sample with its whole as real and imaginary parts (the tolerance's
        scale), positions and indices as they were."""
        real = copy(self)
        real.whole, real.values = torch.view_as_real(self.whole.resolve_conj()), torch.view_as_real(self.values)
        return real

    def index_of(self, sample: int) -> list[int]:
        """The index in the whole leaf of the ``sample``-th value compared."""
        flat = self.positions[sample].cpu()
        return [int(i) for i in torch.unravel_index(flat, self.shape)]


def for_judging(payload: dict, reference: CallRecord, key: int | None) -> tuple[dict, CallRecord]:
    """The payload and reference as the comparison reads them: where the payload's leaves are
    sampled, those leaves as ``CandidateSample`` and every reference leaf of more than
    ``SAMPLE_ABOVE`` elements as a ``ReferenceSample`` for the same ``key``. A payload saved whole
    is judged whole. Raises ``SampledResultError`` for samples the judge did not ask for or that do
    not fit their stated shapes."""
    shapes = payload.get(SAMPLED)
    if not shapes:
        return payload, reference
    if key is None:
        raise SampledResultError("the result was saved sampled, but this judge compares whole results")
    if not isinstance(shapes, dict):
        raise SampledResultError("the sampled leaves are not listed as a mapping")
    ordinal = count()
    found = 0

    def candidate_leaf(t: torch.Tensor) -> Any:
        nonlocal found
        shape = shapes.get(str(next(ordinal)))
        if shape is None:
            return t
        if (not isinstance(shape, list) or not all(type(n) is int and n >= 0 for n in shape)
                or _numel(shape) <= SAMPLE_ABOVE or tuple(t.shape) != (drawn_count(_numel(shape)),)):
            raise SampledResultError(f"a sampled leaf's values do not fit its stated shape {str(shape)[:80]}")
        found += 1
        return CandidateSample(t, tuple(shape))

    candidate = {part: map_tensors(payload[part], candidate_leaf) for part in _PARTS}
    if found != len(shapes):
        raise SampledResultError(f"{len(shapes)} leaves listed as sampled, {found} found")

    def reference_leaf(t: torch.Tensor) -> Any:
        return ReferenceSample(t, key) if t.numel() > SAMPLE_ABOVE else t

    judged = CallRecord(map_tensors(reference.output, reference_leaf), map_tensors(reference.args_after, reference_leaf),
                        map_tensors(reference.kwargs_after, reference_leaf), reference.aliases)
    return {**payload, **candidate}, judged


def _numel(shape: list[int]) -> int:
    total = 1
    for n in shape:
        total *= n
    return total
