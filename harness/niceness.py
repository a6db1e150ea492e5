"""A run's CPU priority, kept by the processes it starts in sessions of their own.

Every worker, the fork server and the baseline process start a new session (``setsid``: their
descendants are then found and killed as a group). Where the kernel groups processes for
scheduling by session (``CONFIG_SCHED_AUTOGROUP``, on by default in most distributions' kernels),
a new session is a new scheduling group whose nice value is 0, and CPU time is shared between
groups before a process's own nice value counts: a run started with ``nice`` would take a full
share of the CPU for each of its workers anyway. :func:`keep_niceness` gives the process's
scheduling group the process's own nice value, inherited from whoever started the run.
"""

from __future__ import annotations

import os

AUTOGROUP = "/proc/self/autogroup"


def keep_niceness() -> None:
    """Give this process's scheduling group (its session's autogroup) its own nice value, when that
    is above 0; nothing where the kernel has no autogroups or refuses (the run then goes on at the
    group's priority)."""
    try:
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        if nice > 0:
            with open(AUTOGROUP, "w") as group:
                group.write(str(nice))
    except OSError:
        pass
