"""The parent <-> child process protocol: names of the processes, events, stages, commands and files.

A child process (an untrusted worker, the trusted baseline process, the fork server) is started as
``python -P -m MODULE JOB_FILE FD`` and writes one signed JSON object per line to file descriptor
``FD`` (see "signed events" below); each object has an ``event`` field. Workers and perf children also read one JSON command per line on stdin.
Every name either side uses is defined here once, so the two sides cannot drift apart; the status
words inside a ``report`` event are the verdict words of :mod:`harness.verdicts` (plus ``RAN``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Any, Callable

from harness.lifetime import die_with_parent_from_env
from harness.niceness import keep_niceness

# -- child processes (named by module, never imported by the parent) ---------------------------
WORKER_MODULE = "harness.sandbox.worker"          # runs one untrusted submission
FORKSERVER_MODULE = "harness.sandbox.forkserver"  # pre-imports, then forks workers
BASELINE_MODULE = "harness.perf.baseline"         # trusted: eager / torch.compile timings

# -- files in a job's directory ----------------------------------------------------------------
SUBMISSION_FILE = "submission.py"


def call_outputs_file(index: int) -> str:
    """The file a worker writes the tensors of its ``index``-th call to (in its job dir)."""
    return f"call_{index}.pt"

# -- events (child -> parent) --------------------------------------------------------------------
STAGE = "stage"          # {stage, ...}: the child entered a stage (its time limit starts)
CALL_DONE = "call_done"  # {index, facts, outputs_sha256}: one call of the entry function is done
REPORT = "report"        # {stage, status, detail, ...}: the child's final word on call/exe
PREPARED = "prepared"    # perf: warm-up done, {cases: [...]}
TIMES = "times"          # perf: {ms: [...]}
CHECKED = "checked"      # perf: check-set call done ({integrity} if it was not Triton's work)
SAVED = "saved"          # perf: a kept result written ({sealed: {fd, ino, dev, size}} or {sha256})
VERDICT = "verdict"      # perf (baseline): {ok, status, detail} for the candidate's check result
SETTLED = "settled"      # perf (baseline): the GPU is quiet, or the wait is over ({quiet, waited_s, probes, slowest_us})
READY = "ready"          # fork server: imports done
IMPORTED = "imported"    # worker: the submission is imported; it waits for CMD_INPUTS before drawing any input

# -- stages, in order ------------------------------------------------------------------------------
SPAWN, SETUP, LOAD, CALL, EXE, PERF = "spawn", "setup", "load", "call", "exe", "perf"
# The stages a worker announces while the parent follows it to its report, in order; the parent
# accepts each only once and only forward (perf has deadlines of its own, see run/perf_stage.py).
STAGE_ORDER = (SPAWN, SETUP, LOAD, CALL, EXE)
CALL_STAGES = (SPAWN, SETUP, LOAD, CALL)   # a failure here fails `call`; later ones fail `exe`

#: A worker's report status for "ran every case; the parent judges the outputs".
RAN = "ran"

# -- commands (parent -> child, on its stdin) ------------------------------------------------------
CMD_PREPARE, CMD_TIME, CMD_CHECK, CMD_SAVE, CMD_JUDGE, CMD_DONE = "prepare", "time", "check", "save", "judge", "done"
# baseline: wait until the GPU has finished other (stopped) jobs' queued work, before a job is timed
CMD_SETTLE = "settle"
# worker: {seed} of the run, sent only once the submission is imported (after IMPORTED), so nothing
# in the process can know the inputs while the submission's import-time code runs
CMD_INPUTS = "inputs"

# ``which`` result a perf ``save`` / ``judge`` command means: the check call's, or the kept timed repetition's
CHECK_RESULT, TIMED_RESULT = "check", "timed"

# -- perf sides ----------------------------------------------------------------------------------
CANDIDATE, EAGER, COMPILE = "candidate", "eager", "compile"


# -- signed events ------------------------------------------------------------------------------
# Every event line is ``MAC JSON``: an HMAC-SHA256 of the JSON text under a key the parent makes for
# each process (``event_key`` in its job spec, which the child deletes once read) and a ``seq`` number
# inside the JSON. A submission can write to the pipe's descriptor, but without the key what it
# writes is not an event: the parent stops at the first line that fails the check.
EVENT_KEY = "event_key"
SEQ = "seq"
# Each command the parent writes carries its number (0, 1, ...), checked by the worker's reader
# (perf/server.py): a line on the pipe out of that order was written by another than the parent.
COMMAND_SEQ = "command_seq"


def new_event_key() -> str:
    return secrets.token_hex(32)


def sign(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).hexdigest().encode()


def verified_body(key: bytes, line: bytes) -> bytes | None:
    """The JSON text of a signed line, or ``None`` if the signature does not hold."""
    mac, _, body = line.partition(b" ")
    return body if hmac.compare_digest(mac, sign(key, body)) else None


def _frozen_json_encoder() -> Callable[[Any], str]:
    """A JSON encoder bound now to the C implementation's functions: later rebinding of ``json``'s
    module attributes (by a submission) cannot change what a worker sends."""
    try:
        from _json import encode_basestring_ascii, make_encoder
    except ImportError:  # pragma: no cover - CPython always has _json
        return json.dumps

    def refuse(value: Any) -> Any:
        raise TypeError(f"an event field of type {type(value).__name__} is not JSON")

    iterencode, join = make_encoder(None, refuse, encode_basestring_ascii, None, ": ", ", ", False, False, True), "".join
    return lambda value: join(iterencode(value, 0))


def frozen_json_decoder() -> Callable[[str], Any]:
    """A JSON parser bound now to the C scanner with json's default settings: unlike ``json.loads``,
    which looks json's module-level default decoder up at every call, nothing a submission rebinds
    later (that decoder, say, to read the parent's commands: which timed repetition is judged, the
    seed the inputs' arrangement derives from) sees or changes what a worker parses."""
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - CPython always has _json
        return json.loads
    scan, strip = make_scanner(json.JSONDecoder()), str.strip

    def parse(text: str) -> Any:
        text = strip(text)
        try:
            value, end = scan(text, 0)
        except StopIteration as stop:
            raise ValueError(f"not JSON at character {stop.value}") from None
        if end != len(text):
            raise ValueError(f"extra data after the JSON value at character {end}")
        return value

    return parse


class EventWriter:
    """Writes signed events, one per line, to the parent's pipe (the child side of the protocol).
    It binds what it uses when made, before any submission code runs."""

    def __init__(self, fd: int, key: str) -> None:
        self._write = os.write
        self._fd = fd
        self._key = key.encode()
        self._encode = _frozen_json_encoder()
        try:
            from _hashlib import hmac_digest
            self._mac: Callable[[bytes, bytes], bytes] = lambda k, body: hmac_digest(k, body, "sha256").hex().encode()
        except ImportError:  # pragma: no cover - Python built without OpenSSL
            self._mac = sign
        self._seq = 0

    def emit(self, event: str, **fields: Any) -> None:
        self._seq += 1
        body = self._encode({"event": event, SEQ: self._seq, **fields}).encode()
        line = self._mac(self._key, body) + b" " + body + b"\n"
        while line:
            line = line[self._write(self._fd, line):]


def start_child(argv: list[str]) -> tuple[dict, EventWriter]:
    """What a child process does first (``argv`` = ``[JOB_FILE, FD]``): tie its life to its parent's,
    read its job spec and delete it (it holds the event key), open its event pipe; started in a
    session of its own, it keeps its parent's CPU priority (niceness.py)."""
    die_with_parent_from_env()
    keep_niceness()
    spec_file = Path(argv[0])
    job = json.loads(spec_file.read_text())
    spec_file.unlink(missing_ok=True)
    return job, EventWriter(int(argv[1]), job.pop(EVENT_KEY))

# The compile figures a worker reports (sandbox/compile_times.py) and the parent keeps
# (run/compile_times.py): at most this many kernels, names cut at this length.
COMPILE_TIMES_MAX_KERNELS = 64
COMPILE_TIMES_MAX_NAME = 120
