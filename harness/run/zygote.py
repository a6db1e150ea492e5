"""The parent's side of the fork server (``harness.sandbox.forkserver``, see there): start it once
per run and have it fork a worker per job, which saves each job the seconds of importing torch,
triton and the task files. :class:`Zygote` is shared by the runner's threads; :class:`ForkedChild`
is the subset of ``subprocess.Popen`` the parent uses for a forked worker.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from harness import protocol
from harness.lifetime import signal_group
from harness.run.quiet import JobClock

ZYGOTE_START_S = 120.0  # importing torch on a busy machine can be slow


class ForkedChild:
    """A worker forked by the zygote, with the subset of ``subprocess.Popen`` the parent uses."""

    def __init__(self, pid: int, stdin, prewarmed: bool = False) -> None:
        self.pid = pid
        self.stdin = stdin
        self.prewarmed = prewarmed  # a spare the server had ready (its setup partly done before the job)
        self.returncode: int | None = None
        self._done = threading.Event()

    def _exited(self, code: int) -> None:
        self.returncode = code
        self._done.set()

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        self._done.wait(timeout)
        return self.returncode


def control_pair() -> tuple[socket.socket, socket.socket]:
    """The parent's and the fork server's ends of their channel: one message per request and per
    reply (on a stream, a request sent without descriptors, a prewarm, and the next one can arrive
    in one read)."""
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


class _SpareProcess:
    """A spare the fork server keeps (a session leader): stopped and continued as a group."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def pause(self) -> None:
        signal_group(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        signal_group(self.pid, signal.SIGCONT)


class Zygote:
    """The parent's handle on a fork server process; thread-safe. Its spares (prewarmed children
    that no job has yet) are the processes of :meth:`spares_of`'s clocks, one per GPU, so a run
    stops them with that GPU's jobs while another job is timed (their CUDA start is GPU work)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        ours, theirs = control_pair()
        with open(log_dir / "zygote.log", "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-P", "-m", protocol.FORKSERVER_MODULE, str(theirs.fileno()), str(os.getpid())],
                                         env=env, cwd=log_dir, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         pass_fds=(theirs.fileno(),), start_new_session=True)
        theirs.close()
        self._sock = ours
        self._lock = threading.Lock()
        self._pending: dict[int, "queue.Queue[dict]"] = {}
        self._children: dict[int, ForkedChild] = {}
        self._early_exits: dict[int, int] = {}
        self._spare_clocks: dict[str | None, JobClock] = {}
        self._spares: dict[int, tuple[JobClock, _SpareProcess]] = {}
        self._next = 0
        self._ready = threading.Event()
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(ZYGOTE_START_S) or not self.alive:
            self.close()
            raise RuntimeError("the zygote did not start (see zygote.log)")

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self._sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self._dispatch(json.loads(line))
        with self._lock:  # the zygote is gone: nothing more will be reported
            self.alive = False
            children = list(self._children.values())
            pending = list(self._pending.values())
        for child in children:
            if child.returncode is None:
                child._exited(-signal.SIGKILL)
        for waiter in pending:
            waiter.put({"pid": -1})
        self._ready.set()

    def _dispatch(self, message: dict) -> None:
        if message.get(protocol.READY):
            self._ready.set()
        elif "req" in message:
            if message.get("prewarmed"):
                self._spare_taken(int(message["pid"]))
            with self._lock:
                waiter = self._pending.pop(message["req"])
            waiter.put(message)
        elif "spare" in message:
            spare = _SpareProcess(int(message["spare"]))
            clock = self.spares_of(message.get("visible"))
            with self._lock:
                self._spares[spare.pid] = (clock, spare)
            clock.add(spare)
        elif "spare_gone" in message:
            with self._lock:
                clock, spare = self._spares.pop(int(message["spare_gone"]), (None, None))
            if clock is not None:
                clock.discard(spare)
        elif "exit" in message:
            with self._lock:
                child = self._children.pop(message["exit"], None)
                if child is None:
                    self._early_exits[message["exit"]] = message["code"]
            if child is not None:
                child._exited(message["code"])

    def spares_of(self, visible: str | None) -> JobClock:
        """The clock whose processes are the spares for ``CUDA_VISIBLE_DEVICES=visible`` (a run
        joins it to that GPU's :class:`~harness.run.quiet.QuietGpu`)."""
        with self._lock:
            return self._spare_clocks.setdefault(visible, JobClock())

    def _spare_taken(self, pid: int) -> None:
        """A spare became a job's worker: no longer stopped with the spares (its job's clock holds
        it from now on), and continued if the spares are held now."""
        with self._lock:
            clock, spare = self._spares.pop(pid, (None, None))
        if clock is not None:
            clock.discard(spare, resume=True)

    def prewarm(self, module: str, warm: dict, env: dict[str, str], spares: int = 1) -> None:
        """Have ``spares`` spares kept ready for requests of ``module`` with ``warm`` and ``env``'s
        device variables (each replaced as a request takes it), so the first ones start in them too."""
        message = (json.dumps({"prewarm": True, "module": module, "warm": warm, "env": env,
                               "spares": spares}) + "\n").encode()
        with self._lock:
            if self.alive:
                try:
                    self._sock.sendall(message)
                except OSError:  # too large for one message: the first job is forked, or not served here
                    pass

    def spawn(self, module: str, job_file: Path, events_fd: int, cwd: Path, env: dict[str, str],
              stdout: Path, stderr: Path, commands: bool, warm: dict | None = None) -> ForkedChild:
        """Fork a child that runs ``module.main([job_file, events_fd])``; raises if the zygote is gone.
        ``warm``: the argument of ``module.prewarm`` (JSON): the server keeps a spare child ready for
        the next such request (see harness/sandbox/forkserver.py), and this one may be served by one."""
        stdin_r = stdin_w = None
        if commands:
            stdin_r, stdin_w = os.pipe()
        fds = [events_fd] + ([stdin_r] if commands else [])
        waiter: "queue.Queue[dict]" = queue.Queue()
        with self._lock:
            if not self.alive:
                raise RuntimeError("the zygote is gone")
            self._next += 1
            req = self._next
            self._pending[req] = waiter
            request = {"req": req, "module": module, "job_file": str(job_file), "cwd": str(cwd), "env": env,
                       "stdout": str(stdout), "stderr": str(stderr)}
            if warm is not None:
                request["warm"] = warm
            try:
                socket.send_fds(self._sock, [(json.dumps(request) + "\n").encode()], fds)
            except OSError as exc:  # e.g. a request larger than one message may be: start a new interpreter
                del self._pending[req]
                if stdin_w is not None:
                    os.close(stdin_w)
                raise RuntimeError(f"the zygote could not be asked ({exc})") from None
            finally:
                if stdin_r is not None:
                    os.close(stdin_r)
        try:
            reply = waiter.get(timeout=ZYGOTE_START_S)
        except queue.Empty:
            reply = {"pid": -1}
        pid = int(reply["pid"])
        if pid < 0:
            if stdin_w is not None:
                os.close(stdin_w)
            raise RuntimeError("the zygote is gone")
        child = ForkedChild(pid, os.fdopen(stdin_w, "wb") if commands else None, bool(reply.get("prewarmed")))
        with self._lock:
            self._children[pid] = child
            early = self._early_exits.pop(pid, None)
        if early is not None:
            child._exited(early)
        return child

    def close(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._sock.close()
        self.proc.wait()
