"""Threads of PyTorch's own task pools in a worker, where code runs that no monitor of a call sees.

TorchScript's fork (``torch.jit.fork`` inside a scripted function, or ``prim::fork`` in a graph
built, traced or loaded) runs its task on PyTorch's inter-op thread pool: a native thread, started
with no audit event, that runs under the thread-local state of the moment of the fork. Forked at
import (before any monitor watches) or in one call and fed work in later ones, such a task does
PyTorch compute that no later call's monitor sees (tests/adversarial/jit_fork_native_thread.py,
jit_fork_fed_in_later_calls.py: each had `exe: ok` with PyTorch doing the work). PyTorch names
those threads; nothing of the harness's or of an honest wrapper starts one in a worker (the CPU
builds' intra-op pool is OpenMP's, under the process's own name), so one alive at all is the
submission's doing.
"""

from __future__ import annotations

import os

POOL_THREAD_NAME = b"PTThreadPool"  # c10::ThreadPool's name for its threads (Linux: the thread's comm)

# bound when the harness is imported, before any submission
_LISTDIR, _OPEN, _READ, _CLOSE, _RDONLY = os.listdir, os.open, os.read, os.close, os.O_RDONLY


def pool_threads(tasks: str = "/proc/self/task") -> int:
    """How many threads of this process carry PyTorch's pool-thread name (0 where ``/proc`` is
    not there to say)."""
    try:
        tids = _LISTDIR(tasks)
    except OSError:
        return 0
    found = 0
    for tid in tids:
        try:
            fd = _OPEN(f"{tasks}/{tid}/comm", _RDONLY)
        except OSError:  # ended meanwhile
            continue
        try:
            name = _READ(fd, 64)
        finally:
            _CLOSE(fd)
        found += name.rstrip(b"\n") == POOL_THREAD_NAME
    return found


def pool_thread_problem() -> str | None:
    """Why this worker may not go on, if a thread of PyTorch's pools runs in it."""
    count = pool_threads()
    if not count:
        return None
    return (f"tampering: {count} native thread(s) of PyTorch's task pool run in the worker (TorchScript's "
            "fork runs its task there, under the dispatch state of the moment it forked: PyTorch work "
            "no monitor of a later call sees); fork nothing")
