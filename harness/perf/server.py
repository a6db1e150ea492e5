"""The perf stage inside one process: the candidate's worker or the trusted baseline process.

Both sides run this same code on the same inputs, driven command by command by the parent (which
interleaves them and holds the GPU for the duration, see run/perf_stage.py). Per perf case a process
keeps: ``INPUT_SETS`` sets of freshly drawn inputs of identical shapes, call buffers laid out like them
(each timed repetition first loads new values into the buffers: each element of a floating-point
input, or of an integer one where the task allows, taken from one set or the other by a fresh
keyed coin, after a roll by an offset of that repetition's own, so the wrapper sees the same
tensors with values it has never seen together: caching keyed on tensor identity, pointers, a few
sampled values or where a value sat returns stale results), and a separate check set. After timing, each side calls once on the check set and the
parent has the candidate's result judged against the reference's, as it has one timed
repetition's: a kernel that is wrong at perf sizes is wrong (large results at positions drawn after
the call: harness/sampled_results.py).

Commands (JSON lines on stdin) and replies (events on the report pipe):
``prepare`` {digest_key, mutates}  -> ``prepared`` {cases: [{label, describe, estimate_ms, ...}]} (the
                                     baseline draws ``digest_key`` and finds ``mutates`` per case, the
                                     arguments its reference changes, and sends both in its reply; the
                                     parent passes them on to the candidate: harness/kept.py)
``time`` {case, side, reps, first, keep} -> ``times`` {ms: [...], kept_attempt} (repetition ``keep``'s
                                     result is kept; ``kept_attempt``: which of its measurements, perf/timing.py)
``check`` {case, side, timed_rep, timed_attempt} -> ``checked`` (the check-set call, kept in memory; the
                                     baseline also calls on the inputs of that timed repetition's attempt)
``save`` {case, path, which, release, sample_key} -> ``saved`` {sealed} (candidate: kept result written to
                                     a sealed file, its large leaves at the positions ``sample_key`` draws
                                     (sampled_results.py); where none can be made, to ``path``: ``saved``
                                     {sha256})
``judge`` {case, which, sample_key, sealed | path + sha256} -> ``verdict`` {ok, status, detail} (baseline)
``done``                         -> the process exits
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import secrets
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, Iterator

import torch

from harness import protocol
from harness.compare import judge_saved
from harness.bounded_io import UntrustedFileError, load_sealed_tensors, load_tensors, save_tensors
from harness.invoke import (CallRecord, ForeignValue, arguments_of, call_case, clone_case, detached,
                            not_plain, record_of, saved_payload_limit)
from harness.kept import changed_leaves, kept_record
from harness.perf.roofline import case_dtype
from harness.gpu_memory_cap import cap_gpu_memory
from harness.sampled_results import for_judging, sampled_payload
from harness.sealed_files import SealedFile, close_quietly, seal, sealable_file
from harness.perf.timing import SLOW_CALL_MS, EventTimer, estimate_ms, gpu_probe, settle
from harness.task import Task
from harness.taskdef import Case, map_tensors, tensor_leaves
from harness.verdicts import INTEGRITY, WRONG

INPUT_SETS = 2
# How a timed repetition combines the two input sets (a task's ``PERF_MIX``, harness/taskdef.py):
ELEMENTS = "elements"   # each element from one set or the other at a rolled position (the default)
IN_PLACE = "in place"   # each element from one set or the other where it was: keeps zero patterns
                        # (triangles), diagonals (dominance) and any property of single elements
CONVEX = "convex"       # a * A + b * B + c * (A o B) / M (weights >= 0 summing to 1, drawn per
                        # repetition; A o B the element-wise product, M the sets' largest magnitude):
                        # keeps linear structure (symmetric, Hermitian, triangular), positive
                        # diagonals, diagonal dominance and positive-definiteness (the Schur product
                        # theorem); complex inputs too
GAUSSIAN = "gaussian"   # cos t * roll(A, s) + sin t * roll(B, r), t drawn per repetition away from
                        # the axes, s != r: for inputs drawn i.i.d. from one zero-mean normal, again
                        # such draws, of values no call has seen (order statistics: min, argmax)
NONE = "none"           # the sets as drawn (a designed spectrum, a pivot order: nothing keeps it)
MIXES = (ELEMENTS, IN_PLACE, CONVEX, GAUSSIAN, NONE)
CHECK_SET = INPUT_SETS          # input_set index of the check set (never timed)
WARMUP_CALLS = INPUT_SETS  # one call on each input set before timing
_MIX_CHUNK = 1 << 24       # elements of a timed input mixed per draw of coins (16 MiB of them)


class PerfCaseError(Exception):
    """A task's perf cases are not usable for timing (a task-file bug, not the submission's)."""


def _storages(case: Case) -> list[torch.UntypedStorage]:
    seen: dict[int, torch.UntypedStorage] = {}
    for t in tensor_leaves(list(case.args) + list(case.kwargs.values())):
        seen.setdefault(t.untyped_storage().data_ptr(), t.untyped_storage())
    return list(seen.values())


class RotatingCase:
    """Call buffers for one perf case and the input sets copied into them, one per repetition.

    Two input sets alone would let a wrapper recognise a set by a few of its values and return a
    result it kept, doing no work from the third call on. A roll of a set (a circular shift of the
    flat array) hides where values are but not which: a wrapper that kept every input finds the
    offset from where one value sat and answers a sum, whose answer a roll keeps, without reading
    the input (tests/adversarial/roll_surviving_cache_sum_host.py). So a timed repetition's
    floating-point input is, element by element, one set's or the other's value at the same rolled
    position, chosen by coins drawn for that repetition: every position holds a value drawn as the
    task draws it there (the sets are draws of the same cases), while the whole is a combination no
    earlier call saw, which no cached answer gives and no few probes identify. A task whose inputs
    are structured says which combination keeps the structure (``PERF_MIX``): the same coins with
    every value left where it was (a triangle's zeros, a dominant diagonal), or a weighted mean of
    the two sets and their element-wise product (symmetric and positive-definite matrices), a new
    matrix in either case; standard-normal inputs whose answer is an order statistic are rotated
    into new normals (no value a wrapper saw, which a probe for the minimum needs). The
    offsets, coins and weights come from ``key`` and the repetition's number (``key`` holds the
    run's seed); the baseline process builds the same, so the reference of a judged repetition sees
    the same inputs.
    """

    def __init__(self, sets: list[Case], check: Case, key: str = "", mix: str = ELEMENTS,
                 integers: bool = False) -> None:
        """``mix``: how a timed repetition combines the sets (:data:`MIXES`; the task's
        ``PERF_MIX``); ``integers``: integer and bool inputs are mixed too (a task whose integer
        inputs are free values at every position, no indices that must stay unique or sorted)."""
        if mix not in MIXES:
            raise PerfCaseError(f"PERF_MIX {mix!r} is none of {', '.join(map(repr, MIXES))}")
        shapes = {s.describe().split(": ", 1)[1] for s in sets + [check]}
        if len(shapes) != 1:
            raise PerfCaseError(f"perf case {sets[0].label!r}: input sets differ in shape or arguments: {sorted(shapes)}")
        self.label = sets[0].label
        self.sets = sets
        self.check_case = check
        self.buffers = clone_case(sets[0])
        self._key = f"{key}:{self.label}"
        self._dst = _storages(self.buffers)
        self._src = [_storages(s) for s in sets + [check]]
        if any(len(src) != len(self._dst) or any(a.nbytes() != b.nbytes() for a, b in zip(src, self._dst))
               for src in self._src):
            raise PerfCaseError(f"perf case {self.label!r}: input sets have different storage layouts")
        leaves = _input_leaves(self.buffers)
        self._mix = mix
        self._mixed = [i for i, t in enumerate(leaves) if mix != NONE and _mixable(t, leaves, integers, mix)]
        self._dst_leaves = [leaves[i] for i in self._mixed]
        self._src_leaves = [[leaves_of_set[i] for i in self._mixed] for leaves_of_set in map(_input_leaves, sets)]
        # the convex mix's product term is scaled by the sets' largest magnitude at each input (no overflow)
        self._magnitudes = [max([float(_ABS(t).max()) for t in ts if _NUMEL(t)], default=1.0) or 1.0
                            for ts in zip(*self._src_leaves)] if mix == CONVEX else []
        mixed = {t.untyped_storage().data_ptr() for t in self._dst_leaves}
        self._copied = [k for k, dst in enumerate(self._dst) if dst.data_ptr() not in mixed]
        self._coins: torch.Generator | None = None  # reseeded for every mix

    def load(self, index: int, nonce: str | None = None) -> None:
        """Copy input set ``index`` (``CHECK_SET`` for the check set) into the call buffers; with a
        ``nonce`` (timed repetitions), its inputs that may be (``_mixable``) combined with the next
        set's by the task's mix, with the offsets, coins or weights the nonce and the key give."""
        # through torch's own methods: the buffers are the submission's arguments, which it may have
        # given attributes of its own (harness/shadowing.py)
        if nonce is None or index >= len(self.sets) or not self._mixed:
            for dst, src in zip(self._dst, self._src[index]):
                _COPY_STORAGE(dst, src)
            return
        for k in self._copied:
            _COPY_STORAGE(self._dst[k], self._src[index][k])
        other = self._src_leaves[(index + 1) % len(self.sets)]
        for position, (dst, first, second) in enumerate(zip(self._dst_leaves, self._src_leaves[index], other)):
            label = f"{self._key}:{nonce}:{position}"
            flat = (_VIEW(dst, -1), _VIEW(first, -1), _VIEW(second, -1))
            if self._mix == CONVEX:
                _blend_into(*flat, _unit(label), _unit(f"{label}:product"), self._magnitudes[position])
                continue
            if self._mix == GAUSSIAN:
                _rotate_into(*flat, _unit(label), _offset(f"{label}:first", _NUMEL(dst)),
                             _offset(f"{label}:second", _NUMEL(dst)))
                continue
            if self._coins is None or self._coins.device != dst.device:
                self._coins = _GENERATOR(device=dst.device)
            _mix_into(*flat, _offset(label, _NUMEL(dst)) if self._mix == ELEMENTS else 0,
                      self._coins.manual_seed(_offset(f"{label}:coins", 1 << 62)))

    def loader(self, phase: str = "timed") -> Callable[..., None]:
        """``(rep, attempt=0) -> load`` for repetition ``rep`` of ``phase`` (each phase has its own
        offsets), and each time it is measured again (``attempt``, perf/timing.py) offsets of its own."""
        return lambda rep, attempt=0: self.load(rep % len(self.sets),
                                                f"{phase}:{rep}" + (f":again{attempt}" if attempt else ""))

    def call(self, fn: Callable[..., Any]) -> Any:
        return fn(*self.buffers.args, **self.buffers.kwargs)

    def drop_timed_inputs(self) -> None:
        """Free the rotating input sets and the call buffers once timing is over: judging needs only
        the check set and the kept results, and its float64 temporaries want the room."""
        self.sets, self.buffers = [], None
        self._dst, self._src, self._dst_leaves, self._src_leaves = [], [], [], []


def _input_leaves(case: Case) -> list[torch.Tensor]:
    return tensor_leaves(list(case.args) + list(case.kwargs.values()))


def _mixable(t: torch.Tensor, leaves: list[torch.Tensor], integers: bool = False, mix: str = ELEMENTS) -> bool:
    """A floating-point input (or, with ``integers``, an integer or bool one; with the ``convex``
    mix, a complex one but no integers) that is its whole storage and shares it with no other leaf
    (mixing a view, or one of two aliases, would change what the others see)."""
    storage = t.untyped_storage()
    if mix == CONVEX:
        kind = t.is_floating_point() or t.is_complex()
    elif mix == GAUSSIAN:
        kind = t.is_floating_point()
    else:
        kind = t.is_floating_point() or (integers and not t.is_complex())
    return (kind and t.numel() > 1 and t.is_contiguous()
            and t.storage_offset() == 0 and t.numel() * t.element_size() == storage.nbytes()
            and sum(u.untyped_storage().data_ptr() == storage.data_ptr() for u in leaves) == 1)


def _offset(text: str, n: int) -> int:
    """A shift in [1, n) from a keyed hash (n > 1)."""
    digest = _BLAKE2B(text.encode(), digest_size=8).digest()
    return 1 + _FROM_BYTES(digest, "little") % (n - 1)


def _unit(text: str) -> float:
    """A number in [0, 1) from a keyed hash."""
    return _offset(text, 1 << 53) / (1 << 53)


def _blend_into(dst: torch.Tensor, first: torch.Tensor, second: torch.Tensor, u: float, v: float,
                magnitude: float) -> None:
    """``dst = a * first + b * second + c * first * second / magnitude`` for flat tensors, a chunk at
    a time, with no temporary: ``c`` in [1/8, 3/8] (from ``v``), ``a`` and ``b`` sharing the rest
    in a ratio between 1:3 and 3:1 (from ``u``). The product term takes the repetition's inputs
    off the line through the two sets, along which a wrapper that kept both could answer from their
    pair alone (a determinant of ``w A + (1 - w) B`` from the eigenvalues of ``B^-1 A``, computed
    once); three matrices that do not commute share no such shortcut."""
    c = 0.125 + 0.25 * v
    w = 0.25 + 0.5 * u
    a, b = (1.0 - c) * w, (1.0 - c) * (1.0 - w)
    n = _NUMEL(dst)
    for low in _RANGE(0, n, _MIX_CHUNK):
        high = n if n - low < _MIX_CHUNK else low + _MIX_CHUNK
        part = _MUL(first[low:high], c / magnitude, out=dst[low:high])  # (scaled first: no overflow)
        _MUL_(part, second[low:high])
        _ADD(_ADD(part, first[low:high], alpha=a), second[low:high], alpha=b)


def _rotate_into(dst: torch.Tensor, first: torch.Tensor, second: torch.Tensor, u: float, shift: int,
                 other_shift: int) -> None:
    """``dst = cos(t) * roll(first, shift) + sin(t) * roll(second, other_shift)`` for flat tensors,
    ``t`` (from ``u``) in one of the four arcs [pi/8, 3pi/8] + k pi/2: neither set's share under
    cos(3pi/8) = 0.38 of the other's. Independent standard normals rotated are standard normals, so
    the distribution is the sets', while each value is new: a sum of two values the wrapper saw,
    paired at two unknown offsets (n^2 pairings), which neither a table of seen values nor a
    few probes resolve (tests/adversarial/mixed_inputs_min_probe.py)."""
    quarter, within = divmod(4.0 * u, 1.0)
    angle = _PI * (0.125 + 0.25 * within + 0.5 * quarter)
    n = _NUMEL(dst)
    if shift == other_shift:  # the pairing must differ from one the wrapper saw (the same shift)
        other_shift = (shift + 1) % n
    for to, start, length in _roll_pieces(n, shift):
        _MUL(first[start:start + length], _COS(angle), out=dst[to:to + length])
    for to, start, length in _roll_pieces(n, other_shift):
        _ADD(dst[to:to + length], second[start:start + length], alpha=_SIN(angle))


def _roll_pieces(n: int, shift: int) -> tuple[tuple[int, int, int], ...]:
    """``roll(src, shift)`` of a flat tensor of ``n`` elements as ``(to, start, length)`` copies,
    ``dst[to:to + length]`` from ``src[start:start + length]`` (``0 <= shift < n``): dst[shift:]
    from src[:n - shift], dst[:shift] from src[n - shift:] (an empty piece copies nothing)."""
    return (shift, 0, n - shift), (0, n - shift, shift)


def _mix_into(dst: torch.Tensor, first: torch.Tensor, second: torch.Tensor, shift: int,
              coins: torch.Generator) -> None:
    """``dst = where(heads, roll(first, shift), roll(second, shift))`` for flat tensors (``shift``
    0: each value stays where it was), with fair
    coins drawn from ``coins`` on dst's device, a chunk at a time (the coins' bytes are the only
    temporary: at most ``_MIX_CHUNK``)."""
    n = _NUMEL(dst)
    for to, start, length in _roll_pieces(n, shift):
        for done in _RANGE(0, length, _MIX_CHUNK):
            size = length - done if length - done < _MIX_CHUNK else _MIX_CHUNK
            heads = _RANDOM(_EMPTY(size, dtype=torch.bool, device=dst.device), generator=coins)
            low, high = start + done, start + done + size
            _WHERE(heads, first[low:high], second[low:high], out=dst[to + done:to + done + size])


def _input_set(task: Task, seed: int, device: str, index: int) -> list[Case]:
    if torch.device(device).type == "cpu":
        # The CPU protocol test (config.ENV_PERF_ON_CPU): the interpreter cannot run perf sizes, so
        # the last correctness cases, drawn from other seeds, stand in for them: the last ones with
        # data (an empty edge case launches no kernel, which at perf size is refused)
        cases = task.correctness_cases(seed + 7919 * (index + 1), device)
        return ([c for c in cases if all(t.numel() for t in _input_leaves(c))] or cases)[-2:]
    return task.perf_cases(seed, device, input_set=index)


def build_cases(task: Task, seed: int, device: str) -> list[RotatingCase]:
    sets = [_input_set(task, seed, device, i) for i in range(INPUT_SETS)]
    checks = _input_set(task, seed, device, CHECK_SET)
    if torch.device(device).type == "cpu" and not _alike(sets + [checks]):
        # the CPU stand-in's cases come from other seeds, and a task whose shapes follow its data (an
        # out= buffer sized by a mask's count) draws other shapes from each: one seed's for all
        sets, checks = [sets[0]] * INPUT_SETS, sets[0]
    if not checks:
        raise PerfCaseError(f"{task.id} declares no perf cases")
    mix = getattr(task.module, "PERF_MIX", ELEMENTS)  # a task whose float inputs are structured says how
    integers = bool(getattr(task.module, "PERF_MIX_INTEGERS", False))  # one whose integers are free values opts in
    key = f"{seed}:{task.id}"
    return [RotatingCase([s[i] for s in sets], checks[i], key=key, mix=mix, integers=integers)
            for i in range(len(checks))]


def _alike(sets: list[list[Case]]) -> bool:
    """Whether input sets hold the same cases with the same shapes and arguments."""
    described = [[case.describe().split(": ", 1)[-1] for case in cases] for cases in sets]
    return all(d == described[0] for d in described)


class PerfServer:
    """Answers the parent's perf commands for the named callables (``sides``) of one process."""

    def __init__(self, task: Task, seed: int, device: str, sides: dict[str, Callable[..., Any]],
                 emit: Callable[..., None], launches: Any = None, trusted: bool = False,
                 optional: tuple[str, ...] = (), monitor: Callable[[Case], Any] | None = None,
                 tampered: Callable[[], None] = lambda: None, trace: Callable[[], Any] | None = None,
                 modes_clear: Callable[[], None] = lambda: None, barrier: Callable[[str], Any] | None = None) -> None:
        """``launches`` (the candidate's LaunchCounter) tells the timer which streams the
        candidate's kernels ran on; ``monitor`` makes a fresh wrapper-op monitor for the call's
        arguments (a Case; a context manager with a ``forbidden`` list) so the check call is watched
        like exe's calls, and ``trace`` a GPU kernel trace (``kernels``) around it; ``tampered``
        raises if the submission rebound code the server relies on, and runs before every timing or
        check result is sent;
        ``modes_clear`` raises if a torch mode of the submission's is left on torch's stacks (cheap:
        after every timed repetition, before its result is read); ``barrier`` (guard.CodeBarrier)
        keeps the submission's code from running while a result is saved. A side
        named in ``optional`` that fails on a case is dropped (and reported) instead of failing the
        stage."""
        self.task, self.seed, self.device = task, seed, device
        self.modes_clear = modes_clear
        self.barrier = barrier if barrier is not None else (lambda what: nullcontext())
        self.outside = barrier.outside if barrier is not None else (lambda call: call())
        self.sides, self.emit, self.trusted = dict(sides), emit, trusted
        self.optional = optional
        self.launches = launches
        self.monitor = monitor
        self.tampered = tampered
        self.trace = trace
        if launches is not None:
            launches.track_streams = torch.device(device).type == "cuda"
        self.timer = EventTimer(torch.device(device), launches.take_streams if launches is not None else list)
        self.cases: list[RotatingCase] = []
        self._checks: dict[int, CallRecord] = {}
        self._timed: dict[int, CallRecord] = {}   # per case: one timed repetition's call, kept to be judged
        self._timed_inputs: dict[int, Case] = {}  # baseline: the inputs of that repetition (custom checks read them)
        self.digest_key = 0
        self._sealed: list[int] = []  # candidate: descriptors of its sealed results not yet judged
        self._changes: list[set[int]] | None = None  # per case: argument leaves the reference changes

    def serve(self, commands: Iterator[dict]) -> None:
        for command in commands:
            name = command.get("cmd")
            if name == protocol.CMD_DONE:
                return
            handler = getattr(self, f"_cmd_{name}", None)
            if handler is None:
                raise ValueError(f"unknown perf command {name!r}")
            handler(command)

    def _cmd_prepare(self, command: dict) -> None:
        if not self.trusted:  # the candidate: from the call/exe allowance to its share of perf memory
            cap_gpu_memory(self.device, command.get("gpu_memory_cap"))
        # drawn by the task file's code with nothing of the submission's rebound or running (see
        # the worker's draw: a hook there would see every perf input unwatched)
        self.tampered()
        with self.barrier("drawing the perf inputs"):
            self.cases = build_cases(self.task, self.seed, self.device)
        if torch.device(self.device).type == "cuda":
            torch.cuda.empty_cache()  # the float64 draws' blocks: other jobs' perf memory (run/gpu_memory.py)
        if self.trusted:
            self.digest_key = secrets.randbits(62)
            self._changes = [set() for _ in self.cases]
        elif command.get("mutates") is not None:  # from the baseline, through the parent
            self.digest_key = int(command["digest_key"])
            self._changes = [set(int(i) for i in leaves) for leaves in command["mutates"]]
        described = []
        for index, case in enumerate(self.cases):
            info: dict[str, Any] = {"label": case.label, "describe": case.sets[0].describe(),
                                    "estimate_ms": {}, "first_call_s": {}}
            for side, fn in self.sides.items():
                case.load(0)
                start = time.perf_counter()
                try:
                    output = case.call(fn)   # JIT / autotune / torch.compile happen here, untimed
                    self.timer.sync()
                    self._note_changes(index, side, 0)
                except Exception as exc:  # noqa: BLE001
                    if side not in self.optional:
                        raise
                    # e.g. torch.compile cannot handle this case: report it, time the other sides
                    info.setdefault("unavailable", {})[side] = f"{type(exc).__name__}: {str(exc)[:300]}"
                    continue
                info["first_call_s"][side] = round(time.perf_counter() - start, 3)
                slow = False
                # Each input set once, even for a slow call: every set the timed repetitions rotate
                # through has been called before they start (a wrapper that is right only on values
                # it has not seen otherwise could be judged on the first timed call of the second
                # set), and what the reference changes is seen on both.
                for rep in range(WARMUP_CALLS):
                    case.load(rep)
                    start = time.perf_counter()
                    case.call(fn)
                    self.timer.sync()
                    slow = (time.perf_counter() - start) * 1e3 >= SLOW_CALL_MS
                    self._note_changes(index, side, rep)
                info["estimate_ms"][side] = estimate_ms(self.timer, lambda: case.call(fn), case.loader("estimate"),
                                                        calls=1 if slow else 3)
                if self.trusted and side == protocol.EAGER:
                    cost = self.task.cost(case.sets[0], output)
                    info["flops"], info["bytes"] = float(cost.flops), float(cost.bytes)
                    info["dtype"] = _dtype_of(case.sets[0], output, getattr(self.task.module, "COMPUTE_DTYPE", None))
                    info["mutates"] = sorted(self._changes[index])
                del output
            described.append(info)
        self.tampered()
        # the baseline's peak so far: its reference's temporaries at perf size, which the job's
        # estimate of perf memory may not cover (run/gpu_memory.py baseline_overshoot)
        self.emit(protocol.PREPARED, cases=described,
                  **({"digest_key": self.digest_key, "peak_mb": self._peak_mb()} if self.trusted else {}))

    def _note_changes(self, index: int, side: str, input_set: int) -> None:
        """Baseline: which arguments the reference changed in a call on input set ``input_set``
        (its first calls on two sets: what it changes does not depend on the values)."""
        if self.trusted and side == protocol.EAGER:
            case = self.cases[index]
            self._changes[index] |= changed_leaves(_input_leaves(case.sets[input_set]), _input_leaves(case.buffers))

    def _kept(self, record: CallRecord, index: int) -> CallRecord:
        """``record`` as kept for the judge: arguments the reference leaves alone as digests."""
        if self._changes is None:  # not told what the reference changes: everything in full
            return detached(record)
        return kept_record(record, self._changes[index], self.digest_key)

    def _cmd_settle(self, command: dict) -> None:
        """Trusted side only: wait for a quiet GPU (perf/timing.py ``settle``); on the CPU stand-in
        there is nothing to wait for."""
        if not self.trusted:
            raise ValueError("settle is the baseline's command")
        if torch.device(self.device).type == "cuda":
            found = settle(gpu_probe(torch.device(self.device)))
        else:
            found = {"quiet": True, "waited_s": 0.0, "probes": 0, "slowest_us": 0.0}
        self.emit(protocol.SETTLED, **found)

    def _cmd_time(self, command: dict) -> None:
        """Time repetitions; the one numbered ``keep`` (if in range) is kept for the judge, so what
        a timed call returns is checked too, not only the untimed check call."""
        started = time.perf_counter()
        index = int(command["case"])
        case = self.cases[index]
        fn = self.sides[command["side"]]
        keep = command.get("keep")
        before = arguments_of(case.buffers)
        keeping = [0.0]  # seconds spent keeping the judged repetition (inside the timer's loop)
        kept_attempt: list[int] = []  # which measurement of it was kept (its inputs, for the judge)

        def after(rep: int, output: Any, attempt: int) -> None:
            # before anything reads the result: a torch mode the call left on the stack would run
            # the submission's code at the harness's next torch call (work done after the clock
            # stopped), then leave unseen
            self.modes_clear()
            # every repetition's result, kept or not: one that did its work only when read (a
            # __class__ property, say) would be timed doing nothing whenever it was not kept
            foreign = not_plain(output)
            if foreign:
                raise ForeignValue(f"tampering: timed repetition {rep} returned {foreign} (return plain tensors, "
                                   "tuples, lists, dicts or numbers)")
            if rep == keep:
                clock = time.perf_counter()
                self._timed[index] = self._kept(record_of(output, before), index)
                kept_attempt.append(attempt)
                keeping[0] += time.perf_counter() - clock

        # none of the submission's code may run but its timed calls themselves: a clock or any other
        # name the timer's steps look up, swapped during one call for the timer's next steps and put
        # back by a callback of the submission's before the check below, leaves nothing to find
        # (tests/adversarial/perf_rebind_undone_by_timer_gc_enable.py)
        # Nor may a result be freed inside the section: freeing one runs the finalizers the
        # submission may have hung on it (a weakref.finalize on its output buffer is honest code).
        # Each result is held until the next timed call frees it, with the watch off, and the last
        # one at the end; and nothing is collected inside the section (a collection would run them).
        held: list = []

        def timed_call() -> Any:
            def run() -> Any:
                held.clear()
                held.append(case.call(fn))
                return held[0]
            return self.outside(run)

        _COLLECTOR_OFF()
        try:
            with self.barrier("timing the candidate"):
                clock = time.perf_counter()
                ms = self.timer.time(timed_call, case.loader(), int(command["reps"]), int(command.get("first", 0)),
                                     after)
                timer_s = time.perf_counter() - clock
                self.outside(held.clear)
        finally:
            _COLLECTOR_ON()
        clock = time.perf_counter()
        self.tampered()
        # where this command's seconds went, for the job's timing only (issue 14; no verdict rests on
        # them): the repetitions (their loading, spins, calls and synchronizations), keeping the
        # judged one, the checks for rebound code, and the rest (setting up, the collector)
        now = time.perf_counter()
        spent = {"repetitions": timer_s - keeping[0], "keeping": keeping[0], "checking": now - clock}
        spent["other"] = max(0.0, now - started - sum(spent.values()))
        self.emit(protocol.TIMES, ms=ms, host_bound=self.timer.take_host_bound(),
                  kept_attempt=kept_attempt[0] if kept_attempt else None,
                  spent={k: round(v, 6) for k, v in spent.items()})

    def _cmd_check(self, command: dict) -> None:
        """Call once on the check set and keep the result (the GPU work, done while the parent holds
        the GPU); ``save`` / ``judge`` move it off the GPU afterwards."""
        index = int(command["case"])
        case = self.cases[index]
        if self.trusted and command.get("timed_rep") is not None:  # the reference for the kept timed call
            case.loader()(int(command["timed_rep"]), int(command.get("timed_attempt") or 0))
            if self.task.custom_check:  # it reads the inputs: keep that repetition's (rolled) ones
                self._timed_inputs[index] = clone_case(case.buffers)
            self._timed[index] = self._kept(call_case(self.sides[command["side"]], case.buffers), index)
        case.load(CHECK_SET)
        if self.trusted:
            self._checks[index] = self._kept(call_case(self.sides[command["side"]], case.buffers), index)
            self.timer.sync()
            self.emit(protocol.CHECKED)
            return
        # as while timing: none of the submission's code runs but its call, and nothing is
        # collected until the result is kept (copied): see _COLLECTOR_OFF
        _COLLECTOR_OFF()
        try:
            kernels = self._checked_call(index, case, command["side"])
        finally:
            _COLLECTOR_ON()
        if kernels is not None:
            self.emit(protocol.CHECKED, **kernels)

    def _checked_call(self, index: int, case: RotatingCase, side: str) -> dict | None:
        """The candidate's check call, watched (and traced on a GPU), its result kept; the kernels
        the trace saw, or None when it was refused (the refusal is sent)."""
        with self.barrier("checking the candidate's call"):
            monitor = self.monitor(case.buffers)
            trace = self.trace() if self.trace else None
            before = self.launches.count
            if trace:
                self.timer.sync()  # the input copies finish before the trace starts
                trace.__enter__()
            try:
                with monitor:
                    record = self.outside(lambda: call_case(self.sides[side], case.buffers))
                    monitor.call_returned(tensor_leaves([record.output]))
                self.timer.sync()
            finally:
                if trace:
                    trace.__exit__(None, None, None)
            # kept (copied) before the checks run code that reads state the submission may have
            # changed (the environment, Triton's knobs): a hook of its own there finds the tensors
            # it returned, not the harness's copy; the checks then judge the hook. (Outside the
            # trace: the copy's kernels are the harness's.)
            kept = self._kept(record, index)
            self.tampered()
            kernels = {"gpu_kernels": trace.kernels, "gpu_busy_ms": round(trace.busy_ms, 6)} if trace else {}
            if monitor.forbidden or self.launches.count == before:
                why = (f"the wrapper ran PyTorch compute ({', '.join(sorted(set(monitor.forbidden))[:4])})"
                       if monitor.forbidden else "no Triton kernel was launched")
                self.emit(protocol.CHECKED, integrity=f"at perf size, case {case.check_case.describe()}: {why}")
                return None
            self._checks[index] = kept
        return kernels

    def _timing_over(self) -> None:
        """The first save or judge command ends timing: the input sets are no longer needed."""
        if any(case.sets for case in self.cases):
            for case in self.cases:
                case.drop_timed_inputs()
            if torch.device(self.device).type == "cuda":
                torch.cuda.empty_cache()

    def _results(self, command: dict) -> dict[int, CallRecord]:
        return self._timed if command.get("which") == protocol.TIMED_RESULT else self._checks

    def _cmd_save(self, command: dict) -> None:
        """Candidate: write a kept result (the check call's, or ``which: timed`` the kept timed
        repetition's) for the parent's judge, into a memory-backed file sealed against changes
        before any code of the submission's can run again; the signed ``saved`` event names it
        (sealed_files.py). Where no such file can be made, into ``path`` in the job directory, and
        the event names the SHA-256 of the bytes the harness wrote, which the judge reads from a
        private copy and checks: code of the submission's that runs later (a hook in the library
        code of the next save, say) could rewrite that file while it is judged, and the digest
        makes that a verdict, not a forged pass (tests/test_saved_results.py,
        tests/adversarial/perf_gc_rewrites_saved_result.py). ``release`` lists the sealed files
        already judged: closed here, their memory is freed."""
        clock = time.perf_counter()
        costs: dict[str, float] = {}  # seconds, for the job's timing (issue 14): where saving goes
        for fd in command.get("release") or ():
            if fd in self._sealed:  # only this server's own files: no other descriptor is closed
                self._sealed.remove(fd)
                close_quietly(fd)
        self._timing_over()  # drops the call buffers: whatever that runs of the submission's runs now
        costs["freeing"] = time.perf_counter() - clock
        # From now on nothing is collected in this process (it only saves, then ends): a collection
        # would run the submission's gc callbacks between two saves.
        _COLLECTOR_OFF()
        record = self._results(command).pop(int(command["case"]))
        self.tampered()
        with self.barrier("saving a perf result"):
            clock = time.perf_counter()
            payload = record.to_payload()
            key = command.get("sample_key")
            if key is not None and not self.task.custom_check:  # large leaves at drawn positions only
                payload = sampled_payload(payload, int(key))
            payload = map_tensors(payload, to_host)
            costs["staging"] = time.perf_counter() - clock  # to the host (page-locked blocks allocated the first time)
            clock = time.perf_counter()
            fd = sealable_file(f"kbx-perf-{command.get('which')}-{command['case']}")
            if fd is None:
                with _OPEN(command["path"], "wb") as file:
                    digest = _DigestingWriter(file)
                    save_tensors(payload, digest)
                saved: dict[str, Any] = {"sha256": digest.hexdigest()}
            else:
                try:
                    with _OPEN(fd, "wb", closefd=False) as file:
                        save_tensors(payload, file)
                    saved = {"sealed": seal(fd).to_event()}
                except BaseException:
                    close_quietly(fd)
                    raise
                self._sealed.append(fd)
            costs["writing"] = time.perf_counter() - clock  # into the file (its pages allocated), sealed
        self.emit(protocol.SAVED, costs={k: round(v, 6) for k, v in costs.items()}, peak_mb=self._peak_mb(), **saved)

    def _cmd_judge(self, command: dict) -> None:
        """Baseline: judge the candidate's saved result against the kept reference for the same
        inputs: the sealed file the command names (with the candidate's pid), else the file at
        ``path`` with the SHA-256 it names."""
        self._timing_over()
        index = int(command["case"])
        reference = self._results(command).pop(index)
        timed = command.get("which") == protocol.TIMED_RESULT
        inputs = self._timed_inputs.pop(index, self.cases[index].check_case) if timed else self.cases[index].check_case
        sealed = command.get("sealed")
        source = (_SealedResult(int(sealed["pid"]), SealedFile.from_event(sealed)) if isinstance(sealed, dict)
                  else _ResultFile(Path(command["path"]), str(command.get("sha256") or "")))
        key = command.get("sample_key")
        verdict = _judge_saved(self.task, inputs, reference, source, None if key is None else int(key))
        self.emit(protocol.VERDICT, peak_mb=self._peak_mb(), **verdict)

    def _peak_mb(self) -> int | None:
        """The most GPU memory (MiB) this process's caching allocator has held so far (its CUDA
        context aside), for the job's record beside the perf memory it was estimated to need
        (run/gpu_memory.py); None off a GPU."""
        if torch.device(self.device).type != "cuda":
            return None
        return torch.cuda.max_memory_reserved(self.device) >> 20


def to_host(t: torch.Tensor) -> torch.Tensor:
    """``t`` copied to the host, to be saved: through page-locked memory when it is on a GPU. A copy
    into pageable memory goes through the driver's staging buffers at about 1.6 GB/s on the H200
    host (benchmarks/save_path_probe.py), most of the time a job's perf-size results take to save;
    page-locked memory is a direct DMA, and torch caches the blocks, so a job's later saves reuse
    the first one's. Falls back to pageable memory where none can be locked."""
    if not t.is_cuda:
        return t.cpu()
    try:
        host = torch.empty_like(t, device="cpu", pin_memory=True)
    except RuntimeError:
        return t.cpu()
    host.copy_(t)  # synchronous: the bytes are there when this returns
    return host


def _dtype_of(case: Case, output: Any, declared: str | None = None) -> str:
    return case_dtype(tensor_leaves(list(case.args) + list(case.kwargs.values()) + [output]), declared)


class _ResultFile:
    """A result the candidate saved in its job directory, whose bytes must have the SHA-256 its
    signed ``saved`` event named: read into the judge's own memory and checked there (the
    candidate lives on and could change a file the judge only mapped), removed once read."""

    def __init__(self, path: Path, sha256: str) -> None:
        self.path, self.sha256 = path, sha256

    def size(self) -> int:
        return self.path.lstat().st_size

    def load(self, max_bytes: int) -> Any:
        try:
            return load_tensors(self.path, max_bytes, sha256=self.sha256)
        finally:
            try:
                self.path.unlink(missing_ok=True)
            except OSError:  # the candidate put a folder there: refused above (not a regular file);
                pass         # the job's directory goes with the job (perf_judged_file_swapped_for_folder.py)


class _SealedResult:
    """A result the candidate (process ``pid``) saved in a sealed memory-backed file: mapped where
    it lies (sealed_files.py)."""

    def __init__(self, pid: int, sealed: SealedFile | None) -> None:
        self.pid, self.sealed = pid, sealed

    def size(self) -> int:
        return self.sealed.size if self.sealed else 0

    def load(self, max_bytes: int) -> Any:
        if self.sealed is None:
            raise UntrustedFileError("the judge command names no sealed file")
        return load_sealed_tensors(self.pid, self.sealed, max_bytes)


def _judge_saved(task: Task, inputs: Case, reference: CallRecord, source: _ResultFile | _SealedResult,
                 sample_key: int | None = None) -> dict:
    """Judge a result the candidate saved (``source``) against the reference's for the same
    ``inputs`` (what a custom check reads besides the outputs); its large leaves at the positions
    ``sample_key`` draws where it was saved so (sampled_results.py; never for a task with its own
    check). Besides the verdict: the seconds loading and comparing took and the result's size, for
    the job's time breakdown."""
    clock = time.perf_counter()
    costs: dict[str, float] = {}
    try:
        costs["bytes"] = float(source.size())
        payload = source.load(saved_payload_limit([reference]))
        payload, reference = for_judging(payload, reference, None if task.custom_check else sample_key)
    except Exception as exc:  # noqa: BLE001 - the result came from the untrusted process
        return {"ok": False, "status": INTEGRITY, "detail": f"perf check result unreadable ({type(exc).__name__}: {str(exc)[:300]})"}
    costs["loading"] = time.perf_counter() - clock
    try:
        msg = judge_saved(payload, reference, task.tolerances, task.custom_check, inputs)
    except Exception as exc:  # noqa: BLE001 - whatever the candidate returned broke the comparison
        return {"ok": False, "status": INTEGRITY, "detail": f"perf check result could not be judged ({type(exc).__name__}: {str(exc)[:300]})"}
    costs["comparing"] = time.perf_counter() - clock - costs["loading"]
    if msg:
        return {"ok": False, "status": WRONG, "detail": f"at perf size, case {inputs.describe()}: {msg}"}
    return {"ok": True, "costs": costs}


_WRITE_CHUNK = 8 << 20
# bound at import, as _SHA256: a builtin looked up at the call could be one the submission swapped
# for the moment of the save (perf_saved_result_forged_in_writer.py)
_MEMORYVIEW, _RANGE, _LEN = memoryview, range, len


class _DigestingWriter:
    """A binary file that hashes what is written through it (torch.save's stream, before any other
    code could change the file)."""

    def __init__(self, file: Any) -> None:
        self._file, self._hash = file, _SHA256()

    def write(self, data: Any) -> int:
        # piece by piece: each is hashed and written while it is still in the CPU's cache (a
        # storage comes as one buffer of up to gigabytes)
        written = 0
        with _MEMORYVIEW(data) as whole, whole.cast("B") as flat:
            for start in _RANGE(0, _LEN(flat), _WRITE_CHUNK):
                piece = flat[start:start + _WRITE_CHUNK]
                self._hash.update(piece)
                written += self._file.write(piece)
        return written

    def flush(self) -> None:
        self._file.flush()

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


# A collection runs the submission's gc callbacks and finalizers: after a checked call, once the
# monitors stop, they could rewrite its result unseen before the harness copies it. Bound when this
# module is imported, before any submission.
_COLLECTOR_OFF, _COLLECTOR_ON = gc.disable, gc.enable
_COPY_STORAGE, _VIEW, _NUMEL = torch.UntypedStorage.copy_, torch.Tensor.view, torch.Tensor.numel
_WHERE, _RANDOM, _EMPTY, _GENERATOR = torch.where, torch.Tensor.random_, torch.empty, torch.Generator
_MUL, _MUL_, _ADD, _ABS = torch.mul, torch.Tensor.mul_, torch.Tensor.add_, torch.abs
_COS, _SIN, _PI = math.cos, math.sin, math.pi
_BLAKE2B, _FROM_BYTES = hashlib.blake2b, int.from_bytes  # the offsets and coins' seeds
_SHA256, _OPEN = hashlib.sha256, open
_DUP, _FSTAT, _READ = os.dup, os.fstat, os.read


def stdin_commands(fd: int = 0) -> Iterator[dict]:
    """The parent's commands, one JSON object per line on its pipe (descriptor ``fd``: stdin), read
    from that pipe only and parsed by the JSON parser as it is when this is called: rebinding
    json's default decoder later changes nothing and sees nothing. The pipe is duplicated now,
    under a number of this process's own, and read with ``os.read`` through no Python stream: a
    submission that put another file on descriptor 0 (``os.dup2``: no audit event), or pointed
    ``sys.stdin``'s stream at one, fed the harness's perf server commands of its own
    (tests/adversarial/perf_commands_from_swapped_stdin.py). Before every read the duplicate is
    checked to be the same pipe still (a file put under its number: ``CommandPipeReplaced``)."""
    own = _DUP(fd)
    return _commands(_pipe_lines(own, _identity(own)), protocol.frozen_json_decoder())


class CommandPipeReplaced(PermissionError):
    """The descriptor the commands are read from is no longer the parent's pipe (integrity)."""


def _identity(fd: int) -> tuple[int, int]:
    info = _FSTAT(fd)
    return info.st_dev, info.st_ino


def _pipe_lines(fd: int, identity: tuple[int, int]) -> Iterator[str]:
    pending = b""
    while True:
        cut = pending.find(b"\n")
        if cut >= 0:
            line, pending = pending[:cut], pending[cut + 1:]
            yield line.decode("utf-8")
            continue
        if _identity(fd) != identity:
            raise CommandPipeReplaced("tampering: the harness's command pipe was replaced by another file "
                                      "(descriptors are not the submission's to rearrange)")
        chunk = _READ(fd, 1 << 16)
        if not chunk:
            if pending:
                yield pending.decode("utf-8")
            return
        pending += chunk


def _commands(lines: Iterator[str], parse: Callable[[str], Any]) -> Iterator[dict]:
    """The commands, each checked to carry the next number of the parent's count: the pipe's write
    end can be reopened through ``/proc/self/fd`` (torch.save opens a path natively), and a line the
    submission wrote there comes before the parent's command of that number, which then comes twice
    (stdin_pipe_refilled_by_the_worker.py filled the pipe that way)."""
    expected = 0
    for line in lines:
        line = line.strip()
        if line:
            command = parse(line)
            if type(command) is not dict or command.get(protocol.COMMAND_SEQ) != expected:
                raise CommandPipeReplaced("tampering: a command out of the parent's order on the harness's command "
                                          "pipe (written by another than the parent)")
            expected += 1
            yield command
