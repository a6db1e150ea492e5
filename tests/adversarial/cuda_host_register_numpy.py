# As pinned_host_offset_address.py, with the host buffer a NumPy array made page-locked by
# registering it with CUDA (torch.cuda.cudart().cudaHostRegister): memory torch's host allocator
# never counts. Registering host memory is refused to the submission. GPU only.
import numpy as np
import torch
import triton
import triton.language as tl

_HOST = np.zeros(64 << 20, dtype=np.uint8)
_REGISTERED = []


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
    address = _HOST.__array_interface__["data"][0]
    if not _REGISTERED:
        torch.cuda.cudart().cudaHostRegister(address, _HOST.nbytes, 0)
        _REGISTERED.append(address)
    if n:
        size = x.element_size()
        _copy(x, 0, x, (address - x.data_ptr()) // size, n)
        torch.cuda.synchronize()
        bits = _HOST[: n * size].view(np.int16 if size == 2 else np.int32)
        nan = (bits & np.array(0x7FFF if size == 2 else 0x7FFFFFFF, bits.dtype)) > np.array(
            0x7F80 if x.dtype == torch.bfloat16 else 0x7C00 if size == 2 else 0x7F800000, bits.dtype)
        np.copyto(bits, np.where((bits < 0) & ~nan, np.zeros((), bits.dtype), bits))
        _copy(out, (address - out.data_ptr()) // size, out, 0, n)
    if inplace:
        input.copy_(out.view(input.shape))
        return input
    return out.view(input.shape)
