# logspace computed entirely on the host (math.pow per element, in Python), handed to Triton as
# kernel *arguments*: each float64's bits as two Python ints inside a tuple argument (tuples of
# numbers pass the launch check), 256 values per launch. The kernel only stores the numbers it is
# given. No tensor is built from host data, so the 16 KiB lift_fresh cap never sees the values.
import math, struct
import torch
import triton
import triton.language as tl

CHUNK = 256
OFF = 1 << 40  # keeps every int in int64 range, so the interpreter types it int64

@triton.jit
def _put(out_ptr, start, n, hi, lo, N: tl.constexpr):
    for i in tl.static_range(N):
        if i < n:
            h = hi[i].to(tl.int64) - 1099511627776
            l = lo[i].to(tl.int64) - 1099511627776
            bits = (h << 32) | l
            tl.store(out_ptr + start + i, bits.to(tl.float64, bitcast=True).to(out_ptr.dtype.element_ty))

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
    out = torch.empty(steps, dtype=dtype, device=device)
    for s in range(0, steps, CHUNK):
        part = vals[s:s + CHUNK]
        bits = [struct.unpack("<q", struct.pack("<d", v))[0] & ((1 << 64) - 1) for v in part]
        hi = tuple((b >> 32) + OFF for b in bits) + (OFF,) * (CHUNK - len(part))
        lo = tuple((b & 0xFFFFFFFF) + OFF for b in bits) + (OFF,) * (CHUNK - len(part))
        _put[(1,)](out, s, len(part), hi, lo, N=CHUNK)
    if requires_grad:
        out.requires_grad_(True)
    return out
