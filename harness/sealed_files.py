"""A result handed from a worker to its judge as a sealed memory-backed file.

The harness's code in the candidate's worker writes a perf result into a memory-backed file of its
own (``memfd``) and seals it against every later change -- writes, truncation, growth, new seals --
before any code of the submission's runs again (the save runs under the code barrier, guard.py).
Its signed ``saved`` event names the file by descriptor, device and inode. The judge, a trusted
process, opens that descriptor through ``/proc/<worker>/fd``, refuses anything but the same inode
with those seals, and maps it: no copy and no digest of gigabytes on either side. The kernel, not a
check the worker could reach, keeps the bytes as the harness wrote them; a descriptor the
submission swaps in under the same number is another inode.

Where the system makes no sealable file (not Linux, or a kernel or sandbox without ``memfd``), the
worker writes the result into its job directory and names its SHA-256 instead
(``bounded_io.load_tensors`` checks it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

try:
    import fcntl
except ImportError:  # not a POSIX system: no seals
    fcntl = None  # type: ignore[assignment]

#: What a result's file must be sealed against: any change of its bytes or size, and any change of
#: its seals (write-sealing fails while a writable shared map of it exists, so none can outlive it)
SEALS = (fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
         if fcntl is not None and hasattr(fcntl, "F_SEAL_WRITE") else 0)

# bound when a worker imports this module, before any submission: the guard later replaces
# os.memfd_create with a proxy that refuses it to the submission, and a module attribute (fcntl's
# constants) could be rebound by then
_MEMFD_CREATE = getattr(os, "memfd_create", None)
_MEMFD_FLAGS = getattr(os, "MFD_ALLOW_SEALING", 0) | getattr(os, "MFD_CLOEXEC", 0)
_FCNTL = fcntl.fcntl if fcntl is not None else None
_ADD_SEALS, _GET_SEALS = (fcntl.F_ADD_SEALS, fcntl.F_GET_SEALS) if SEALS else (0, 0)
_FSTAT, _CLOSE = os.fstat, os.close


@dataclass(frozen=True)
class SealedFile:
    """A sealed result as the worker's signed event names it."""

    fd: int     # the worker's descriptor of it
    ino: int    # its identity: no other live file has the same (dev, ino)
    dev: int
    size: int

    def to_event(self) -> dict[str, int]:
        return {"fd": self.fd, "ino": self.ino, "dev": self.dev, "size": self.size}

    @classmethod
    def from_event(cls, value: Any) -> SealedFile | None:
        """The file an event's ``sealed`` field names, or None unless it names one (four
        non-negative integers)."""
        if not isinstance(value, dict):
            return None
        fields = [value.get(name) for name in ("fd", "ino", "dev", "size")]
        if not all(type(f) is int and f >= 0 for f in fields):
            return None
        return cls(*fields)


def sealable_file(name: str) -> int | None:
    """A new memory-backed file that can be sealed (its descriptor), or None where none can be made."""
    if _MEMFD_CREATE is None or not SEALS:
        return None
    try:
        return _MEMFD_CREATE(name, _MEMFD_FLAGS)
    except OSError:  # no memory for it, or the guard refusing it (tests/test_perf.py would see that)
        return None


def seal(fd: int) -> SealedFile:
    """Seal the file ``fd`` (from ``sealable_file``, written through) and name it. Raises OSError if
    the kernel refuses the seals (a writable shared map of it exists)."""
    _FCNTL(fd, _ADD_SEALS, SEALS)
    info = _FSTAT(fd)
    return SealedFile(fd, info.st_ino, info.st_dev, info.st_size)


def close_quietly(fd: int) -> None:
    """Close ``fd`` (a sealed result released, or one whose save failed), whatever state it is in."""
    try:
        _CLOSE(fd)
    except OSError:
        pass


def seals_of(fd: int) -> int:
    """The seals on the file ``fd`` (0 where the system has none)."""
    if _FCNTL is None or not SEALS:
        return 0
    try:
        return _FCNTL(fd, _GET_SEALS)
    except OSError:  # not a memory-backed file
        return 0
