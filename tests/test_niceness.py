"""A run started with ``nice`` stays at that priority in the sessions its processes start
(harness/niceness.py): where the kernel schedules each session as a group, a worker's new session
would otherwise compete at nice 0 with everything else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(not Path("/proc/self/autogroup").exists(),
                                reason="this kernel has no per-session scheduling groups (CONFIG_SCHED_AUTOGROUP)")


def _group_nice(pid: int | str = "self") -> int:
    return int(Path(f"/proc/{pid}/autogroup").read_text().split()[-1])


def test_a_new_session_keeps_the_niceness_it_was_started_with():
    probe = ("import os; os.setsid(); from harness.niceness import keep_niceness; "
             "before = open('/proc/self/autogroup').read().split()[-1]; keep_niceness(); "
             "print(before, open('/proc/self/autogroup').read().split()[-1])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True,
                         preexec_fn=lambda: os.nice(7)).stdout.split()
    # the session's group starts at 0; keep_niceness gives it the process's (7 above the tests' own)
    assert out == ["0", str(min(os.nice(0) + 7, 19))]


def _descendants(root: int) -> list[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent]
        found += children
        frontier += children
    return found


def test_a_run_started_with_nice_keeps_it_in_its_workers_sessions(tmp_path):
    """`nice -n 5 kernelbenchx eval`: the fork server and the worker, each in a session of its own,
    are scheduled at nice 5 (above the tests' own; a worker sleeping at import is looked at from
    outside)."""
    relu = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    (tmp_path / "p.jsonl").write_text(json.dumps({"file": "Activation/relu.py",
                                                  "predict": "import time\ntime.sleep(4)\n" + relu}) + "\n")
    path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    cli = subprocess.Popen([sys.executable, "-m", "harness.cli", "eval", str(tmp_path / "p.jsonl"), "--out",
                            str(tmp_path / "out"), "-q", "--no-perf", "--no-report"], cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": path}, preexec_fn=lambda: os.nice(5),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    groups: dict[int, int] = {}
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and cli.poll() is None and len(groups) < 2:
            for pid in _descendants(cli.pid):
                try:
                    if os.getsid(pid) == pid:  # a session leader: the fork server, a worker
                        groups[pid] = _group_nice(pid)
                except (OSError, ValueError):
                    continue
            time.sleep(0.2)
    finally:
        cli.wait(timeout=300)
    assert cli.returncode == 0, cli.stderr.read()[-2000:]
    assert len(groups) >= 2 and set(groups.values()) == {min(os.nice(0) + 5, 19)}, groups
