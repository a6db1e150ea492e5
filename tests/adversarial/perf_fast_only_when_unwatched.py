# A slow Triton ReLU whenever the harness watches (a dispatch mode is on the stack: the exe cases and
# the perf check call), PyTorch's own ReLU when it does not (the timed repetitions): every checked
# result is right and comes from Triton, and the timed median is PyTorch's. Only comparing the timed
# median with the GPU time of the watched call's kernels catches it (timed_faster_than_checked).
import torch
import triton
import triton.language as tl

PROGRAMS, BLOCK = 16, 64


@triton.jit
def _slow_relu_kernel(x_ptr, y_ptr, n, PROGRAMS: tl.constexpr, BLOCK: tl.constexpr):
    # few programs of one warp each, walking the tensor in small steps: far from the GPU's bandwidth
    for start in range(tl.program_id(0) * BLOCK, n, PROGRAMS * BLOCK):
        offs = start + tl.arange(0, BLOCK).to(tl.int64)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def relu(input, inplace=False):
    if not torch._C._len_torch_dispatch_stack():  # not watched: the library does it
        return torch.relu_(input) if inplace else torch.relu(input)
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _slow_relu_kernel[(PROGRAMS,)](x, y, x.numel(), PROGRAMS=PROGRAMS, BLOCK=BLOCK, num_warps=1)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
