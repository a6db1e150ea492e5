"""How much a job's directory holds on disk, watched by the parent while the job runs.

A worker may write only inside its job directory, each file up to a limit (RLIMIT_FSIZE), but
nothing else bounds how many files it writes: one that filled the disk until its time limit would
fail every other job's writes and the run's own journal. The parent therefore measures the
directory (allocated blocks, so sparse files count for what they take) about once a second while it
follows the worker, with the files the worker holds open or mapped after deleting them (no walk
finds those), and ends the job when it holds more than its cap, holds more files than any honest
job leaves, or holds a good part of a disk that is nearly full.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

MAX_ENTRIES = 20_000          # files and folders: a job leaves a few hundred (call results, Triton's cache)
MAX_DEPTH = 64                # folders within folders: Triton's cache is three deep
SLACK_BYTES = 4 << 30         # beyond the largest single file a job may write (its call results, the cache)
FREE_RESERVE_BYTES = 1 << 30  # below this much free space, a job holding more than ...
LARGE_JOB_BYTES = 256 << 20   # ... this much is ended (it is among those filling the disk)
CHECK_INTERVAL_S = 1.0


def directory_bytes(root: Path, max_entries: int = MAX_ENTRIES, max_depth: int = MAX_DEPTH) -> int | None:
    """Bytes allocated to everything under ``root`` (symlinks not followed), or None if it holds
    more than ``max_entries`` entries, folders nested deeper than ``max_depth``, or an entry that
    cannot be read (counting stops there: the walk stays cheap). Entries removed while the walk
    runs are left out: they no longer hold space.

    Folders are opened relative to their parent's descriptor, so no length of path hides anything,
    and only the folders on the current path are open at once (at most ``max_depth`` descriptors,
    whatever the number of folders: the parent's descriptors are shared with its other jobs)."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        path = [(os.open(root, flags), None)]  # (open folder, names of its subfolders not yet walked)
    except OSError:
        return None
    total, seen = 0, 0
    try:
        while path:
            folder, pending = path[-1]
            if pending is None:
                pending = []
                try:
                    with os.scandir(folder) as entries:
                        for entry in entries:
                            seen += 1
                            if seen > max_entries:
                                return None
                            try:
                                info = entry.stat(follow_symlinks=False)
                            except FileNotFoundError:
                                continue  # removed since listed (Triton renames its temporary folders)
                            total += info.st_blocks * 512
                            if stat.S_ISDIR(info.st_mode):
                                pending.append(entry.name)
                except OSError:
                    return None  # unreadable: not measured, so not within bounds
                path[-1] = (folder, pending)
            if not pending:
                os.close(path.pop()[0])
                continue
            name = pending.pop()
            try:
                inner = os.open(name, flags, dir_fd=folder)
            except FileNotFoundError:
                continue  # removed after it was listed: holds nothing now
            except OSError:
                return None
            if len(path) > max_depth:
                os.close(inner)
                return None
            path.append((inner, None))
    finally:
        for folder, _ in path:
            os.close(folder)
    return total


def unlinked_open_bytes(pid: int, limit: int = MAX_ENTRIES) -> int | None:
    """Bytes allocated to the regular files process ``pid`` holds open that no longer have a name
    (deleted while open, or made with O_TMPFILE): they take disk space no walk of a directory sees.
    0 when its descriptors cannot be listed (it has ended); None when it holds more than ``limit``."""
    total, seen = 0, set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    if len(fds) > limit:
        return None
    for fd in fds:
        try:
            info = os.stat(f"/proc/{pid}/fd/{fd}")  # follows the magic link to the open file itself
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_nlink == 0 and (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


def unlinked_mapped_bytes(pid: int, root: Path) -> int:
    """Bytes of files under ``root`` that process ``pid`` has mapped after deleting them (a mapping
    holds the file without any descriptor: ``torch.from_file(..., shared=True)``, then unlink), by
    the size of their mappings (at least what they can hold on disk, for a file the process wrote
    through its mapping). Libraries replaced on disk while mapped are not under ``root``. 0 when
    its mappings cannot be read."""
    prefix = os.path.realpath(root) + os.sep
    sizes: dict[int, int] = {}
    try:
        with open(f"/proc/{pid}/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) < 6:
                    continue
                name = fields[5].rstrip("\n")
                if not (name.endswith(" (deleted)") and name.startswith(prefix)):
                    continue
                start, _, end = fields[0].partition("-")
                inode = int(fields[4])
                sizes[inode] = max(sizes.get(inode, 0), int(end, 16) - int(start, 16))
    except (OSError, ValueError):
        return 0
    return sum(sizes.values())


class DiskWatch:
    """The disk use of one job directory against ``cap_bytes``, measured at most every
    ``interval_s`` seconds (``over`` is called from the parent's event loop). With ``pid`` set (the
    worker's), files the worker holds open or mapped after deleting them count too."""

    def __init__(self, root: Path, cap_bytes: int, interval_s: float = CHECK_INTERVAL_S) -> None:
        self.root, self.cap_bytes, self.interval_s = root, cap_bytes, interval_s
        self.pid: int | None = None
        self._next = time.monotonic() + interval_s

    def over(self) -> str | None:
        """Why the job must end for what it wrote (None while it stays within bounds)."""
        now = time.monotonic()
        if now < self._next:
            return None
        self._next = now + self.interval_s
        if not self.root.exists():
            return None  # the job is over and its directory removed
        used = directory_bytes(self.root)
        if used is None:
            return (f"the job's directory could not be measured: more than {MAX_ENTRIES} files and folders, "
                    "or entries the harness cannot read")
        hidden = unlinked_open_bytes(self.pid) if self.pid is not None else 0
        if hidden is None:
            return f"the job holds more than {MAX_ENTRIES} files open"
        if self.pid is not None:
            hidden += unlinked_mapped_bytes(self.pid, self.root)
        used += hidden
        if used > self.cap_bytes:
            return (f"the job wrote {used / 2**30:.2f} GiB into its job directory and files it holds open or "
                    f"mapped (at most {self.cap_bytes / 2**30:.2f} GiB)")
        if used > LARGE_JOB_BYTES:
            try:
                stats = os.statvfs(self.root)
            except OSError:
                return None
            free = stats.f_bavail * stats.f_frsize
            if free < FREE_RESERVE_BYTES:
                return (f"the disk of the job directories is nearly full ({free / 2**20:.0f} MiB free) and the job "
                        f"holds {used / 2**30:.2f} GiB of it")
        return None
