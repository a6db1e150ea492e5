"""Process lifetimes: children that die with their parent, and orphans that die at once.

A submission may start processes of its own and detach them (``setsid`` and a double fork), so
they outlive its job and keep running beside later jobs. Two Linux mechanisms close that:

- ``PR_SET_PDEATHSIG``: a worker (and the fork server, and the baseline process) is killed when the
  process that started it dies, so killing the CLI takes every job with it;
- ``PR_SET_CHILD_SUBREAPER``: the fork server adopts every orphan among its descendants, and kills
  each one that is not a worker it forked itself (:func:`kill_orphans`), whatever session it made.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

from harness.config import ENV_PARENT_PID

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(option, value, 0, 0, 0) == 0


def die_with_parent(parent_pid: int) -> None:
    """Be killed when the parent dies; exit now if ``parent_pid`` is already gone (it died before
    the request could take effect)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(70)


def die_with_parent_from_env() -> None:
    """:func:`die_with_parent` for the parent named in ``$KERNELBENCHX_PARENT_PID`` (if set)."""
    value = os.environ.get(ENV_PARENT_PID, "")
    if value.isdigit():
        die_with_parent(int(value))


def become_subreaper() -> bool:
    """Adopt orphaned descendants (instead of init); False where the kernel does not allow it."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def child_pids() -> set[int]:
    """This process's live children (all threads), from /proc."""
    pids: set[int] = set()
    me = os.getpid()
    try:
        threads = os.listdir(f"/proc/{me}/task")
    except OSError:
        return pids
    for tid in threads:
        try:
            with open(f"/proc/{me}/task/{tid}/children") as f:
                pids.update(int(p) for p in f.read().split())
        except (OSError, ValueError):
            continue
    return pids


def kill_orphans(known: set[int]) -> list[int]:
    """SIGKILL every child of this process that is not in ``known`` (orphans adopted as subreaper)
    and reap those already gone (a later call reaps the rest). Their own children are adopted in
    turn and found by the next call. Returns the pids signalled."""
    killed = []
    for pid in child_pids() - known:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
        killed.append(pid)
    for pid in killed:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
    return killed
