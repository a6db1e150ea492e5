"""Small file helpers shared by every layer."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable


def escape_surrogates(text: str) -> str:
    """``text`` with lone surrogates (JSON strings, file names that are not UTF-8, a submission's
    error messages) written as escapes, so that no write, hash or print of it fails."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to a temp file and rename it over ``path`` (readers never see half a file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


# Passes remove_tree makes before it gives up: a later one removes what a process still writing
# added behind the walk, or what a walk cut short (a folder moved while it ran) did not reach.
REMOVE_PASSES = 3
_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _TreeMoved(Exception):
    """A folder's parent is no longer the folder the walk came down from (moved while it ran)."""


@dataclass
class _Level:
    """One folder on the walk's path down from the top, while the walk is inside it."""
    name: str | None           # its name in the folder above (None: the top)
    identity: tuple[int, int]  # (st_dev, st_ino): to know the folder above again on the way back up
    subfolders: list[str]      # those not yet emptied and removed


def remove_tree(path: Path) -> bool:
    """Remove ``path`` and everything under it; returns whether it is gone. Never raises.

    A job's directory is the submission's to shape, so the walk assumes nothing of it: any depth
    (no recursion, and one folder open at a time: a chain of thousands of folders costs neither
    stack nor descriptors), folders the job made unreadable or unwritable (``chmod 000``: the
    owner's rights are given back first), symlinks (removed, never followed), folders moved or
    filled while it runs (a process still writing: the walk never climbs into a folder it did not
    come down from, and is made again, up to ``REMOVE_PASSES`` times). A link or file at ``path``
    itself is removed, not what it names. What cannot be removed stays, and the answer is False."""
    for _ in range(REMOVE_PASSES):
        try:
            _remove_once(os.fspath(path))
        except Exception:  # noqa: BLE001 - any failure leaves something behind, which the answer says
            pass
        try:
            os.lstat(path)
        except FileNotFoundError:
            return True
        except Exception:  # noqa: BLE001 - cannot be looked at: not known to be gone
            return False
    return False


def _remove_once(path: str) -> None:
    """One pass of :func:`remove_tree` (raises where it stops short)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(path)
        return
    _empty_tree(_open_folder(path))
    os.rmdir(path)


def _empty_tree(fd: int) -> None:
    """Remove everything inside the open folder ``fd`` (closed on return), depth first, with an
    explicit stack: only the folder being emptied is open, the way back up is ``..`` checked
    against the identity recorded on the way down."""
    try:
        top = _Level(None, _identity(fd), _clear_files(fd))
        levels = [top]
        while True:
            level = levels[-1]
            if level.subfolders:
                name = level.subfolders.pop()
                inner = _enter(fd, name, top.identity[0])
                if inner is not None:
                    os.close(fd)
                    fd = inner
                    levels.append(_Level(name, _identity(fd), _clear_files(fd)))
                continue
            if level is top:
                return
            levels.pop()
            parent = _climb(fd, levels[-1].identity)
            os.close(fd)
            fd = parent
            _quietly(os.rmdir, level.name, dir_fd=fd)  # not empty (written meanwhile): the next pass
    finally:
        os.close(fd)


def _clear_files(fd: int) -> list[str]:
    """Unlink every entry of the open folder ``fd`` but its subfolders (symlinks included, not
    followed); returns the subfolders' names."""
    with os.scandir(fd) as listing:
        entries = list(listing)  # listed before anything is removed: a folder read while it shrinks may skip entries
    subfolders = []
    for entry in entries:
        try:
            is_folder = entry.is_dir(follow_symlinks=False)
        except OSError:
            is_folder = False
        if is_folder:
            subfolders.append(entry.name)
            continue
        try:
            os.unlink(entry.name, dir_fd=fd)
        except IsADirectoryError:  # made a folder since it was listed
            subfolders.append(entry.name)
        except OSError:
            pass  # gone already, or cannot go: the folder's rmdir fails, and the answer says so
    return subfolders


def _enter(fd: int, name: str, device: int) -> int | None:
    """The subfolder ``name`` of the open folder ``fd``, opened to be emptied; None when there is
    nothing to walk: it was empty (removed now), is gone, is no longer a folder (removed, if it is
    a link or file now), or lies on another file system than ``device`` (a mount: left alone)."""
    try:
        os.rmdir(name, dir_fd=fd)  # the bottom of a chain: no need to open it
        return None
    except OSError:
        pass
    try:
        inner = _open_folder(name, fd)
    except FileNotFoundError:
        return None
    except OSError:
        _quietly(os.unlink, name, dir_fd=fd)  # a link or file in its place now (fails for a folder)
        return None
    if _identity(inner)[0] != device:
        os.close(inner)
        return None
    return inner


def _climb(fd: int, expected: tuple[int, int]) -> int:
    """The folder above the open folder ``fd``, opened, if it is still the folder of identity
    ``expected`` that the walk came down from; raises :class:`_TreeMoved` otherwise (``fd`` was moved
    elsewhere: ``..`` could lead out of the tree)."""
    parent = os.open("..", _FOLDER_FLAGS, dir_fd=fd)
    if _identity(parent) != expected:
        os.close(parent)
        raise _TreeMoved("a folder was moved while its tree was being removed")
    return parent


def _open_folder(name: str, dir_fd: int | None = None) -> int:
    """A descriptor of the folder ``name`` (relative to ``dir_fd``), never through a symlink, with
    its owner's rights given back when they were taken away and the folder is ours (so that it can
    be listed and emptied)."""
    try:
        fd = os.open(name, _FOLDER_FLAGS, dir_fd=dir_fd)
    except PermissionError:  # not readable: open it by path only, to give the rights back
        _grant_owner_rights(name, dir_fd)
        fd = os.open(name, _FOLDER_FLAGS, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if info.st_uid == os.geteuid() and info.st_mode & stat.S_IRWXU != stat.S_IRWXU:
            os.fchmod(fd, stat.S_IRWXU)
    except OSError:
        pass  # what it keeps from being removed is said by the answer
    return fd


def _grant_owner_rights(name: str, dir_fd: int | None) -> None:
    """Give the owner all rights to the folder ``name``, which it cannot read. Through an O_PATH
    descriptor of the folder itself (needs no right to it, and follows no symlink), and its
    /proc/self/fd link, as chmod with AT_SYMLINK_NOFOLLOW does: a plain chmod of the name would
    follow a symlink put in the folder's place meanwhile."""
    try:
        fd = os.open(name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return
    try:
        os.chmod(f"/proc/self/fd/{fd}", stat.S_IRWXU)
    except OSError:
        pass
    finally:
        os.close(fd)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _quietly(remove: Callable[..., None], name: str, dir_fd: int) -> None:
    """``remove(name, dir_fd=dir_fd)``, where a failure only means something stays (said at the end)."""
    try:
        remove(name, dir_fd=dir_fd)
    except OSError:
        pass
