"""The parent <-> child process protocol: names of the processes, events, stages, commands and files.

A child process (an untrusted worker, the trusted baseline process, the fork server) is started as
``python -P -m MODULE JOB_FILE FD`` and writes one JSON object per line to file descriptor ``FD``;
each object has an ``event`` field. Perf children also read one JSON command per line on stdin.
Every name either side uses is defined here once, so the two sides cannot drift apart; the status
words inside a ``report`` event are the verdict words of :mod:`harness.verdicts` (plus ``RAN``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from harness.lifetime import die_with_parent_from_env

# -- child processes (named by module, never imported by the parent) ---------------------------
WORKER_MODULE = "harness.sandbox.worker"          # runs one untrusted submission
FORKSERVER_MODULE = "harness.sandbox.forkserver"  # pre-imports, then forks workers
BASELINE_MODULE = "harness.perf.baseline"         # trusted: eager / torch.compile timings

# -- files in a job's directory ----------------------------------------------------------------
SUBMISSION_FILE = "submission.py"
OUTPUTS_FILE = "outputs.pt"

# -- events (child -> parent) --------------------------------------------------------------------
STAGE = "stage"          # {stage, ...}: the child entered a stage (its time limit starts)
REPORT = "report"        # {stage, status, detail, ...}: the child's final word on call/exe
PREPARED = "prepared"    # perf: warm-up done, {cases: [...]}
TIMES = "times"          # perf: {ms: [...]}
CHECKED = "checked"      # perf: check-set call done ({integrity} if it was not Triton's work)
SAVED = "saved"          # perf: check-set result written
VERDICT = "verdict"      # perf (baseline): {ok, status, detail} for the candidate's check result
READY = "ready"          # fork server: imports done

# -- stages, in order ------------------------------------------------------------------------------
SPAWN, SETUP, LOAD, CALL, EXE, PERF = "spawn", "setup", "load", "call", "exe", "perf"
# The stages a worker announces while the parent follows it to its report, in order; the parent
# accepts each only once and only forward (perf has deadlines of its own, see run/perf_stage.py).
STAGE_ORDER = (SPAWN, SETUP, LOAD, CALL, EXE)
CALL_STAGES = (SPAWN, SETUP, LOAD, CALL)   # a failure here fails `call`; later ones fail `exe`

#: A worker's report status for "ran every case; the parent judges the outputs".
RAN = "ran"

# -- commands (parent -> perf child, on its stdin) -----------------------------------------------
CMD_PREPARE, CMD_TIME, CMD_CHECK, CMD_SAVE, CMD_JUDGE, CMD_DONE = "prepare", "time", "check", "save", "judge", "done"

# -- perf sides ----------------------------------------------------------------------------------
CANDIDATE, EAGER, COMPILE = "candidate", "eager", "compile"


class EventWriter:
    """Writes one JSON object per line to the parent's pipe (the child side of the protocol)."""

    def __init__(self, fd: int) -> None:
        self._stream = os.fdopen(fd, "w", buffering=1, closefd=True)

    def emit(self, event: str, **fields: Any) -> None:
        self._stream.write(json.dumps({"event": event, **fields}) + "\n")
        self._stream.flush()


def start_child(argv: list[str]) -> tuple[dict, EventWriter]:
    """What a child process does first (``argv`` = ``[JOB_FILE, FD]``): tie its life to its parent's,
    read its job spec, open its event pipe."""
    die_with_parent_from_env()
    job = json.loads(Path(argv[0]).read_text())
    return job, EventWriter(int(argv[1]))
