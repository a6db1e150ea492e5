"""The fork server ("zygote"): a pre-started process that forks job workers
(``python -P -m harness.sandbox.forkserver FD PARENT_PID``).

A fresh worker spends seconds importing torch, triton and the task files before it does anything
for its job. The fork server pays that once and forks a child per job (and one per perf job's
trusted baseline process, ``harness.perf.baseline``: it has run no submission, so its child is as
clean as a new interpreter). It imports only what every worker imports before it loads a submission
(no job's data, no expected outputs), never initialises CUDA, and is never given anything of a job
except what that job's child gets, so a child starts as a new worker process would, minus the
imports. Each child makes itself a session leader, takes its job's working directory, stdio and
environment (a worker's is scrubbed), and then runs the same ``main`` a new process of its module
runs; a worker's sandboxing and limits are applied there, as before.

Requests arrive as JSON on a Unix socket with the child's pipe ends attached (SCM_RIGHTS); the
server answers ``{"req", "pid", "prewarmed"}`` at once and ``{"exit", "code"}`` when the child ends.
The parent's side is ``harness.run.zygote``.

A request may name what its module does before it knows a job (``warm``: the argument of the
module's ``prewarm``; for a worker, its device). The server then keeps *spare* children per kind of
request (one, or as many as a ``prewarm`` request of that kind asked for: a job spread over several
processes starts each in one), forked ahead and prewarmed (a worker's CUDA context, most of a GPU worker's setup): the next
request of that kind is handed to the spare instead of a new fork. A spare has run no submission
either; it is forked by the server, never by a worker, and takes its job's stdio, directory and
environment as a forked child does. Its environment while it waits is the server's, with the
request's device variables (``CUDA_*``, ``NVIDIA_*``, ``TRITON_INTERPRET``: what the CUDA driver reads
when it starts), and a spare serves only requests whose device variables are the same. A request
marked ``prewarm`` starts no child: it only has a spare made for requests like it (the first job of
a run starts in one too). Every child closes the server's sockets first (the control socket and the
spares' job sockets), so no submission can reach the parent's channel or hand a spare a job.

The server dies with its parent and its workers with it; as child subreaper it adopts whatever a
worker's descendants leave behind (a ``setsid`` double fork included) and kills it at once, since
nothing but the workers (and spares) it forked may live under it.
"""

from __future__ import annotations

import array
import importlib
import json
import os
import select
import signal
import socket
import sys
import tempfile
import time

from harness import protocol
from harness.config import ENV_PARENT_PID
from harness.lifetime import become_subreaper, die_with_parent, kill_all_descendants, kill_orphans
from harness.niceness import keep_niceness

MAX_FDS = 2
MAX_REQUEST_BYTES = 1 << 20  # a request carries a job's environment: a few kB
ORPHAN_SWEEP_S = 0.2
MAX_SPARES = 64  # spares at once, of all kinds (8 GPUs of a host, a warm evaluator's 8 each)
_DEVICE_PREFIXES = ("CUDA_", "NVIDIA_")


def preload() -> None:
    """Import what every worker needs before it touches a submission."""
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401

    from harness import compare, invoke  # noqa: F401
    from harness.perf import server  # noqa: F401
    from harness.sandbox import autotune, confine, integrity, worker  # noqa: F401
    from harness.sandbox.guard import import_lazy_library_modules
    from harness.task import all_tasks
    all_tasks()
    import_lazy_library_modules()
    if os.environ.get("TRITON_INTERPRET") != "1":
        _warm_triton_compiler()


def _warm_triton_compiler() -> None:
    """Pay once, for every GPU worker, what Triton otherwise does at each worker's first compile:
    hashing its own installed files for the cache key (about half a second) and building and
    loading its CUDA helper module (a C compile). Neither involves a job, and neither initialises
    CUDA: the driver API is first used by the worker after the fork. If that ever changed, the
    fork server would refuse to start (the parent then starts each worker as a new interpreter)."""
    import torch
    from triton.runtime import driver
    from triton.runtime.cache import triton_key

    triton_key()  # functools.lru_cache: forked workers inherit the value
    try:
        from triton.backends.nvidia.driver import CudaDriver
    except ImportError:  # a Triton without the NVIDIA backend: workers find their driver themselves
        return
    # Made directly: letting Triton pick the active driver would ask torch.cuda.is_available(),
    # which initialises the CUDA driver (cuInit) and so breaks CUDA in every forked child.
    driver.set_active(CudaDriver())  # builds (or finds) and loads cuda_utils in the server's own cache
    if torch.cuda.is_initialized():
        raise RuntimeError("warming Triton initialised CUDA in the fork server")


def recv_request(sock: socket.socket) -> tuple[dict | None, list[int]]:
    """One newline-terminated JSON request and the file descriptors sent with it (the parent's
    socket keeps message boundaries: one read is one request)."""
    data, fds = b"", []
    while not data.endswith(b"\n"):
        msg, ancdata, _, _ = sock.recvmsg(MAX_REQUEST_BYTES, socket.CMSG_SPACE(MAX_FDS * array.array("i").itemsize))
        if not msg:
            return None, fds
        data += msg
        for level, kind, payload in ancdata:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.extend(array.array("i", payload[: len(payload) - len(payload) % array.array("i").itemsize]))
    return json.loads(data), fds


def run_child(request: dict, fds: list[int], server_sockets: list[socket.socket], server_pid: int) -> None:
    """In the forked child: become the job's worker process. Never returns. ``server_sockets``: the
    server's own (its control socket, its spares' job sockets), closed first: a submission that
    held one could send the parent's replies or a spare a job of its making."""
    code = 70
    try:
        die_with_parent(server_pid)
        _close(server_sockets)
        os.setsid()
        keep_niceness()  # a new session is a new scheduling group (niceness.py)
        code = _become(request, fds, server_pid)
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        import traceback
        traceback.print_exc()
    finally:
        _exit(code)


def run_spare(request: dict, jobs: socket.socket, server_sockets: list[socket.socket], server_pid: int) -> None:
    """In a spare child: prewarm for requests like ``request``, wait on ``jobs`` for one, and become
    its worker. Never returns. A prewarm that fails is only logged: the job's own setup repeats each
    step and reports what fails there, as in a child forked for it."""
    code = 70
    try:
        die_with_parent(server_pid)
        _close(server_sockets)
        os.setsid()
        keep_niceness()  # a new session is a new scheduling group (niceness.py)
        env = spare_env(dict(os.environ), request["env"])  # the server's own, forked with it
        os.environ.clear()
        os.environ.update(env)
        try:
            importlib.import_module(request["module"]).prewarm(request["warm"])
        except Exception:  # noqa: BLE001
            import traceback
            traceback.print_exc()
        job, fds = recv_request(jobs)
        jobs.close()
        if job is not None:  # None: the server is done with this spare
            code = _become(job, fds, server_pid)
        else:
            code = 0
    except BaseException:  # noqa: BLE001
        import traceback
        traceback.print_exc()
    finally:
        _exit(code)


def _become(request: dict, fds: list[int], server_pid: int) -> int:
    """Take the job's stdio, directory and environment, and run its module's ``main``."""
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
    os.environ[ENV_PARENT_PID] = str(server_pid)  # the worker's own check names its real parent
    tempfile.tempdir = None  # TMPDIR is the job's now
    sys.argv = [request["module"], request["job_file"], str(events_fd)]
    return importlib.import_module(request["module"]).main(sys.argv[1:]) or 0


def _close(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()


def _exit(code: int) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def device_vars(env: dict[str, str]) -> dict[str, str]:
    """The variables of ``env`` that the CUDA driver and Triton's mode read when they start."""
    return {k: v for k, v in env.items() if k.startswith(_DEVICE_PREFIXES) or k == "TRITON_INTERPRET"}


def spare_env(server_env: dict[str, str], job_env: dict[str, str]) -> dict[str, str]:
    """A spare's environment until its job arrives: the server's (home and temp in the server's own
    directory, none of a job's), with the device variables of the request it was forked after."""
    env = {k: v for k, v in server_env.items() if k not in device_vars(server_env)}
    return {**env, **device_vars(job_env)}


def spare_kind(request: dict) -> str | None:
    """Which spare can serve ``request``: its module, prewarm argument and device variables (None:
    the request asks for no prewarm)."""
    if request.get("warm") is None:
        return None
    return json.dumps([request["module"], request["warm"], device_vars(request["env"])], sort_keys=True)


class Spares:
    """The server's prewarmed children: per kind as many as its ``prewarm`` request asked for (one
    by default), MAX_SPARES in all. The parent is told of each (``{"spare": pid, "visible":
    CUDA_VISIBLE_DEVICES}``) and of its end (``{"spare_gone": pid}``), so it can stop spares with
    the jobs of their GPU while another job is timed."""

    def __init__(self, control: socket.socket, server_pid: int) -> None:
        self._control = control
        self._server_pid = server_pid
        self._by_kind: dict[str, list[tuple[int, socket.socket]]] = {}  # oldest (most warmed) first
        self._depth: dict[str, int] = {}
        self._alive: set[int] = set()  # spares not yet reaped, retired ones included

    @property
    def pids(self) -> set[int]:
        return set(self._alive)

    def sockets(self) -> list[socket.socket]:
        """The server's ends of its spares' job sockets (a forked child closes them)."""
        return [jobs for waiting in self._by_kind.values() for _, jobs in waiting]

    def take(self, kind: str, request: dict, fds: list[int]) -> int | None:
        """Hand ``request`` and its descriptors to the spare of ``kind``; its pid (a job's child from
        now on), or None if there is none or it is gone."""
        waiting = self._by_kind.get(kind)
        if not waiting:
            return None
        pid, jobs = waiting.pop(0)
        try:
            socket.send_fds(jobs, [(json.dumps(request) + "\n").encode()], fds)
        except OSError:
            return None  # it died: reaped (and reported) by the server's loop
        finally:
            jobs.close()
        self._alive.discard(pid)
        return pid

    def add(self, kind: str, request: dict, depth: int | None = None) -> None:
        """Fork spares for requests of ``kind`` (like ``request``) until it has ``depth`` of them
        (the depth last asked for this kind, else one), taking room from other kinds if full."""
        if depth is not None:
            self._depth[kind] = max(1, min(int(depth), MAX_SPARES))
        waiting = self._by_kind.setdefault(kind, [])
        while len(waiting) < self._depth.get(kind, 1):
            if sum(map(len, self._by_kind.values())) >= MAX_SPARES:
                # full: a kind with no spare takes one from the kind with the most, a kind with
                # some only from a kind with at least two more (so two kinds even out rather than
                # evicting each other's in turn)
                donor = max((k for k, spares in self._by_kind.items() if spares and k != kind),
                            key=lambda k: len(self._by_kind[k]), default=None)
                if donor is None or (waiting and len(self._by_kind[donor]) <= len(waiting) + 1):
                    return
                self.retire(donor)
            ours, theirs = socket.socketpair()
            pid = os.fork()
            if pid == 0:
                run_spare(request, theirs, [self._control, ours, *self.sockets()], self._server_pid)
            theirs.close()
            waiting.append((pid, ours))
            self._alive.add(pid)
            self._tell({"spare": pid, "visible": request["env"].get("CUDA_VISIBLE_DEVICES")})

    def retire(self, kind: str) -> None:
        """Kill the newest spare of ``kind`` (the least warmed)."""
        pid, jobs = self._by_kind[kind].pop()
        jobs.close()
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def reaped(self, pid: int) -> None:
        """``pid``, a spare, ended: it serves no more."""
        self._alive.discard(pid)
        for waiting in self._by_kind.values():
            for entry in [e for e in waiting if e[0] == pid]:
                entry[1].close()
                waiting.remove(entry)
        self._tell({"spare_gone": pid})

    def _tell(self, message: dict) -> None:
        self._control.sendall((json.dumps(message) + "\n").encode())


def serve(control: socket.socket) -> None:
    children: set[int] = set()
    me = os.getpid()
    spares = Spares(control, me)
    next_sweep = 0.0
    while True:
        ready, _, _ = select.select([control], [], [], 0.05)
        if ready:
            request, fds = recv_request(control)
            if request is None:  # the parent is gone or done: nothing below this process may outlive it
                kill_all_descendants()
                return
            kind = spare_kind(request)
            if request.get("prewarm"):  # no job: only a spare for the jobs to come
                for fd in fds:
                    os.close(fd)
                if kind:
                    spares.add(kind, request, request.get("spares"))
                continue
            pid = spares.take(kind, request, fds) if kind else None
            prewarmed = pid is not None
            if pid is None:
                pid = os.fork()
                if pid == 0:
                    run_child(request, fds, [control, *spares.sockets()], me)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            control.sendall((json.dumps({"req": request["req"], "pid": pid, "prewarmed": prewarmed}) + "\n").encode())
            if kind:  # the next request of this kind finds one ready
                spares.add(kind, request)
        for pid in list(children | spares.pids):
            done, status = os.waitpid(pid, os.WNOHANG)
            if not done:
                continue
            if pid in children:
                children.discard(pid)
                control.sendall((json.dumps({"exit": pid, "code": os.waitstatus_to_exitcode(status)}) + "\n").encode())
            else:
                spares.reaped(pid)
        if time.monotonic() >= next_sweep:
            kill_orphans(children | spares.pids)
            next_sweep = time.monotonic() + ORPHAN_SWEEP_S


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    die_with_parent(int(args[1]))
    keep_niceness()
    become_subreaper()
    control = socket.socket(fileno=int(args[0]))
    preload()
    control.sendall((json.dumps({protocol.READY: True}) + "\n").encode())
    serve(control)
    return 0


if __name__ == "__main__":
    sys.exit(main())
