"""A job's directory is measured while it runs: one that writes more than its cap (or more files
than any honest job leaves) is ended with an integrity verdict, before it can fill the disk the
other jobs and the run's journal share."""

from __future__ import annotations

import os

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


def test_a_job_that_fills_its_directory_is_ended_as_integrity(tmp_path):
    config = RunConfig(out_dir=tmp_path, perf=False, workers=1, shards=1, job_disk_bytes=48 << 20)
    runner = Runner(config)
    runner.open()
    try:
        [job] = load_submissions([("Activation/relu.py", FILLS_THE_DISK)])
        result = runner.evaluate(job, runner.slots()[0])
    finally:
        runner.close()
    assert result.verdict == "integrity", (result.call, result.exe)
    assert "into its job directory (at most 0.05 GiB)" in result.call.detail, result.call
