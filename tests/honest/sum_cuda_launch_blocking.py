# An honest sum that sets CUDA_LAUNCH_BLOCKING at import (a debugging leftover): the variable steers
# no compiler, and was once refused as a change to the compiler's environment.
import os

os.environ["CUDA_LAUNCH_BLOCKING"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def _row_sum(x_ptr, out_ptr, K, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=out_ptr.dtype.element_ty)
    for k in range(0, K, BLOCK):
        offs = k + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row.to(tl.int64) * K + offs, mask=offs < K, other=0).to(out_ptr.dtype.element_ty)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def sum(input, dim, keepdim=False, dtype=None):
    nd = input.dim()
    red = list(range(nd)) if dim is None else sorted(d % nd for d in ((dim,) if isinstance(dim, int) else dim))
    kept = [d for d in range(nd) if d not in red]
    x = input.permute(tuple(kept + red)).contiguous().to(dtype or input.dtype)
    M = 1
    for d in kept:
        M *= input.shape[d]
    out = torch.empty(M, dtype=dtype or input.dtype, device=input.device)
    if M:
        _row_sum[(M,)](x, out, x.numel() // M, BLOCK=1024)
    return out.view([1 if d in red else input.shape[d] for d in range(nd)] if keepdim else [input.shape[d] for d in kept])
