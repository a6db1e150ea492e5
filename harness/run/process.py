"""Parent side of a worker: spawn it, follow its stages, enforce each stage's time limit, kill it.

The worker is started in its own session (process group) so that a timeout kills it and anything
it spawned. Its stdout/stderr go to files in the job dir (a submission may print anything).
Everything it sends is bounded: bytes and lines on the event pipe, stage events that may only move
forward (so none extends a deadline twice), and one wall-clock deadline for call and exe together.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from harness import protocol
from harness.bounded_io import read_tail
from harness.config import StageLimits
from harness.lifetime import signal_group
from harness.files import escape_surrogates
from harness.run.disk import DiskWatch
from harness.run.quiet import JobClock
from harness.run.zygote import ForkedChild, Zygote


# How long the parent waits to write one command into a worker's full command pipe before it
# counts the worker as no longer reading (a command is a short line; a reading worker takes it in
# microseconds).
SEND_WAIT_S = 5.0


@dataclass
class WorkerOutcome:
    """What the parent observed of one worker run."""

    stage: str = protocol.SPAWN           # last stage the worker announced
    report: dict | None = None            # the worker's final report, if it sent one
    timed_out: bool = False
    returncode: int | None = None
    seconds: float = 0.0
    close_s: float = 0.0                  # of ``seconds``: the parent's kill and reap of the process group
    stderr_tail: str = ""
    events: list[dict] = field(default_factory=list)   # the first MAX_KEPT_EVENTS
    protocol_error: str | None = None     # the worker broke the event protocol's bounds
    stage_times: dict[str, float] = field(default_factory=dict)  # parent clock, s after start, per stage
    report_time: float | None = None      # parent clock, s after start, when the report arrived
    calls: list[dict] = field(default_factory=list)  # call_done events, in order (kept if the worker dies)
    call_files: list[Path] = field(default_factory=list)  # where the tensors of each of those calls are
    stopped_early: bool = False           # the parent stopped it at a failing call (fail-fast)
    source_sha256: str | None = None      # of the submission file the worker was about to import

    def call_stage(self) -> dict:
        """The worker's ``call`` stage event (the kernel names and config count it announced), or {}."""
        return next((e for e in self.events if e.get("event") == protocol.STAGE and e.get("stage") == protocol.CALL),
                    {})

    def stage_durations(self) -> dict[str, float]:
        """Seconds spent in each stage as the parent saw it: from a stage's event to the next one
        (or the report); ``spawn`` is the start of the process up to its first event."""
        marks = [(protocol.SPAWN, 0.0)] + sorted(self.stage_times.items(), key=lambda item: item[1])
        ends = [t for _, t in marks[1:]] + [self.report_time if self.report_time is not None else self.seconds]
        return {stage: round(max(end - start, 0.0), 3) for (stage, start), end in zip(marks, ends)}

    def signal_name(self) -> str | None:
        """The signal the process died of (``SIGSEGV``, ...), None if it exited."""
        code = self.returncode
        if code is None or code >= 0:
            return None
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"

    def crash_reason(self) -> str:
        name = self.signal_name()
        if name is not None:
            why = {"SIGSEGV": "segmentation fault", "SIGKILL": "killed (out of memory?)",
                   "SIGABRT": "aborted", "SIGBUS": "bus error"}.get(name, name)
            return f"worker died: {why} ({name}) during {self.stage}"
        return f"worker exited with code {self.returncode} during {self.stage} without reporting (os._exit / sys.exit in the submission?)"


def _encodable(event: dict) -> dict:
    """``event`` with every lone surrogate in its text (JSON can carry ``\\udc80``; the submission's
    error messages can hold one) written as an escape: no later print or file write of it can fail."""
    def clean(value: object) -> object:
        if isinstance(value, str):
            return escape_surrogates(value)
        if isinstance(value, list):
            return [clean(v) for v in value]
        if isinstance(value, dict):
            return {clean(k): clean(v) for k, v in value.items()}
        return value
    return clean(event)


MAX_EVENT_BYTES = 8 << 20   # all events of one process (a worker sends a few kB; perf a few hundred)
MAX_LINE_BYTES = 1 << 20    # one event
MAX_KEPT_EVENTS = 1000
STDERR_TAIL_BYTES = 4000  # of a worker's stderr kept: room for faulthandler's stack of a native crash
MAX_CALLS = 128 * 256        # call_done events of one worker (configs x cases, far above any task)


class WorkerProcess:
    """One child process (``python -m <module> JOB FD``) and the parent's view of it: its events as
    they arrive, per-stage deadlines, a command channel (its stdin) when asked for, pause/resume of
    its whole process group, and a kill of that group at the end."""

    def __init__(self, module: str, job_dir: Path, spec: dict, env: dict[str, str], commands: bool = False,
                 name: str = "job", zygote: Zygote | None = None, after_import: dict | None = None,
                 clock: JobClock | None = None, warm: dict | None = None, disk_cap: int | None = None) -> None:
        """Start ``module`` with its files (spec, stdout, stderr) and working directory in ``job_dir``:
        forked by ``zygote`` when one is given and alive, else as a new interpreter. ``after_import``
        is the command sent once the child reports ``imported`` (a worker's inputs: its seed).
        ``clock``: the job's (run/quiet.py), on which this process's deadlines are read; the process
        is stopped with the job while another job is timed on its GPU. ``warm``: the zygote may serve
        it with a prewarmed spare (``Zygote.spawn``). ``disk_cap``: the most bytes its job directory
        may hold while it runs (run/disk.py; None: unwatched)."""
        self._after_import = after_import
        self.job_dir = job_dir
        job_file = job_dir / f"{name}.json"
        self._key = protocol.new_event_key()
        self._seq = 0
        self._commands_sent = 0  # each command carries its number: the worker reads them in order, once
        job_file.write_text(json.dumps({**spec, protocol.EVENT_KEY: self._key}))
        self._key = self._key.encode()
        self._read_fd, write_fd = os.pipe()
        self.outcome = WorkerOutcome()
        self._disk = DiskWatch(job_dir, disk_cap) if disk_cap else None
        self._buffer = b""
        self._received = 0
        self._start = time.monotonic()
        self._stderr = job_dir / f"{name}.stderr.txt"
        stdout = job_dir / f"{name}.stdout.txt"
        self.proc: subprocess.Popen | ForkedChild | None = None
        if zygote is not None and zygote.alive:
            try:
                self.proc = zygote.spawn(module, job_file, write_fd, job_dir, env, stdout, self._stderr, commands, warm)
            except RuntimeError:
                self.proc = None  # fall back to a new interpreter
        if self.proc is None:
            with open(stdout, "wb") as out, open(self._stderr, "wb") as err:
                self.proc = subprocess.Popen(
                    # -P: never import from the working directory (only the harness's own path counts)
                    [sys.executable, "-P", "-m", module, str(job_file), str(write_fd)],
                    cwd=job_dir, env=env, stdin=subprocess.PIPE if commands else subprocess.DEVNULL,
                    stdout=out, stderr=err, pass_fds=(write_fd,), start_new_session=True)
        os.close(write_fd)
        if self._disk is not None:
            self._disk.pid = self.proc.pid  # the files it deletes but keeps open count too
        self._closed = False
        self._reaped = False
        self._closing = 0.0
        self.clock = clock or JobClock()
        self.clock.add(self)
        # fail-fast (set by the runner): a test of each call as it is reported, and an event shared
        # by the job's processes; once a call fails, every process of the job stops listening
        self.stop_when: Callable[[dict, Path, object], bool] | None = None  # (call event, its file, kernel names)
        self.halt: threading.Event | None = None

    @property
    def pid(self) -> int:
        """The process's id, as the parent started it (the fork server's reply for a forked one)."""
        return self.proc.pid

    @property
    def containment(self) -> str:
        """How far the process's descendants are contained: a worker forked by the fork server
        (a subreaper) loses every process it detaches at once; a new interpreter only its group."""
        return "forkserver-subreaper" if isinstance(self.proc, ForkedChild) else "process-group"

    @property
    def started_as(self) -> str:
        """``spare`` (a child the fork server had prewarmed), ``fork`` (forked for this job) or
        ``interpreter`` (a new Python process)."""
        if isinstance(self.proc, ForkedChild):
            return "spare" if self.proc.prewarmed else "fork"
        return "interpreter"

    def next_event(self, deadline: float) -> dict | None:
        """The next event, or ``None`` when the deadline passes (``outcome.timed_out``) or the
        process is gone without sending one."""
        while True:
            if self.outcome.protocol_error:
                return None
            if b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                event = self._verified(line)
                if event is None:
                    return self._broken("an event line the harness did not sign (written by the submission?)")
                if event.get("event") == protocol.STAGE and not self._advance(event.get("stage")):
                    continue  # a repeated, backward or unknown stage changes nothing
                if event.get("event") == protocol.STAGE and event.get("stage") == protocol.LOAD:
                    digest = event.get("source_sha256")
                    self.outcome.source_sha256 = digest[:64] if isinstance(digest, str) else None
                if event.get("event") == protocol.CALL_DONE:
                    if len(self.outcome.calls) >= MAX_CALLS:
                        return self._broken(f"more than {MAX_CALLS} calls reported")
                    if event.get("index") != len(self.outcome.calls):  # its tensors are in the file of that index
                        return self._broken("call events out of order")
                    self.outcome.call_files.append(self.job_dir / protocol.call_outputs_file(len(self.outcome.calls)))
                    self.outcome.calls.append(event)
                    if self.stop_when is not None and self.stop_when(event, self.outcome.call_files[-1],
                                                                     self.outcome.call_stage().get("triton_kernels")):
                        return self._stop()
                    continue
                if len(self.outcome.events) < MAX_KEPT_EVENTS:
                    self.outcome.events.append(event)
                return event
            if len(self._buffer) > MAX_LINE_BYTES:
                return self._broken(f"an event line longer than {MAX_LINE_BYTES} bytes")
            if self.halt is not None and self.halt.is_set():
                return self._stop()  # another process of the job found a failing call
            remaining = deadline - self.clock.now()
            if remaining <= 0:
                self.outcome.timed_out = True
                return None
            too_much = self._disk.over() if self._disk else None
            if too_much:
                return self._broken(too_much)
            ready, _, _ = select.select([self._read_fd], [], [], min(remaining, 1.0))
            if not ready:
                if self.proc.poll() is None:
                    continue
                return None  # it exited and nothing is left to read (a grandchild may hold the pipe)
            chunk = os.read(self._read_fd, 1 << 20)
            if not chunk:
                return None
            self._received += len(chunk)
            if self._received > MAX_EVENT_BYTES:
                return self._broken(f"more than {MAX_EVENT_BYTES} bytes of events")
            self._buffer += chunk

    def _verified(self, line: bytes) -> dict | None:
        """The event on a signed line that comes next in sequence, else ``None``."""
        body = protocol.verified_body(self._key, line)
        if body is None:
            return None
        try:
            event = json.loads(body)
        except ValueError:
            return None
        if not isinstance(event, dict) or event.get(protocol.SEQ) != self._seq + 1:
            return None
        self._seq += 1
        return _encodable(event)

    def _advance(self, stage: object) -> bool:
        """Record a stage the worker entered, if it lies ahead of the current one."""
        order = protocol.STAGE_ORDER
        if stage not in order or order.index(stage) <= order.index(self.outcome.stage):
            return False
        self.outcome.stage = stage
        self.outcome.stage_times[stage] = round(time.monotonic() - self._start, 3)
        return True

    def _stop(self) -> None:
        """Stop listening at a failing call (fail-fast); the caller kills the process."""
        self.outcome.stopped_early = True
        if self.halt is not None:
            self.halt.set()
        return None

    def _broken(self, why: str) -> None:
        """Stop listening to a worker that broke the protocol's bounds (the caller kills it)."""
        self.outcome.protocol_error = why
        self._buffer = b""
        return None

    def follow_to_report(self, limits: StageLimits) -> dict | None:
        """Follow stage events (each stage under its own limit, all of them under one deadline that
        nothing the worker sends extends) until the final report."""
        hard = self.clock.now() + limits.setup + limits.load + limits.call + limits.exe
        deadline = self.clock.now() + limits.setup
        while True:
            event = self.next_event(min(deadline, hard))
            if event is None or self.outcome.protocol_error or self.outcome.stopped_early:
                return None
            if event.get("event") == protocol.STAGE:  # next_event passes only stages that advance
                deadline = self.clock.now() + limits.for_stage(event["stage"])
            elif event.get("event") == protocol.IMPORTED and self._after_import is not None:
                command, self._after_import = self._after_import, None  # once
                if not self.send(command):
                    return None
            elif event.get("event") == protocol.REPORT:
                self.outcome.report = event
                self.outcome.report_time = round(time.monotonic() - self._start, 3)
                return event

    def send(self, command: dict, wait_s: float = SEND_WAIT_S) -> bool:
        """Write one command line without blocking for more than ``wait_s``; False if the process
        no longer reads. The pipe is the worker's to fill: a submission that reopened its own
        stdin for writing (``/proc/self/fd/0``, through torch.save, which opens paths natively)
        filled it and stopped reading, and a blocking write then held the parent, and the run,
        forever (stdin_pipe_refilled_by_the_worker.py)."""
        try:
            fd = self.proc.stdin.fileno()
        except (AttributeError, OSError, ValueError):
            return False
        data = memoryview((json.dumps({**command, protocol.COMMAND_SEQ: self._commands_sent}) + "\n").encode())
        deadline = time.monotonic() + wait_s
        try:
            os.set_blocking(fd, False)
            while data:
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    select.select([], [fd], [], min(left, 0.05))
            self._commands_sent += 1
            return True
        except OSError:  # BrokenPipeError among them: it is gone
            return False

    def request(self, command: dict, reply: str, deadline: float) -> dict | None:
        """Send a command and wait for the event named ``reply``. Returns ``None`` on timeout or
        death; a ``report`` event (the process gave up with an error) is returned as is."""
        if not self.send(command):
            return None
        return self.wait_for(reply, deadline)

    def wait_for(self, reply: str, deadline: float) -> dict | None:
        """The next event named ``reply`` (or a ``report``: the process gave up), ``None`` on
        timeout or death; events of other names in between are skipped."""
        while True:
            event = self.next_event(deadline)
            if event is None or event.get("event") in (reply, protocol.REPORT):
                return event

    def pause(self) -> None:
        signal_group(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        signal_group(self.proc.pid, signal.SIGCONT)

    def close(self, reap: bool = True) -> WorkerOutcome:
        """Kill the process group (if still running) and finish the outcome record; with
        ``reap=False`` the group is killed but not waited for (:meth:`reap` does that later: a
        GPU worker's teardown takes tenths of a second, which its verdict need not wait for)."""
        if not self._closed:
            self._closed = True
            self._closing = time.monotonic()
            self.clock.discard(self)  # its pid may be reused once it is reaped: never signalled again
            self.send({"cmd": protocol.CMD_DONE}, wait_s=0.0)  # (it is killed next: a courtesy, never a wait)
            signal_group(self.proc.pid, signal.SIGKILL)
            if self.proc.stdin:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass
            os.close(self._read_fd)
            self.outcome.seconds = time.monotonic() - self._start
        if reap:
            self.reap()
        return self.outcome

    def reap(self) -> WorkerOutcome:
        """Wait for the killed process (see :meth:`close`): its exit code, how long killing and
        reaping it took, and its stderr's tail."""
        if self._closed and not self._reaped:
            self._reaped = True
            self.outcome.returncode = self.proc.wait()
            # its life includes its end (a result built before, of a job reaped later, keeps the kill's time)
            self.outcome.seconds = time.monotonic() - self._start
            self.outcome.close_s = time.monotonic() - self._closing
            self.outcome.stderr_tail = read_tail(self._stderr, STDERR_TAIL_BYTES)
        return self.outcome
