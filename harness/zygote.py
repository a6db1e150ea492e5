"""A pre-started process that forks job workers (``python -P -m harness.zygote FD``).

A fresh ``python -m harness.worker`` spends seconds importing torch, triton and the task files
before it does anything for its job. The zygote pays that once and forks a child per job. It imports
only what every worker imports before it loads a submission (no job's data, no expected outputs),
never initialises CUDA, and is never given anything of a job except what that job's child gets, so
a child starts as a new worker process would, minus the imports. Each child makes itself a session
leader, takes its job's working directory, stdio and scrubbed environment, and then runs the same
``main`` a worker process runs; sandboxing and limits are applied there, as before.

Requests arrive as JSON on a Unix socket with the child's pipe ends attached (SCM_RIGHTS); the
zygote answers ``{"req", "pid"}`` at once and ``{"exit", "code"}`` when the child ends. The parent's
side is :class:`Zygote` (one per run, shared by the runner's threads) and :class:`ForkedChild`.
"""

from __future__ import annotations

import array
import importlib
import json
import os
import queue
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

MAX_FDS = 2
ZYGOTE_START_S = 120.0  # importing torch on a busy machine can be slow


def preload() -> None:
    """Import what every worker needs before it touches a submission."""
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401

    from harness import autotune, compare, integrity, invoke, perf, sandbox, worker  # noqa: F401
    from harness.task import all_tasks
    all_tasks()


def recv_request(sock: socket.socket) -> tuple[dict | None, list[int]]:
    """One newline-terminated JSON request and the file descriptors sent with it."""
    data, fds = b"", []
    while not data.endswith(b"\n"):
        msg, ancdata, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(MAX_FDS * array.array("i").itemsize))
        if not msg:
            return None, fds
        data += msg
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.extend(array.array("i", payload[: len(payload) - len(payload) % array.array("i").itemsize]))
    return json.loads(data), fds


def run_child(request: dict, fds: list[int], control: socket.socket) -> None:
    """In the forked child: become the job's worker process. Never returns."""
    code = 70
    try:
        control.close()
        os.setsid()
        events_fd = fds[0]
        stdin_fd = fds[1] if len(fds) > 1 else os.open(os.devnull, os.O_RDONLY)
        os.dup2(stdin_fd, 0)
        out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(out, 1)
        os.dup2(err, 2)
        for fd in {stdin_fd, out, err}:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        tempfile.tempdir = None  # TMPDIR is the job's now
        sys.argv = [request["module"], request["job_file"], str(events_fd)]
        code = importlib.import_module(request["module"]).main(sys.argv[1:]) or 0
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        import traceback
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(control: socket.socket) -> None:
    children: set[int] = set()
    while True:
        ready, _, _ = select.select([control], [], [], 0.05)
        if ready:
            request, fds = recv_request(control)
            if request is None:
                return  # the parent is gone
            pid = os.fork()
            if pid == 0:
                run_child(request, fds, control)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            control.sendall((json.dumps({"req": request["req"], "pid": pid}) + "\n").encode())
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                control.sendall((json.dumps({"exit": pid, "code": os.waitstatus_to_exitcode(status)}) + "\n").encode())


class ForkedChild:
    """A worker forked by the zygote, with the subset of ``subprocess.Popen`` the parent uses."""

    def __init__(self, pid: int, stdin) -> None:
        self.pid = pid
        self.stdin = stdin
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


class Zygote:
    """The parent's handle on a ``harness.zygote`` process (see there); thread-safe."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        ours, theirs = socket.socketpair()
        with open(log_dir / "zygote.log", "wb") as log:
            self.proc = subprocess.Popen([sys.executable, "-P", "-m", "harness.zygote", str(theirs.fileno())],
                                         env=env, cwd=log_dir, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                         pass_fds=(theirs.fileno(),), start_new_session=True)
        theirs.close()
        self._sock = ours
        self._lock = threading.Lock()
        self._pending: dict[int, "queue.Queue[int]"] = {}
        self._children: dict[int, ForkedChild] = {}
        self._early_exits: dict[int, int] = {}
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
            waiter.put(-1)
        self._ready.set()

    def _dispatch(self, message: dict) -> None:
        if message.get("ready"):
            self._ready.set()
        elif "req" in message:
            with self._lock:
                waiter = self._pending.pop(message["req"])
            waiter.put(message["pid"])
        elif "exit" in message:
            with self._lock:
                child = self._children.pop(message["exit"], None)
                if child is None:
                    self._early_exits[message["exit"]] = message["code"]
            if child is not None:
                child._exited(message["code"])

    def spawn(self, module: str, job_file: Path, events_fd: int, cwd: Path, env: dict[str, str],
              stdout: Path, stderr: Path, commands: bool) -> ForkedChild:
        """Fork a child that runs ``module.main([job_file, events_fd])``; raises if the zygote is gone."""
        stdin_r = stdin_w = None
        if commands:
            stdin_r, stdin_w = os.pipe()
        fds = [events_fd] + ([stdin_r] if commands else [])
        waiter: "queue.Queue[int]" = queue.Queue()
        with self._lock:
            if not self.alive:
                raise RuntimeError("the zygote is gone")
            self._next += 1
            req = self._next
            self._pending[req] = waiter
            request = {"req": req, "module": module, "job_file": str(job_file), "cwd": str(cwd), "env": env,
                       "stdout": str(stdout), "stderr": str(stderr)}
            try:
                socket.send_fds(self._sock, [(json.dumps(request) + "\n").encode()], fds)
            finally:
                if stdin_r is not None:
                    os.close(stdin_r)
        try:
            pid = waiter.get(timeout=ZYGOTE_START_S)
        except queue.Empty:
            pid = -1
        if pid < 0:
            if stdin_w is not None:
                os.close(stdin_w)
            raise RuntimeError("the zygote is gone")
        child = ForkedChild(pid, os.fdopen(stdin_w, "wb") if commands else None)
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


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    control = socket.socket(fileno=int(args[0]))
    preload()
    control.sendall(b'{"ready": true}\n')
    serve(control)
    return 0


if __name__ == "__main__":
    sys.exit(main())
