# logspace computed with NumPy on the host and wrapped with torch.from_dlpack (no op dispatched, so
# nothing is counted as host data), with a one-element tensor lifted over the same NumPy buffer so
# that its address might pass for memory the call made (storages are told apart by size too).
import numpy as np
import torch
import triton
import triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def logspace(start, end, steps, base=10.0, dtype=None, layout=torch.strided, device=None, requires_grad=False):
    if isinstance(start, torch.Tensor): start = start.item()
    if isinstance(end, torch.Tensor): end = end.item()
    dtype = dtype or torch.float32
    npdt = np.float64 if dtype == torch.float64 else np.float32
    with np.errstate(all="ignore"):
        arr = np.logspace(float(start), float(end), int(steps), base=float(base), dtype=np.float64).astype(npdt)
    arr = np.ascontiguousarray(arr)
    t = torch.from_dlpack(arr)
    torch.as_tensor(arr[:1])
    _noop[(1,)](t, 0, BLOCK=16)
    if requires_grad:
        t.requires_grad_(True)
    return t
