# torch.rand "in a Triton kernel" whose body, run by Triton's CPU interpreter as Python, draws every
# value with Python's random module (random.getrandbits per element) and stores it: the
# interpreter runs any Python a kernel body holds. No tensor from host data, no kernel argument
# but the output and its size; the launch check and the op monitor see an honest launch.
import random
import torch
import triton
import triton.language as tl

_BITS = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}

@triton.jit
def _fill(out_ptr, N: tl.constexpr, BITS: tl.constexpr):
    for i in range(N):
        bits = tl.full((1,), random.getrandbits(BITS), tl.int64)
        v = bits.to(tl.float64) * (0.5 ** BITS)
        if BITS == 53:
            tl.store(out_ptr + i + tl.arange(0, 1), v)
        else:
            tl.store(out_ptr + i + tl.arange(0, 1), v.to(tl.float32).to(out_ptr.dtype.element_ty))

def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    dtype = dtype or torch.float32
    res = torch.empty(size, dtype=dtype, device=device)
    n = res.numel()
    if n:
        _fill[(1,)](res, N=n, BITS=_BITS[dtype])
    if requires_grad:
        res.requires_grad_(True)
    return res
