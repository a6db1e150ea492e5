"""A cap on the GPU memory a worker's process may take, set by the harness and by nothing else.

Jobs share a GPU, and each job's perf stage shares it with its own judge (the baseline process),
so the run budgets GPU memory (run/gpu_memory.py): a call/exe worker may hold
``CALL_EXE_ALLOWANCE``, a job in perf what it reserved. Without a cap the budget was a wish: a
submission that took all the memory it found made its baseline's next step run out, a harness error
not held against the job, and made other jobs' perf stages fail beside it.

PyTorch's caching allocator refuses to grow past a per-process limit
(``torch.cuda.set_per_process_memory_fraction``); an allocation over it is the submission's own
out-of-memory error. The harness sets the limit in the worker before the submission is imported
(the call/exe allowance) and raises it when perf starts (the job's share); the guard refuses the
setters, and torch's allocator settings that can change the limit, to the submission and to any
library while the submission is on the stack (sandbox/guard.py), so only the lines here change it.

Not capped: what is not the caching allocator's (the CUDA context, loaded kernel code, a kernel's
printf buffer); the submission reaches no other allocator without native code, which the guard
refuses.
"""

from __future__ import annotations

import torch

# bound when the worker imports this module, before any submission: the guard then replaces
# torch._C's setter by a stand-in that hands the original only to the line below (HARNESS_PROXY_USES)
_SET_FRACTION = getattr(torch._C, "_cuda_setMemoryFraction", None)
_TOTAL_BYTES: dict[int, int] = {}  # device index -> its memory, read at the first cap (before the import)


def cap_gpu_memory(device: str, nbytes: int | None) -> float | None:
    """Cap what this process's caching allocator may hold on ``device`` at ``nbytes`` (None: no
    cap); returns the fraction of the device's memory set, or None where nothing was set (no CUDA
    device, no cap). The first call must come before the submission is imported (it reads the
    device's size then; a later call uses what it read)."""
    if nbytes is None or _SET_FRACTION is None or not device.startswith("cuda"):
        return None
    index = int(device.partition(":")[2] or 0)
    if index not in _TOTAL_BYTES:
        _TOTAL_BYTES[index] = int(torch.cuda.get_device_properties(index).total_memory)
    fraction = min(1.0, max(0.0, float(nbytes) / _TOTAL_BYTES[index]))
    _SET_FRACTION(fraction, index)
    return fraction
