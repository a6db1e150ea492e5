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
server answers ``{"req", "pid"}`` at once and ``{"exit", "code"}`` when the child ends. The
parent's side is ``harness.run.zygote``.

The server dies with its parent and its workers with it; as child subreaper it adopts whatever a
worker's descendants leave behind (a ``setsid`` double fork included) and kills it at once, since
nothing but the workers it forked may live under it.
"""

from __future__ import annotations

import array
import importlib
import json
import os
import select
import socket
import sys
import tempfile
import time

from harness import protocol
from harness.config import ENV_PARENT_PID
from harness.lifetime import become_subreaper, die_with_parent, kill_all_descendants, kill_orphans

MAX_FDS = 2
ORPHAN_SWEEP_S = 0.2


def preload() -> None:
    """Import what every worker needs before it touches a submission."""
    import torch  # noqa: F401
    import triton  # noqa: F401
    import triton.language  # noqa: F401

    from harness import compare, invoke  # noqa: F401
    from harness.perf import server  # noqa: F401
    from harness.sandbox import autotune, confine, integrity, worker  # noqa: F401
    from harness.task import all_tasks
    all_tasks()
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


def run_child(request: dict, fds: list[int], control: socket.socket, server_pid: int) -> None:
    """In the forked child: become the job's worker process. Never returns."""
    code = 70
    try:
        die_with_parent(server_pid)
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
        os.environ[ENV_PARENT_PID] = str(server_pid)  # the worker's own check names its real parent
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
    me = os.getpid()
    next_sweep = 0.0
    while True:
        ready, _, _ = select.select([control], [], [], 0.05)
        if ready:
            request, fds = recv_request(control)
            if request is None:  # the parent is gone or done: nothing below this process may outlive it
                kill_all_descendants()
                return
            pid = os.fork()
            if pid == 0:
                run_child(request, fds, control, me)
            for fd in fds:
                os.close(fd)
            children.add(pid)
            control.sendall((json.dumps({"req": request["req"], "pid": pid}) + "\n").encode())
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                control.sendall((json.dumps({"exit": pid, "code": os.waitstatus_to_exitcode(status)}) + "\n").encode())
        if time.monotonic() >= next_sweep:
            kill_orphans(children)
            next_sweep = time.monotonic() + ORPHAN_SWEEP_S


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    die_with_parent(int(args[1]))
    become_subreaper()
    control = socket.socket(fileno=int(args[0]))
    preload()
    control.sendall((json.dumps({protocol.READY: True}) + "\n").encode())
    serve(control)
    return 0


if __name__ == "__main__":
    sys.exit(main())
