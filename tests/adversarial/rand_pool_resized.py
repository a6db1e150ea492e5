# torch.rand answered from a pool of Python-random values made at import. Each call first grows the
# pool by one element with Tensor.resize_ (an allowed op): the CPU allocator moves the storage to a
# fresh block and copies the old bytes there, so the pool's storage now has an address and size
# that no operand held before the op -> the monitor records it as "memory made during the call".
# The result is then a plain contiguous view (a slice) of the pool. One do-nothing Triton launch.
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
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    dtype = dtype or torch.float32
    pool = _POOL[dtype]
    pool.resize_(pool.numel() + 1)          # realloc: old bytes copied into a "new" storage
    n = math.prod(size)
    start = _next[0]; _next[0] += n
    res = pool[start:start + n].view(size)
    _noop[(1,)](res, 0, BLOCK=16)
    if requires_grad:
        res.requires_grad_(True)
    return res
