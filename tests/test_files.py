"""harness/files.py: remove_tree on what a job may leave in its directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness import files
from harness.files import remove_tree


def _chain(top: Path, depth: int) -> int:
    """A chain of ``depth`` folders under ``top``, built through descriptors (its path is longer
    than any path the system takes); returns a descriptor of its bottom folder."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    return fd


def test_a_chain_deeper_than_the_recursion_limit_is_removed_without_following_links(tmp_path):
    """3,000 nested folders (Python's recursion limit is 1,000), files and a locked folder at the
    bottom, and a symlink to a folder outside: all removed, the link's target untouched."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("kept")
    job = tmp_path / "job"
    job.mkdir()
    bottom = _chain(job, 3000)
    try:
        for name in ("a", "b"):
            fd = os.open(name, os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=bottom)
            os.write(fd, b"x" * 4096)
            os.close(fd)
        os.symlink(outside, "link", dir_fd=bottom)
        os.mkdir("locked", dir_fd=bottom)
        os.mkdir("locked/inner", dir_fd=bottom)
        os.chmod("locked", 0, dir_fd=bottom)
        os.fchmod(bottom, 0o500)  # its files cannot be unlinked until the owner's rights are back
    finally:
        os.close(bottom)
    assert remove_tree(job)
    assert not os.path.lexists(job)
    assert (outside / "keep").read_text() == "kept" and os.listdir(outside) == ["keep"]


def test_a_link_or_file_in_place_of_the_tree_is_removed_not_followed(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    (target / "keep").write_text("kept")
    (tmp_path / "link").symlink_to(target)
    (tmp_path / "file").write_text("x")
    assert remove_tree(tmp_path / "link") and remove_tree(tmp_path / "file") and remove_tree(tmp_path / "none")
    assert sorted(os.listdir(tmp_path)) == ["target"] and (target / "keep").exists()


def test_a_folder_moved_out_while_the_walk_is_inside_it_is_not_climbed_out_of(tmp_path, monkeypatch):
    """A process still writing moves the folder the walk is in out of the tree: ``..`` then leads
    elsewhere, and the walk does not go up there (it would empty the wrong folder); the next pass
    removes what is left of the tree."""
    job, elsewhere = tmp_path / "job", tmp_path / "elsewhere"
    (job / "a" / "b" / "c").mkdir(parents=True)
    elsewhere.mkdir()
    (elsewhere / "keep").write_text("kept")
    moved_identity = os.stat(job / "a" / "b").st_ino
    clear_files = files._clear_files

    def move_when_inside(fd: int) -> list[str]:
        if os.fstat(fd).st_ino == moved_identity and (job / "a" / "b").exists():
            os.rename(job / "a" / "b", elsewhere / "b")
        return clear_files(fd)

    monkeypatch.setattr(files, "_clear_files", move_when_inside)
    assert remove_tree(job)
    assert (elsewhere / "keep").read_text() == "kept"
    assert sorted(os.listdir(elsewhere)) == ["b", "keep"]  # what was moved out is no longer the tree's


@pytest.mark.parametrize("failure", [OSError(5, "I/O error"), RecursionError("deep"), MemoryError()])
def test_a_failure_is_answered_never_raised(tmp_path, monkeypatch, failure):
    """Whatever the walk meets (not only OSError), remove_tree answers False and leaves the tree."""
    (tmp_path / "job" / "a").mkdir(parents=True)

    def fail(fd: int) -> list[str]:
        raise failure

    monkeypatch.setattr(files, "_clear_files", fail)
    assert remove_tree(tmp_path / "job") is False
    assert (tmp_path / "job" / "a").is_dir()
