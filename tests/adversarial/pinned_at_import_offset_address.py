# As pinned_host_offset_address.py, with the page-locked buffer taken once, at import (before any
# call's monitor runs), and reused by every call: the job's page-locked memory is counted from
# before the import, so the import itself is the tell. GPU only.
import numpy as np
import torch
import triton
import triton.language as tl

_HOST = torch.empty(64 << 20, dtype=torch.uint8, pin_memory=torch.cuda.is_available())


@triton.jit
def _relu_kernel(src, src_off, dst, dst_off, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + dst_off + offs, tl.load(src + src_off + offs, mask=mask), mask=mask)


def _copy(src, src_off, dst, dst_off, n):
    _relu_kernel[(triton.cdiv(n, 1024),)](src, src_off, dst, dst_off, n, BLOCK=1024)


def relu(input, inplace=False):
    x = input.contiguous()
    n = x.numel()
    out = torch.empty_like(x)
    if n:
        size = x.element_size()
        host = _HOST[: n * size].view(x.dtype)
        _copy(x, 0, x, (host.data_ptr() - x.data_ptr()) // size, n)
        torch.cuda.synchronize()
        bits = host.view(torch.int16 if size == 2 else torch.int32).numpy()
        # a negative float has its sign bit set, as a negative integer does; NaNs keep their bits
        nan = (bits & np.array(0x7FFF if size == 2 else 0x7FFFFFFF, bits.dtype)) > np.array(
            0x7F80 if x.dtype == torch.bfloat16 else 0x7C00 if size == 2 else 0x7F800000, bits.dtype)
        np.copyto(bits, np.where((bits < 0) & ~nan, np.zeros((), bits.dtype), bits))
        _copy(out, (host.data_ptr() - out.data_ptr()) // size, out, 0, n)
    if inplace:
        input.copy_(out.view(input.shape))
        return input
    return out.view(input.shape)
