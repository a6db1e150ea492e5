"""Triton's on-disk cache, as a worker lets Triton use it: only files this process's Triton wrote,
unchanged since.

Triton loads native code from its cache: a kernel's launcher module (a shared library it built
from C), and a kernel's binary and metadata. The cache is in the job's folder, which the
submission may write. The guard refuses an audited write into the cache that is not Triton's own
(``open`` off the launch path), but some writers raise no audit event: ``torch.from_file`` and
``UntypedStorage.from_file`` map a file shared and writable, ``torch.save`` and ``torch.jit.save``
write through PyTorch's C++ file writer. A file planted there under the name Triton will look for
would be loaded as the submission's native code on Triton's launch path.

So the worker's cache manager serves a file only if this process's Triton put it there and its
bytes are still the ones put: each ``put`` Triton's own code asks for tells the guard's audit hook
(``CACHE_EVENT``), which reads the file and keeps its digest, and each lookup asks the hook to
compare the digest of the bytes there now. The record is the hook's, reachable from nothing the
submission can touch, and the hook takes these events only from this module's own code. Reuse
within a process stays: Triton builds one launcher per signature and reads it back for every
kernel with that signature (a cache that served nothing made the call+exe suite's job-seconds grow
by 37% on an H100: benchmarks/results/2026-12-07-h100-compile-listener/).
"""

from __future__ import annotations

import sys
from typing import Any

from triton.runtime.cache import FileCacheManager

CACHE_EVENT = "kernelbenchx.triton_cache"


def _ours(path: str, audit: Any) -> bool:
    """Whether the guard's hook recorded ``path`` as put by this process's Triton, with the bytes it
    holds now (the hook reads and digests them itself)."""
    answer: list = []
    audit(CACHE_EVENT, "get", path, answer)
    return answer == [True]


class OwnWritesCacheManager(FileCacheManager):
    """A file cache that answers only with files this process's Triton put there, unchanged. What
    its methods call is bound as defaults, not looked up as module globals or through ``super()``'s
    cell (either can be swapped with no audit event while Triton looks). A caller may pass other
    defaults: the hook records a put only when Triton's own code called it, and reads the file
    itself."""

    def put(self, data: Any, filename: str, binary: bool = True, _audit: Any = sys.audit,
            _base: Any = FileCacheManager) -> str:
        path = _base.put(self, data, filename, binary=binary)
        _audit(CACHE_EVENT, "put", path, None)
        return path

    def get_file(self, filename: str, _audit: Any = sys.audit, _ours: Any = _ours,
                 _base: Any = FileCacheManager) -> str | None:
        path = _base.get_file(self, filename)
        return path if path is not None and _ours(path, _audit) else None

    def get_group(self, filename: str, _audit: Any = sys.audit, _ours: Any = _ours,
                  _base: Any = FileCacheManager) -> dict[str, str] | None:
        if self.get_file(f"__grp__{filename}") is None:
            return None
        group = _base.get_group(self, filename)
        if group is None or not all(type(p) is str and _ours(p, _audit) for p in group.values()):
            return None
        return group


def event_codes() -> frozenset:
    """The code objects that may raise ``CACHE_EVENT`` (the guard's hook takes it from no other)."""
    return frozenset({OwnWritesCacheManager.put.__code__, _ours.__code__})


def install_own_writes_cache() -> bool:
    """Make :class:`OwnWritesCacheManager` Triton's cache manager (``triton.knobs``, Triton 3.4
    and later: the launch check's snapshot of the knobs then keeps it); False where this Triton
    has no such knob."""
    from triton import knobs
    section = getattr(knobs, "cache", None)
    if section is None or not hasattr(section, "manager_class"):
        return False
    section.manager_class = OwnWritesCacheManager
    return True
