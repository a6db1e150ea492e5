"""Page-locked host memory taken in a GPU worker.

A GPU kernel can address page-locked ("pinned") host memory: with unified addressing its address
is a valid pointer on the device. A kernel handed a device tensor and an integer offset reaches a
pinned host buffer by plain pointer arithmetic, with no host tensor among its arguments (which the
launch check refuses) and no cast the compiler would show. Two copy kernels then move a call's
input out to the host and the answer back, the host computes in between (NumPy, Python), and the
GPU trace sees only the submission's Triton kernels: `exe: ok` with no work done by Triton
(tests/adversarial/pinned_host_offset_address.py). Pageable memory is out of a kernel's reach on a
GPU without HMM (the H100 used here reports addressing mode "None"); page-locked memory
comes from torch's host allocator (``pin_memory=True``, ``Tensor.pin_memory()``, a device-to-host
copy with ``non_blocking=True``) or from registering memory with CUDA (``cudaHostRegister``,
refused by the guard, as is resetting the allocator's counters).

So a worker counts the bytes torch's host allocator has ever taken from CUDA (its pool's growth,
which reusing a cached block does not add to and freeing does not take back), from before the
submission is imported, and a job whose import and calls grew it past a small allowance is
``tampering``. torch's own operators take a few bytes there for themselves (``nonzero`` reads its
count back through a pinned scalar), which the allowance covers; no bundled solution pins memory.
The harness's own pinned buffers (perf results staged for saving) come after the checks.
"""

from __future__ import annotations

import sys
from typing import Callable

# Bytes of pool growth a job may cause: torch's operators' own scalars, rounded to powers of two
# and cached. Far below any task's largest case, which a host round trip would have to hold.
PINNED_ALLOWANCE = 64 << 10
# the allocator's statistic of bytes taken from CUDA, and its historical total increase
_POOL_BYTES, _TOTAL_INCREASE = "allocated_bytes", "allocated"


def pool_growth_reader() -> Callable[[], int] | None:
    """A reader, bound now, of the bytes torch's host allocator has taken from CUDA in this
    process; None without CUDA (CPU mode has no page-locked memory a kernel could reach) or where
    torch's statistics do not say it (the worker's sandbox level then lacks ``+pinned``)."""
    torch = sys.modules.get("torch")
    stats = getattr(getattr(torch, "_C", None), "_cuda_hostMemoryStats", None)
    if stats is None or not torch.cuda.is_available():
        return None
    get, dict_, int_ = dict.get, dict, int
    try:
        entry = get(stats(), _POOL_BYTES)
    except RuntimeError:
        return None
    if type(entry) is not dict_ or _TOTAL_INCREASE not in entry:
        return None

    def read() -> int:
        return int_(stats()[_POOL_BYTES][_TOTAL_INCREASE])
    return read


class PinnedHostWatch:
    """How much page-locked host memory the submission's job has taken, from the moment it is made
    (before the import)."""

    __slots__ = ("_read", "_start")

    def __init__(self) -> None:
        self._read = pool_growth_reader()
        self._start = self._read() if self._read is not None else 0

    @property
    def active(self) -> bool:
        """Whether this process's page-locked memory is counted (a GPU, and torch's statistic)."""
        return self._read is not None

    def problem(self, when: str) -> str | None:
        """Why the worker may not go on, if the job took more than :data:`PINNED_ALLOWANCE`."""
        if self._read is None:
            return None
        taken = self._read() - self._start
        if taken <= PINNED_ALLOWANCE:
            return None
        return (f"tampering: {taken} bytes of page-locked host memory taken {when} (a GPU kernel can address it "
                "directly, so work done on the host between two copy kernels is seen by no monitor); keep a "
                "call's data on the device")
