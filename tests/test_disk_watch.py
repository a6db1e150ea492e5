"""A job's directory is measured while it runs: one that writes more than its cap (or more files
than any honest job leaves) is ended with an integrity verdict, before it can fill the disk the
other jobs and the run's journal share."""

from __future__ import annotations

import os

import pytest

from harness.config import RunConfig
from harness.run.disk import DiskWatch, directory_bytes
from harness.run.runner import Evaluator as Runner
from harness.run.submissions import load_submissions


def test_a_directory_is_measured_by_what_it_holds_on_disk(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "data").write_bytes(os.urandom(1 << 20))
    with open(tmp_path / "sparse", "wb") as f:  # a hole takes no disk
        f.seek(1 << 30)
        f.write(b"x")
    used = directory_bytes(tmp_path)
    assert (1 << 20) <= used < (1 << 20) + (1 << 18)
    for i in range(30):
        (tmp_path / f"f{i}").touch()
    assert directory_bytes(tmp_path, max_entries=20) is None


def test_nesting_deeper_than_a_path_can_name_hides_nothing(tmp_path):
    """Folders nested past the longest path the system accepts, built relative to descriptors as a
    worker may: the walk opens each folder relative to its parent, so their contents still count."""
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(20):  # 20 x 250 characters: past PATH_MAX (4096)
            os.mkdir("d" * 250, dir_fd=fd)
            inner = os.open("d" * 250, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        data = os.open("data", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
        os.write(data, os.urandom(4 << 20))
        os.close(data)
    finally:
        os.close(fd)
    assert directory_bytes(tmp_path) >= 4 << 20


def test_entries_removed_during_the_walk_hold_nothing(tmp_path, monkeypatch):
    """Triton writes its cache through temporary folders it renames or removes at once: a folder
    listed and gone before it is opened is not a failure to measure (it holds nothing now)."""
    import harness.run.disk as disk

    (tmp_path / "gone").mkdir()
    (tmp_path / "kept").write_bytes(os.urandom(1 << 20))
    real_open = os.open

    def open_after_removal(path, flags, *args, dir_fd=None, **kwargs):
        if path == "gone":
            os.rmdir("gone", dir_fd=dir_fd)
        return real_open(path, flags, *args, dir_fd=dir_fd, **kwargs)

    monkeypatch.setattr(disk.os, "open", open_after_removal)
    assert (directory_bytes(tmp_path) or 0) >= 1 << 20


def test_a_cache_being_written_beside_the_walk_is_always_measured(tmp_path):
    """The same race for real: temporary folders made, filled and renamed or removed as fast as
    a thread can while the directory is measured again and again."""
    import threading

    import time

    stop, churned = threading.Event(), [0]

    def churn():
        i = 0
        while not stop.is_set():
            tmp = tmp_path / f"tmp.{i}"
            tmp.mkdir()
            (tmp / "kernel.bin").write_bytes(b"x" * 4096)
            if i % 2:
                (tmp / "kernel.bin").unlink()
                tmp.rmdir()
            else:
                tmp.rename(tmp_path / f"done.{i}")
                old = tmp_path / f"done.{i - 200}"  # the oldest go: the folder stays small
                if old.exists():
                    (old / "kernel.bin").unlink()
                    old.rmdir()
            i += 1
            churned[0] = i

    thread = threading.Thread(target=churn)
    thread.start()
    results = []
    try:  # walks until the churn has made and removed a few hundred folders beside them
        give_up = time.monotonic() + 60
        while (churned[0] < 400 or len(results) < 200) and time.monotonic() < give_up:
            results.append(directory_bytes(tmp_path, max_entries=10**6))
    finally:
        stop.set()
        thread.join()
    assert churned[0] >= 400 and len(results) >= 200
    assert None not in results


def test_many_folders_do_not_use_up_the_parents_descriptors(tmp_path):
    """The parent shares its descriptors with every job it runs: a job that makes thousands of
    folders side by side must not need one open descriptor each to be measured."""
    import resource

    for i in range(3000):
        (tmp_path / f"d{i}").mkdir()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(512, soft), hard))
    try:
        used = directory_bytes(tmp_path)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert used is not None and used >= 3000 * 4096


def test_folders_nested_past_the_depth_limit_are_not_measured(tmp_path):
    deepest = tmp_path
    for _ in range(8):
        deepest = deepest / "d"
    deepest.mkdir(parents=True)
    assert directory_bytes(tmp_path, max_depth=8) is not None
    assert directory_bytes(tmp_path, max_depth=7) is None


def test_the_watch_names_what_is_over(tmp_path):
    (tmp_path / "data").write_bytes(os.urandom(2 << 20))
    assert DiskWatch(tmp_path, 4 << 20, interval_s=0.0).over() is None
    why = DiskWatch(tmp_path, 1 << 20, interval_s=0.0).over()
    assert why and "GiB into its job directory" in why
    late = DiskWatch(tmp_path, 1 << 20, interval_s=60.0)
    assert late.over() is None  # measured at most once a minute here: not yet


FILLS_THE_DISK = """
import os, time
import torch
for i in range(24):
    with open(f"junk_{i}", "wb") as f:
        f.write(os.urandom(4 << 20))
time.sleep(4)

def relu(input, inplace=False):
    return input
"""


def _evaluate_with_a_small_cap(tmp_path, code: str):
    config = RunConfig(out_dir=tmp_path, perf=False, workers=1, shards=1, job_disk_bytes=48 << 20)
    runner = Runner(config)
    runner.open()
    try:
        [job] = load_submissions([("Activation/relu.py", code)])
        return runner.evaluate(job, runner.slots()[0])
    finally:
        runner.close()


def test_a_job_that_fills_its_directory_is_ended_as_integrity(tmp_path):
    result = _evaluate_with_a_small_cap(tmp_path, FILLS_THE_DISK)
    assert result.verdict == "integrity", (result.call, result.exe)
    assert "into its job directory and files it holds open or mapped (at most 0.05 GiB)" in result.call.detail, result.call


def test_files_deleted_but_held_open_count_against_the_cap(tmp_path):
    """A worker can delete a file it keeps open and go on filling it: no walk of its directory sees
    the space, which the disk loses all the same. The watch counts such files of the worker's."""
    import subprocess
    import sys
    import time as clock

    job = tmp_path / "job"
    job.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import os, sys, time\n"
        "fd = os.open('hidden', os.O_RDWR | os.O_CREAT, 0o600)\n"
        "os.unlink('hidden')\n"
        "os.write(fd, os.urandom(8 << 20))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n")], cwd=job, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ready"
        watch = DiskWatch(job, 4 << 20, interval_s=0.0)
        assert watch.over() is None  # the directory alone looks empty
        watch.pid = holder.pid
        why = watch.over()
        assert why and "files it holds open or mapped" in why
    finally:
        holder.kill()
        holder.wait()
    clock.sleep(0.1)
    assert watch.over() is None  # the process is gone, and the space with it


HIDES_WHAT_IT_WRITES = {
    "deleted while open": """
import os, time
import torch
_held = []
for i in range(24):
    fd = os.open(f"junk_{i}", os.O_RDWR | os.O_CREAT, 0o600)
    os.unlink(f"junk_{i}")
    os.write(fd, os.urandom(4 << 20))
    _held.append(fd)
time.sleep(4)

def relu(input, inplace=False):
    return input
""",
    # a mapping holds the file with no descriptor left
    "deleted while mapped": """
import os, time
import torch
_held = []
for i in range(24):
    t = torch.from_file(f"junk_{i}", shared=True, size=1 << 20, dtype=torch.float32)
    t.fill_(1.0)
    os.unlink(f"junk_{i}")
    _held.append(t)
time.sleep(4)

def relu(input, inplace=False):
    return input
"""}


@pytest.mark.parametrize("how", list(HIDES_WHAT_IT_WRITES))
def test_a_job_that_hides_what_it_writes_in_deleted_files_is_ended_too(tmp_path, how):
    """The same fill, each file deleted as soon as it is made but kept open or mapped: the worker's
    open and mapped files count."""
    result = _evaluate_with_a_small_cap(tmp_path, HIDES_WHAT_IT_WRITES[how])
    assert result.verdict == "integrity", (result.call, result.exe)
    assert "files it holds open or mapped" in result.call.detail, result.call


def test_folders_a_job_locked_are_removed_and_what_stays_is_said(tmp_path):
    """A job may take its own rights away from its folders (chmod 000), which a plain rmtree run by
    an unprivileged parent cannot list or empty: remove_tree gives them back first. What still
    cannot go is named in the summary and printed with the results."""
    from harness.files import remove_tree
    from harness.report.summary import summarize
    from harness.report.table import format_table

    locked = tmp_path / "job" / "a" / "b"
    locked.mkdir(parents=True)
    (locked / "f").write_text("x")
    os.chmod(locked, 0)
    os.chmod(locked.parent, 0)
    assert remove_tree(tmp_path / "job") and not (tmp_path / "job").exists()
    summary = summarize([], {"left_behind": ["/tmp/kbx-jobs-x/job"], "mode": "interpreter"})
    assert summary["left_behind"] == ["/tmp/kbx-jobs-x/job"]
    assert "could not be removed, e.g. /tmp/kbx-jobs-x/job" in format_table(summary, [])
