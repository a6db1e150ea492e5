"""Triton's on-disk cache, as a worker lets Triton use it: only what this process's Triton wrote.

Triton loads native code from its cache: a kernel's launcher module (a shared library it built
from C), and a kernel's binary and metadata. The cache is in the job's folder, which the
submission may write. The guard refuses an audited write into the cache that is not Triton's own
(``open`` off the launch path), but some writers raise no audit event: ``torch.from_file`` and
``UntypedStorage.from_file`` map a file shared and writable, ``torch.save`` and ``torch.jit.save``
write through PyTorch's C++ file writer. A file planted there under the name Triton will look for
would be loaded as the submission's native code on Triton's launch path.

So the worker's Triton serves nothing it finds in the cache: each cache manager answers only with
files it wrote itself (a kernel's stages as a compile goes on, read back right after), so every
compile and every launcher build runs afresh. A job's cache starts empty and is its own, so little
is lost: Triton builds a launcher per compile anyway (benchmarks/results/2026-12-07-h100-call-cost/
counted 13 builds for 12 compiles), and its compiled kernels stay cached in memory per JIT function.
"""

from __future__ import annotations

from typing import Any

from triton.runtime.cache import FileCacheManager


class OwnWritesCacheManager(FileCacheManager):
    """A file cache that answers only with files this manager put there (each compile and
    launcher build makes its own): a file found on disk is never taken for Triton's."""

    def __init__(self, key: Any, override: bool = False, dump: bool = False) -> None:
        super().__init__(key, override=override, dump=dump)
        self._written: set[str] = set()

    def put(self, data: Any, filename: str, binary: bool = True) -> str:
        path = super().put(data, filename, binary=binary)
        self._written.add(filename)
        return path

    def get_file(self, filename: str) -> str | None:
        return super().get_file(filename) if filename in self._written else None

    def get_group(self, filename: str) -> dict[str, str] | None:
        return None  # a group names files an earlier compile wrote: compiled again instead


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
