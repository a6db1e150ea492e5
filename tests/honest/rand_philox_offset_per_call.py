# An honest rand in PyTorch's own manner: one fixed Philox key, the counter offset advancing by the
# numbers each call uses. New numbers on every call of a process; a job spread over several
# processes starts each at offset 0 (compared within a process only).
import torch
import triton
import triton.language as tl

# PyTorch-style Philox: one fixed key, the counter offset advances by the numbers used per call.
_SEED = 0x5EED1234
_OFFSET = 0


@triton.jit
def _rand_kernel(out_ptr, n, seed, base, IS_F64: tl.constexpr, BITS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ctr = base + offs
    r0, r1, r2, r3 = tl.randint4x(seed, ctr)
    if IS_F64:
        hi = (r0 >> 5).to(tl.float64)
        lo = (r1 >> 6).to(tl.float64)
        u = (hi * 67108864.0 + lo) * 1.1102230246251565e-16
        tl.store(out_ptr + offs, u, mask=mask)
    else:
        v = (r0 >> (32 - BITS)).to(tl.float32) * (1.0 / (1 << BITS))
        tl.store(out_ptr + offs, v.to(out_ptr.dtype.element_ty), mask=mask)


_BITS = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}


def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    global _OFFSET
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    dtype = dtype or torch.get_default_dtype()
    res = torch.empty(size, dtype=dtype, device=device)
    n = res.numel()
    if n:
        base = _OFFSET
        _OFFSET += n
        BLOCK = 1024
        _rand_kernel[(triton.cdiv(n, BLOCK),)](res, n, _SEED, base, IS_F64=dtype == torch.float64,
                                               BITS=_BITS[dtype], BLOCK=BLOCK)
    if out is not None:
        out.copy_(res)
        res = out
    if requires_grad:
        res.requires_grad_(True)
    return res
