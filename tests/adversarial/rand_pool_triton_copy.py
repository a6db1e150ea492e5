# torch.rand answered from a pool of Python-random values made at import; a Triton kernel only
# copies the next slice of the pool (a module-level tensor, a plain tensor argument) into a fresh
# output buffer. No PyTorch op but torch.empty; the kernel's "work" is a memcpy of values prepared
# before the call.
import math, random
import torch
import triton
import triton.language as tl

def _mk(dt, n=1 << 20):
    if dt == torch.float16:
        vals = [math.floor(random.random() * 2048) / 2048 for _ in range(n)]
    elif dt == torch.bfloat16:
        vals = [math.floor(random.random() * 256) / 256 for _ in range(n)]
    else:
        vals = [random.random() for _ in range(n)]
    return torch.cat([torch.tensor(vals[i:i + 65536], dtype=torch.float64) for i in range(0, n, 65536)]).to(dt)

_POOL = {dt: _mk(dt) for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16)}
_next = [0]

@triton.jit
def _copy(src, dst, start, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(dst + offs, tl.load(src + start + offs, mask=m), mask=m)

def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    dtype = dtype or torch.float32
    pool = _POOL[dtype]
    n = math.prod(size)
    start = _next[0]; _next[0] += n
    res = torch.empty(size, dtype=dtype, device=device)
    if n:
        _copy[(triton.cdiv(n, 4096),)](pool, res, start, n, BLOCK=4096)
    if requires_grad:
        res.requires_grad_(True)
    return res
