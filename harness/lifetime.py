"""Process lifetimes: children that die with their parent, and orphans that die at once.

A submission may start processes of its own and detach them (``setsid`` and a double fork), so
they outlive its job and keep running beside later jobs. Two Linux mechanisms close that:

- ``PR_SET_PDEATHSIG``: a worker (and the fork server, and the baseline process) is killed when the
  process that started it dies, so killing the CLI takes every job with it;
- ``PR_SET_CHILD_SUBREAPER``: the fork server adopts every orphan among its descendants, and kills
  each one that is not a worker it forked itself, with all of its descendants (:func:`kill_orphans`),
  whatever session it made; when it stops, it kills every process left below it the same way.
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


def signal_group(pid: int, sig: int) -> None:
    """Send ``sig`` to the process group led by ``pid``; a group already gone is no error."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def become_subreaper() -> bool:
    """Adopt orphaned descendants (instead of init); False where the kernel does not allow it."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def child_pids(pid: int | None = None) -> set[int]:
    """The live children (of all threads) of ``pid`` (default: this process), from /proc."""
    pids: set[int] = set()
    me = os.getpid() if pid is None else pid
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
    """Kill every child of this process that is not in ``known`` (orphans adopted as subreaper)
    together with all of its descendants, and reap those already gone (a later call reaps the
    rest). Each process is stopped before its children are listed and nothing is killed before the
    whole tree is stopped, so no process can fork a successor for every one killed. Returns the
    pids killed."""
    stopped: list[int] = []
    seen: set[int] = set()
    frontier = list(child_pids() - known)
    while frontier:
        pid = frontier.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            os.kill(pid, signal.SIGSTOP)
        except ProcessLookupError:
            continue
        stopped.append(pid)
        frontier.extend(child_pids(pid))  # stopped: it can fork no more
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue
    for pid in stopped:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not our child: its own parent (killed too) or we reap it later
            pass
    return stopped


def kill_all_descendants(rounds: int = 50) -> None:
    """Before a subreaper exits: kill every process below it (its children included), until none is
    left or ``rounds`` sweeps have run (each reaps the orphans the last one made)."""
    import time
    for _ in range(rounds):
        if not kill_orphans(set()) and not child_pids():
            return
        time.sleep(0.02)
