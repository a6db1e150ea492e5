"""Confinement the worker applies to itself before it imports the submission: resource limits and a
filesystem/network sandbox (the parent prepares the scrubbed environment, see run/environment.py).

Every capability is dropped first (a worker run as root could otherwise set the immutable flag on
its files, make device nodes, or bypass file permissions). Then, strongest available first:

- **Landlock** (Linux >= 5.13, unprivileged, irreversible): the worker may write only inside its
  own temp dir (making only folders and regular files there) and to the null and GPU device files
  (not ``/dev/shm`` or any other path under ``/dev``); it cannot read the paths it is told to hide
  (level ``+reads``; their names may be listed, their files not read): the worker hides the run's
  own files (the jobs' scratch root, the run's output folder, the prediction files, the task
  files, the dataset, golden results, the bundled solutions and the metric) and the places that
  hold the user's and other runs' data (the parent's temp dir, the user's home, ``/dev/shm``,
  ``/var/tmp``, ``/run/user/<uid>``), except its own job dir and the folders its Python imports
  from (prefixes, ``sys.path``, imported packages) or its environment names for the CUDA toolkit
  and Triton (``LD_LIBRARY_PATH``, ...), which may lie inside those (a virtual environment in the
  home, a checkout in the temp dir); hidden paths inside them stay hidden.
  Everything else stays readable: natively the CUDA driver and Triton's compiler read under
  ``/usr``, ``/lib``, ``/etc``, ``/proc``, ``/sys``, ``/dev`` and site-packages.
  TCP is blocked (ABI >= 4); it cannot ptrace or signal processes outside its sandbox (ABI >= 6),
  so the parent's memory is out of reach.
- **audit hook** (fallback where Landlock is missing, e.g. gVisor): Python-level file writes,
  deletes and renames outside the temp dir raise ``PermissionError``. Weaker (C code bypasses it);
  the run summary says which level was in force.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import sys
from pathlib import Path
from typing import Any

from harness.config import ENV_SANDBOX, WORKER_FILE_LIMIT


def set_limits(memory_bytes: int | None, file_bytes: int = WORKER_FILE_LIMIT) -> None:
    """No core dumps, bounded file sizes, and (CPU mode) bounded address space."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


# -- Landlock ---------------------------------------------------------------------------------

_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446  # same on x86_64 and arm64
_PR_SET_NO_NEW_PRIVS = 38
_RULE_PATH_BENEATH = 1

_FS_EXECUTE, _FS_WRITE_FILE, _FS_READ_FILE, _FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_REMOVE_DIR, _FS_REMOVE_FILE = 1 << 4, 1 << 5
_FS_READ = _FS_EXECUTE | _FS_READ_FILE | _FS_READ_DIR
_FS_MAKE = sum(1 << b for b in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
# what a job may make in its directory: folders and regular files (device nodes, FIFOs, sockets and
# symlinks have no use there; a FIFO's buffer is memory no limit counts, a device node a way out)
_FS_MAKE_IN_JOB = (1 << 7) | (1 << 8)
_FS_REFER, _FS_TRUNCATE = 1 << 13, 1 << 14
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0 when unavailable)."""
    if not sys.platform.startswith("linux"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(int(version), 0)


def _marks(hidden: list[Path], visible: list[Path]) -> dict[str, bool]:
    """Each existing entry's resolved path -> whether it is hidden. A path in both lists is hidden
    (a home that is itself a ``sys.path`` entry stays unreadable: its tokens weigh more than an
    import that fails)."""
    marks: dict[str, bool] = {}
    for paths, mark in ((visible, False), (hidden, True)):
        for path in paths:
            if os.path.exists(path):
                marks[os.path.realpath(path)] = mark
    return marks


def _marks_below(marks: dict[str, bool]) -> dict[str, set[bool]]:
    """Each folder holding an entry strictly below it -> the marks of those entries."""
    below: dict[str, set[bool]] = {}
    for path, mark in marks.items():
        while path != "/":
            path = os.path.dirname(path)
            below.setdefault(path, set()).add(mark)
    return below


def _hidden_at(path: str, marks: dict[str, bool]) -> bool:
    """Whether ``path`` (resolved) is hidden: the deepest entry containing it decides; none, readable."""
    while True:
        mark = marks.get(path)
        if mark is not None:
            return mark
        if path == "/":
            return False
        path = os.path.dirname(path)


def readable_roots(hidden: list[Path], visible: list[Path], top: Path = Path("/")) -> tuple[list[Path], list[Path]]:
    """``(roots, listable)``: granted read access to the subtrees of ``roots`` and listing of the
    directories in ``listable``, so that under ``top`` a path is readable unless the deepest entry
    of ``hidden`` and ``visible`` that contains it is a hidden one (a path in no entry is readable;
    one entry in both lists is hidden). Entries nest either way: a job's own directory (visible)
    inside the hidden scratch root, a checkout on ``sys.path`` (visible) inside the hidden temp dir,
    and its task and solution folders (hidden) inside that.

    Landlock only grants, so each directory that holds paths of both kinds is opened up entry by
    entry, and itself granted listing only (which Landlock extends to the directories beneath it:
    a hidden directory's names can be listed, its files not read; a directory on ``sys.path`` that
    holds a hidden one stays listable, so imports from it still work). A link is judged by where it
    leads. Cost: one ``scandir`` per such directory, dictionary look-ups per entry."""
    marks = _marks(hidden, visible)
    below = _marks_below(marks)

    roots: list[Path] = []
    listable: list[Path] = []
    todo = [os.path.realpath(top)]
    while todo:
        folder = todo.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        listable.append(Path(folder))
        for entry in entries:
            link = entry.is_symlink()
            # a real entry of a real folder is its own resolved path; only links need resolving
            target = os.path.realpath(entry.path) if link else entry.path
            hidden_here = _hidden_at(target, marks)
            if (not hidden_here) in below.get(target, ()):  # holds the other kind too: entry by entry
                if not link:  # the real directory is reached on its own path
                    todo.append(entry.path)
            elif not hidden_here:
                roots.append(Path(entry.path))
    return roots, listable


def _add_rule(libc: Any, ruleset: int, path: Path, rights: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        rule = _PathBeneathAttr(rights, fd)
        if libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0)) < 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule failed for {path}")
    finally:
        os.close(fd)


def _add_read_rule(libc: Any, ruleset: int, path: Path, rights: int) -> None:
    """Grant reading ``path`` if it can be granted: what is gone since the walk (a temp file), not
    ours to open, or not a file-system object (a link to a pipe or socket, e.g. /dev/stdin, which
    Landlock refuses with EBADFD) stays unreadable by path."""
    try:
        _add_rule(libc, ruleset, path, rights)
    except (FileNotFoundError, PermissionError):
        pass
    except OSError as exc:
        if exc.errno != errno.EBADFD:
            raise


def _landlock(writable: list[Path], abi: int, readable: tuple[list[Path], list[Path]] | None = None) -> None:
    """Writes only to ``writable``; with ``readable`` (roots, listable: see :func:`readable_roots`),
    reads only beneath those roots, and listing of those directories, too."""
    libc = ctypes.CDLL(None, use_errno=True)
    fs = _FS_WRITE_FILE | _FS_REMOVE_DIR | _FS_REMOVE_FILE | _FS_MAKE
    fs |= _FS_REFER if abi >= 2 else 0
    fs |= _FS_TRUNCATE if abi >= 3 else 0
    if readable is not None:
        fs |= _FS_READ
    attr = _RulesetAttr(fs, (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0,
                        (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else (16 if abi >= 4 else 8)
    ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        for path in writable:
            if not path.exists():
                continue
            # a device file takes file rights only (a directory also takes the remove ones, and makes
            # folders and regular files)
            _add_rule(libc, ruleset, path, (fs & ~_FS_MAKE) | _FS_MAKE_IN_JOB if path.is_dir()
                      else fs & (_FS_WRITE_FILE | _FS_TRUNCATE | _FS_READ_FILE))
        roots, listable = readable or ([], [])
        for path in roots:
            # a file takes the file rights only (read, execute); a directory also listing
            _add_read_rule(libc, ruleset, path, _FS_READ if path.is_dir() else _FS_READ & ~_FS_READ_DIR)
        for path in listable:
            _add_read_rule(libc, ruleset, path, _FS_READ_DIR)

        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(NO_NEW_PRIVS) failed")
        if libc.syscall(_SYS_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) < 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)


# -- audit-hook fallback ------------------------------------------------------------------------

_WRITE_EVENTS = {"os.remove", "os.rename", "os.replace", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
                 "os.truncate", "os.symlink", "os.link", "os.utime", "shutil.rmtree", "shutil.move",
                 "shutil.copyfile", "shutil.copytree"}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _audit_hook(allowed: tuple[str, ...], files: set[str]):
    def inside(path: object) -> bool:
        if isinstance(path, int):  # file descriptors were opened earlier, under this hook
            return True
        try:
            p = os.path.realpath(os.fsdecode(path))
        except (TypeError, ValueError):
            return False
        return p.startswith(allowed) or p in files

    def hook(event: str, args: tuple) -> None:
        if event == "open" and len(args) >= 3:
            path, mode, flags = args[0], args[1], args[2]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing and path is not None and not inside(path):
                raise PermissionError(f"sandbox: writing {path!r} is not allowed")
        elif event in _WRITE_EVENTS:
            for path in args[:2]:
                if isinstance(path, (str, bytes, os.PathLike)) and not inside(path):
                    raise PermissionError(f"sandbox: {event} on {path!r} is not allowed")
    return hook


# Device files a worker may write: the null devices, and the GPU's (the CUDA driver opens its
# device nodes read-write). Nothing else under /dev: no /dev/shm, no /dev/mqueue, no other device.
_WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty")
_GPU_DEVICE_PATTERNS = ("nvidia*", "nvidia-caps/*", "dri/*", "kfd")


def writable_devices() -> list[Path]:
    """The device files present on this machine that a worker may open for writing."""
    found = [Path(p) for p in _WRITABLE_DEVICES]
    for pattern in _GPU_DEVICE_PATTERNS:
        found += sorted(Path("/dev").glob(pattern))
    return [p for p in found if p.exists() and not p.is_dir()]


_PR_CAPBSET_DROP, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 24, 47, 4
_CAP_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_capabilities() -> bool:
    """Give up every capability of this process for good (bounding, ambient, effective, permitted,
    inheritable sets): a worker run as root could otherwise make files no one but root can remove
    (the immutable flag, through an ioctl), device nodes, or bypass file permissions. Returns
    whether the sets are empty now (an unprivileged process holds none to begin with)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in range(64):  # EINVAL past the last capability this kernel knows
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header, data = _CapHeader(_CAP_VERSION_3, 0), (_CapData * 2)()
    return libc.capset(ctypes.byref(header), ctypes.byref(data)) == 0


def _under(path: str, roots: tuple[str, ...]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies beneath one (as written: nothing is resolved)."""
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


# Variables of a worker's environment (kept by run/environment.py) that name a folder or file the
# CUDA toolkit or Triton's compiler reads after the import: a toolkit installed in the home, say.
_TOOL_VARIABLE_PREFIXES, _TOOL_VARIABLE_SUFFIXES = ("CUDA_", "TRITON_"), ("_HOME", "_PATH", "_DIR")


def _named_by_environment() -> set[str]:
    """The absolute paths in ``LD_LIBRARY_PATH`` and the CUDA and Triton tool variables."""
    found = {p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if os.path.isabs(p)}
    found.update(value for name, value in os.environ.items()
                 if name.startswith(_TOOL_VARIABLE_PREFIXES) and name.endswith(_TOOL_VARIABLE_SUFFIXES)
                 and os.path.isabs(value))
    return found


def needed_folders(outside: list[Path] = ()) -> list[Path]:
    """What this process reads after it is confined, besides its job dir: where its Python imports
    from (its prefixes, each ``sys.path`` entry, and the folder, or single file, of every top-level
    module already imported that lies in none of those: an editable install's finder maps a package
    to a folder on no ``sys.path`` entry) and the library and tool folders its environment names
    (``LD_LIBRARY_PATH``, ``CUDA_HOME``, ``TRITON_PTXAS_PATH``, ...); none inside ``outside`` (the
    harness loads each task file as a module of its own: the tasks stay hidden)."""
    entries = {sys.prefix, sys.exec_prefix, sys.base_prefix}
    entries.update(os.path.abspath(entry) for entry in sys.path if isinstance(entry, str))  # "": the working dir
    roots = tuple(entries)
    found = entries | _named_by_environment()
    for name, module in list(sys.modules.items()):
        if "." in name:
            continue  # a submodule lies in its package's folder
        file = getattr(module, "__file__", None)
        folders = [os.path.dirname(file) if os.path.basename(file).startswith("__init__.") else file] \
            if isinstance(file, str) else [p for p in getattr(module, "__path__", None) or () if isinstance(p, str)]
        found.update(f for f in folders if not _under(f, roots))  # (most are: no need to resolve them)
    excluded = tuple(os.path.realpath(p) for p in outside)
    resolved = {os.path.realpath(p) for p in found if os.path.exists(p)}
    return sorted(Path(p) for p in resolved if not _under(p, excluded))


def confine(job_dir: Path, hidden: list[Path] = (), visible: list[Path] = ()) -> str:
    """Restrict this process to writing inside ``job_dir`` and to the device files of
    :func:`writable_devices` and, with Landlock, to reading anything but ``hidden``, where
    ``job_dir`` and ``visible`` (what it needs: :func:`needed_folders`) stay readable: the deepest entry
    containing a path decides (:func:`readable_roots`). Every capability is dropped first. Returns
    the level applied (``+reads`` when reads are restricted)."""
    drop_capabilities()
    devices = writable_devices()
    writable = [job_dir, *devices]
    abi = landlock_abi()
    if abi > 0 and os.environ.get(ENV_SANDBOX) != "audit":
        hidden = [p for p in hidden if p.exists()]
        readable = readable_roots(hidden, [job_dir, *visible]) if hidden else None
        try:
            _landlock(writable, abi, readable)
            return f"landlock-abi{abi}" + ("+reads" if readable is not None else "")
        except OSError:
            pass
        try:  # the read rules could not be made (a path that cannot be opened): writes alone
            _landlock(writable, abi)
            return f"landlock-abi{abi}"
        except OSError:
            pass
    sys.addaudithook(_audit_hook((os.path.realpath(job_dir) + os.sep,), {str(p) for p in devices}))
    return "audit-hook"
