"""Parent side of a worker: spawn it, follow its stages, enforce each stage's time limit, kill it.

The worker is started in its own session (process group) so that a timeout kills it and anything
it spawned. Its stdout/stderr go to files in the job dir (a submission may print anything).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import harness


@dataclass
class StageLimits:
    """Seconds allowed per worker stage. ``call``/``exe`` cover all cases (and configs)."""

    setup: float = 180.0
    load: float = 60.0
    call: float = 300.0
    exe: float = 300.0

    def for_stage(self, stage: str) -> float:
        return float(getattr(self, stage, self.call))


@dataclass
class WorkerOutcome:
    """What the parent observed of one worker run."""

    stage: str = "spawn"                  # last stage the worker announced
    report: dict | None = None            # the worker's final report, if it sent one
    timed_out: bool = False
    returncode: int | None = None
    seconds: float = 0.0
    stderr_tail: str = ""
    events: list[dict] = field(default_factory=list)

    def crash_reason(self) -> str:
        code = self.returncode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            why = {"SIGSEGV": "segmentation fault", "SIGKILL": "killed (out of memory?)",
                   "SIGABRT": "aborted", "SIGBUS": "bus error"}.get(name, name)
            return f"worker died: {why} ({name}) during {self.stage}"
        return f"worker exited with code {code} during {self.stage} without reporting (os._exit / sys.exit in the submission?)"


def _harness_pythonpath() -> str:
    return str(Path(harness.__file__).resolve().parent.parent)


def run_worker(job_dir: Path, spec: dict, env: dict[str, str], limits: StageLimits) -> WorkerOutcome:
    """Run ``python -m harness.worker`` for ``spec`` and watch it until it reports, dies or times out."""
    job_file = job_dir / "job.json"
    job_file.write_text(json.dumps(spec))
    read_fd, write_fd = os.pipe()
    outcome = WorkerOutcome()
    start = time.monotonic()
    with open(job_dir / "stdout.txt", "wb") as out, open(job_dir / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "harness.worker", str(job_file), str(write_fd)],
            cwd=job_dir, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            pass_fds=(write_fd,), start_new_session=True)
    os.close(write_fd)
    try:
        _follow(proc, read_fd, outcome, limits)
    finally:
        os.close(read_fd)
        _kill_group(proc)
        outcome.returncode = proc.wait()
        outcome.seconds = time.monotonic() - start
        outcome.stderr_tail = _tail(job_dir / "stderr.txt")
    return outcome


def _follow(proc: subprocess.Popen, fd: int, outcome: WorkerOutcome, limits: StageLimits) -> None:
    buffer = b""
    deadline = time.monotonic() + limits.setup
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            outcome.timed_out = True
            return
        ready, _, _ = select.select([fd], [], [], min(remaining, 1.0))
        if not ready:
            if proc.poll() is not None:
                ready = [fd]  # drain what is left
            else:
                continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if not isinstance(event, dict):
                continue
            outcome.events.append(event)
            if event.get("event") == "stage" and isinstance(event.get("stage"), str):
                outcome.stage = event["stage"]
                deadline = time.monotonic() + limits.for_stage(outcome.stage)
            elif event.get("event") == "report" and outcome.report is None:
                outcome.report = event
                return


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(path: Path, limit: int = 2000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode("utf-8", errors="replace")
