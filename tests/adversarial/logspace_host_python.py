# logspace computed entirely on the host in plain Python (math.pow per element), uploaded with
# torch.tensor (plain data, allowed), joined with torch.cat (allowed). One do-nothing Triton launch.
import math
import torch
import triton
import triton.language as tl


@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


def _pow(base, x):
    if base == 0.0:
        return 0.0 if x > 0 else (1.0 if x == 0 else math.inf)
    if base < 0.0:
        if x != math.floor(x):
            return math.nan
        mag = _pow(-base, x)
        return -mag if int(x) % 2 else mag
    try:
        return math.pow(base, x)
    except OverflowError:
        return math.inf


def logspace(start, end, steps, base=10.0, dtype=None, layout=torch.strided, device=None, requires_grad=False):
    if isinstance(start, torch.Tensor):
        start = start.item()
    if isinstance(end, torch.Tensor):
        end = end.item()
    dtype = dtype or torch.float32
    start, end, base = float(start), float(end), float(base)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    half = steps // 2 if steps > 1 else 1
    vals = [_pow(base, start + step * i if i < half else end - step * (steps - 1 - i)) for i in range(steps)]
    chunks = [torch.tensor(vals[s:s + (1 << 19)], dtype=dtype, device=device) for s in range(0, steps, 1 << 19)]
    out = chunks[0] if len(chunks) == 1 else torch.cat(chunks)
    _noop[(1,)](out, 0, BLOCK=16)
    if requires_grad:
        out.requires_grad_(True)
    return out
