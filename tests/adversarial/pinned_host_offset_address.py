# The host does the work between two Triton copy kernels that reach a page-locked host buffer by
# pointer arithmetic alone: each kernel is handed device tensors only, plus an integer offset (in
# elements) from a device tensor's address to the host buffer's. With unified addressing the sum is
# a valid device pointer to host memory, so the launch check sees no host tensor and the GPU trace
# only this file's kernel; NumPy computes relu in between. Natively the page-locked memory taken in
# the call is the tell (harness/sandbox/pinned_host.py). GPU only: in CPU mode every pointer is a
# host address anyway (README, "CPU mode is weaker").
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(src, src_off, dst, dst_off, n, BLOCK: tl.constexpr):  # a plain copy, named like an honest kernel
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + dst_off + offs, tl.load(src + src_off + offs, mask=mask), mask=mask)


def _copy(src, src_off, dst, dst_off, n):
    _relu_kernel[(triton.cdiv(n, 1024),)](src, src_off, dst, dst_off, n, BLOCK=1024)


def _relu_on_host(host):
    if host.dtype == torch.bfloat16:  # NumPy has no bfloat16: by the bits (sign set, not NaN: zero)
        bits = host.view(torch.int16).numpy()
        np.copyto(bits, np.where((bits < 0) & ((bits & 0x7FFF) <= 0x7F80), np.int16(0), bits))
    else:
        values = host.numpy()
        np.copyto(values, np.where(values < 0, np.zeros((), values.dtype), values))


def relu(input, inplace=False):
    x = input.contiguous()
    n = x.numel()
    out = torch.empty_like(x)
    if n:
        size = x.element_size()
        host = torch.empty(n, dtype=x.dtype, pin_memory=x.is_cuda)
        _copy(x, 0, x, (host.data_ptr() - x.data_ptr()) // size, n)  # device -> host, through x's pointer
        torch.cuda.synchronize()
        _relu_on_host(host)
        _copy(out, (host.data_ptr() - out.data_ptr()) // size, out, 0, n)  # host -> device
    if inplace:
        input.copy_(out.view(input.shape))
        return input
    return out.view(input.shape)
