# PyTorch computes on the GPU under a kernel name the submission picks: torch.cuda.jiterator compiles
# CUDA C++ at run time and launches it without an ATen compute op (the op monitor sees allocations
# only), as `relu_op_vectorized<N>_kernel`. Triton kernels of this file carry exactly those names, so
# the GPU trace would count the jiterator's runs as the submission's own, and one Triton launch with
# an empty grid is counted as a launch while running nothing. The jiterator's launch is refused to
# the submission (GPU only: the jiterator needs CUDA).
import torch
import triton
import triton.language as tl
from torch.cuda import jiterator

_jit_relu = jiterator._create_jit_fn("template <typename T> T relu_op(T x) { return (x < T(0)) ? T(0) : x; }")


@triton.jit
def relu_op_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def relu_op_vectorized1_kernel(x_ptr):
    pass


@triton.jit
def relu_op_vectorized2_kernel(x_ptr):
    pass


@triton.jit
def relu_op_vectorized4_kernel(x_ptr):
    pass


@triton.jit
def relu_op_vectorized8_kernel(x_ptr):
    pass


def relu(input, inplace=False):
    x = input.contiguous()
    if x.numel() == 0:
        out = torch.empty_like(x)
    else:
        relu_op_kernel[(0,)](x, x.numel(), BLOCK=128)  # counted, runs nothing
        out = _jit_relu(x)
    if inplace:
        input.copy_(out.view(input.shape))
        return input
    return out.view(input.shape)
