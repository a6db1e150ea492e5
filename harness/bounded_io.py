"""Reading files an untrusted worker wrote, without letting them steer the reader.

A submission controls every byte in its job directory: a file the parent expects may be a symlink
(to the parent's own ``/proc/self/environ``, say), a FIFO that blocks the reader forever, a huge
file, or a zip archive whose entries inflate to gigabytes. Every read here opens without following
symlinks and without blocking, accepts regular files only, and is bounded in bytes. The worker's
side writes with ``save_tensors``.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import stat
import types
import zipfile
from pathlib import Path
from typing import Any, BinaryIO

from harness.sealed_files import SEALS, SealedFile, seals_of


class UntrustedFileError(Exception):
    """The file is not what the harness asked the worker for (the message says why)."""


def open_regular(path: Path, max_bytes: int) -> BinaryIO:
    """``path`` opened for reading if it is a regular file (not a symlink, FIFO or device) of at
    most ``max_bytes`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UntrustedFileError(f"{path.name} is missing") from None
    except OSError as exc:  # ELOOP: a symlink
        raise UntrustedFileError(f"{path.name} cannot be opened as a plain file ({exc.strerror})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise UntrustedFileError(f"{path.name} is not a regular file")
    if info.st_size > max_bytes:
        os.close(fd)
        raise UntrustedFileError(f"{path.name} is {info.st_size} bytes, over the {max_bytes}-byte limit")
    return os.fdopen(fd, "rb")


def read_tail(path: Path, limit: int = 2000) -> str:
    """The last ``limit`` bytes of a regular file, decoded leniently ('' for anything else)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            return ""
        f.seek(max(0, info.st_size - limit))
        return f.read(limit).decode("utf-8", errors="replace")


_FD_PATHS = os.path.isdir("/proc/self/fd")  # an open descriptor can be named by path (Linux)


def load_tensors(path: Path, max_bytes: int, sha256: str | None = None, max_tensors: int | None = None) -> Any:
    """``torch.load`` of a file the worker saved (``weights_only``, onto the CPU), refused unless it
    is a regular file of at most ``max_bytes`` whose archive entries are all stored uncompressed
    (``torch.save`` never compresses; a deflated entry could inflate without bound) and add up to
    at most ``max_bytes`` -- and, given ``sha256``, unless its bytes have that digest. Given
    ``max_tensors``, it must also hold at most that many tensor storages and a pickle of bounded
    size: a quarter of a million 0-d tensors fit in a few megabytes yet take the reader a gigabyte
    and minutes to rebuild and compare.

    Without ``sha256`` and ``max_tensors`` the tensors are mapped from the file opened here rather
    than read twice into fresh memory, for a file no other process can change while it is read:
    the perf stage's judge, whose files the candidate process outlives, passes their digest instead
    (perf/server.py)."""
    import torch

    with open_regular(path, max_bytes) as raw:
        if sha256 is None and max_tensors is None and _FD_PATHS:
            # the descriptor opened above (no symlink, a regular file), not the name again
            return _load_mapped(raw.fileno(), path, max_bytes)
        copy = _private_copy(raw, max_bytes) if _FD_PATHS else None
        if copy is None:  # no memory-backed files here: the bytes in this process's heap
            raw.seek(0)
            data = raw.read(max_bytes + 1)
            _check_copy(data, hashlib.sha256(data).hexdigest(), path, sha256, max_tensors)
            f = io.BytesIO(data)
            _check_archive(f, path, max_bytes, max_tensors)
            f.seek(0)
            return torch.load(f, weights_only=True, map_location="cpu")
    fd, view, digest = copy
    try:
        _check_copy(view, digest, path, sha256, max_tensors)
        return _load_mapped(fd, path, max_bytes, max_tensors)  # the copy, not the worker's file, from here on
    finally:
        view.close()
        os.close(fd)


def load_sealed_tensors(pid: int, sealed: SealedFile, max_bytes: int) -> Any:
    """``torch.load`` (``weights_only``, onto the CPU) of a result process ``pid`` wrote and sealed
    (sealed_files.py), mapped where it lies: refused unless descriptor ``sealed.fd`` of that process
    is still the file the signed event names (same device and inode), sealed against changes, of
    the size named and at most ``max_bytes``, and a ``torch.save`` archive of stored entries."""
    link = f"/proc/{pid}/fd/{sealed.fd}"
    try:  # the target's identity first (stat follows the link): nothing else is opened here
        named = os.stat(link)
    except OSError as exc:
        raise UntrustedFileError(f"the sealed result is gone ({exc.strerror})") from None
    if (named.st_dev, named.st_ino) != (sealed.dev, sealed.ino):
        raise UntrustedFileError("the worker's descriptor is no longer the file its signed report names")
    try:
        fd = os.open(link, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise UntrustedFileError(f"the sealed result cannot be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)  # and again once open: the descriptor may have been swapped in between
        if (info.st_dev, info.st_ino) != (sealed.dev, sealed.ino) or not stat.S_ISREG(info.st_mode):
            raise UntrustedFileError("the worker's descriptor is no longer the file its signed report names")
        if not SEALS or seals_of(fd) & SEALS != SEALS:
            raise UntrustedFileError("the result's file is not sealed against changes")
        if info.st_size != sealed.size or info.st_size > max_bytes or info.st_size == 0:
            raise UntrustedFileError(f"the sealed result is {info.st_size} bytes (named: {sealed.size}; "
                                     f"limit {max_bytes})")
        return _load_mapped(fd, Path("sealed result"), max_bytes)
    finally:
        os.close(fd)


def _load_mapped(fd: int, path: Path, max_bytes: int, max_tensors: int | None = None) -> Any:
    """``torch.load`` of the archive open as ``fd`` (``path`` names it in refusals), checked by
    ``_check_archive`` first. torch maps its pages instead of copying them: a file-like object it
    reads piecewise, at a fraction of the memory's speed."""
    import torch

    name = f"/proc/self/fd/{fd}"
    with open(name, "rb") as f:
        _check_archive(f, path, max_bytes, max_tensors)
    return torch.load(name, weights_only=True, map_location="cpu", mmap=True)


_COPY_CHUNK = 8 << 20  # read and hashed in pieces small enough to stay in the CPU's cache between the two


def _private_copy(raw: BinaryIO, max_bytes: int) -> tuple[int, Any, str] | None:
    """The bytes of ``raw`` copied into a memory-backed file only this process holds, hashed
    (SHA-256) piece by piece as they are read: its descriptor, a map of it, and the digest. None
    where no such file can be made (the caller then reads into its heap). The worker that wrote the
    file lives on and may change it; the copy is what is checked and loaded."""
    import mmap

    size = os.fstat(raw.fileno()).st_size
    if size > max_bytes:  # grown since it was opened
        raise UntrustedFileError(f"the file is {size} bytes, over the {max_bytes}-byte limit")
    if size == 0:
        raise UntrustedFileError("the file is empty")
    try:
        fd = os.memfd_create("kbx-result")
    except (AttributeError, OSError):
        return None
    view = None
    try:
        os.ftruncate(fd, size)
        view = mmap.mmap(fd, size)
        digest, done = hashlib.sha256(), 0
        with memoryview(view) as buffer:
            while done < size:
                got = raw.readinto(buffer[done:min(size, done + _COPY_CHUNK)])
                if not got:
                    break
                digest.update(buffer[done:done + got])
                done += got
        if done < size or raw.read(1):  # shrunk or grown while read: not the file it was
            raise UntrustedFileError("the file changed size while it was read")
        return fd, view, digest.hexdigest()
    except BaseException as exc:
        if view is not None:
            view.close()
        os.close(fd)
        if isinstance(exc, (OSError, ValueError)):  # no room for the copy (memory, a file-size limit)
            return None
        raise


def _check_copy(data: Any, digest: str, path: Path, sha256: str | None, max_tensors: int | None) -> None:
    """Refuse a copy whose digest is not the one the worker's signed report named, or (given
    ``max_tensors``) whose archive directory lists more entries than that many tensors need."""
    if sha256 is not None and digest != sha256:
        raise UntrustedFileError(f"{path.name} is not the file the worker's signed report names (SHA-256 differs)")
    # counted before zipfile parses the directory (each parsed entry costs the reader memory)
    if max_tensors is not None and _count(data, b"PK\x01\x02") > max_tensors + ARCHIVE_OVERHEAD_ENTRIES:
        raise UntrustedFileError(f"{path.name} holds more than {max_tensors} tensors")


def _count(data: Any, needle: bytes) -> int:
    """Occurrences of ``needle`` in ``data`` (bytes or an mmap: both have ``find``)."""
    count, at = 0, data.find(needle)
    while at >= 0:
        count, at = count + 1, data.find(needle, at + len(needle))
    return count


def _check_archive(f: BinaryIO, path: Path, max_bytes: int, max_tensors: int | None = None) -> None:
    """Refuse ``f`` unless it is a zip archive of stored entries adding up to at most ``max_bytes``
    (and, given ``max_tensors``, with a pickle small enough for that many tensors)."""
    try:
        entries = zipfile.ZipFile(f).infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise UntrustedFileError(f"{path.name} is not a torch.save archive ({exc})") from None
    if any(e.compress_type != zipfile.ZIP_STORED for e in entries):
        raise UntrustedFileError(f"{path.name} has compressed entries (torch.save writes none)")
    if sum(e.file_size for e in entries) > max_bytes:
        raise UntrustedFileError(f"{path.name} unpacks to more than {max_bytes} bytes")
    if max_tensors is not None:
        pickled = sum(e.file_size for e in entries if e.filename.endswith("/data.pkl"))
        if pickled > PICKLE_BYTES_BASE + PICKLE_BYTES_PER_TENSOR * max_tensors:
            raise UntrustedFileError(f"{path.name}'s object structure is {pickled} bytes, too large for "
                                     f"{max_tensors} tensors")


class _ResultPickler(pickle.Pickler):
    """The pickler of a worker's results: its own reduction rules, copied from copyreg's when the
    worker imported this module, before any submission. Pickle otherwise looks each object's type
    up in ``copyreg.dispatch_table``, a dict any code of the process may add to; a rule for
    ``torch.Tensor`` added by a submission ran its code on every result as the harness saved it, and
    could pickle something else in its place (a kernel writing zeros passed exe with PyTorch's
    answer pickled instead: tests/adversarial/pickle_rule_forges_outputs.py)."""

    # read-only: the class is reachable (object.__subclasses__()), and adding to a dict is no
    # rebinding the guard or the module snapshot would see
    dispatch_table = types.MappingProxyType(dict(copyreg.dispatch_table))


class _RESULT_PICKLE:
    """What torch.save takes as its pickle module: a class, whose attributes the guard keeps the
    submission from rebinding (a module object's it would not)."""

    Pickler = _ResultPickler
# torch.save asks every "package" registered with torch.serialization.register_package where a
# storage lives, handing it the storage before its bytes are written: a tagger a submission
# registered could overwrite a result's storage with another answer as the harness saved it
# (tests/adversarial/storage_tagger_forges_outputs.py). A worker freezes the list before the
# import (freeze_serialization), and save_tensors saves with that copy.
# The module itself is kept too: an import statement in save_tensors would find whatever module a
# submission put in sys.modules under torch's name.
# torch.save also reads thread-local flags (``_serialization_tls.skip_data``, ...) a submission can
# set to objects of its own, whose truth test then runs inside the harness's save
# (exe_result_forged_in_save.py): a save runs with flags of the harness's, made at freeze time.
_frozen_packages: tuple | None = None
_frozen_serialization: Any = None
_frozen_flags: Any = None


def freeze_serialization() -> None:
    """Keep torch's serialization module, a copy of its storage-location taggers and a set of its
    thread-local flags as they are now; a worker calls this before it imports the submission."""
    global _frozen_packages, _frozen_serialization, _frozen_flags
    import torch.serialization

    _frozen_serialization = torch.serialization
    _frozen_packages = tuple(torch.serialization._package_registry)  # a tuple: no code can add to it
    flags = getattr(torch.serialization, "_SerializationLocal", None)  # torch >= 2.5
    _frozen_flags = flags() if flags is not None else None


def save_tensors(obj: Any, target: Any) -> None:
    """``torch.save`` of ``obj`` to ``target`` (a path or a binary file), pickled by
    ``_ResultPickler``, with the taggers ``freeze_serialization`` kept (if it ran), and without a
    CRC-32 per record: ``load_tensors`` bounds sizes and never checks CRCs, and computing them cost
    about a second per 512 MB, most of the time it took to judge an elementwise job's perf-size
    results."""
    if _frozen_serialization is not None:
        serialization = _frozen_serialization
    else:
        import torch.serialization as serialization
    live, live_flags = serialization._package_registry, getattr(serialization, "_serialization_tls", None)
    options = getattr(serialization, "get_crc32_options", None)  # torch < 2.6 computes them always
    before = options() if options else None
    try:
        if _frozen_packages is not None:
            serialization._package_registry = list(_frozen_packages)
        if _frozen_flags is not None:
            serialization._serialization_tls = _frozen_flags
        if options:
            serialization.set_crc32_options(False)
        serialization.save(obj, target, pickle_module=_RESULT_PICKLE)
    finally:
        serialization._package_registry = live
        if _frozen_flags is not None:
            serialization._serialization_tls = live_flags
        if options:
            serialization.set_crc32_options(before)


# torch.save's archive: data.pkl, version, byteorder, .data/serialization_id, .format_version,
# .storage_alignment (and room for more in later versions) besides one entry per storage.
ARCHIVE_OVERHEAD_ENTRIES = 16
# A tensor's record in the pickle is about 200 bytes; scalars, strings and nesting come on top.
PICKLE_BYTES_BASE = 64 << 10
PICKLE_BYTES_PER_TENSOR = 2 << 10
