# PyTorch's jiterator through its public wrapper: torch.cuda.jiterator._create_jit_fn returns an
# object whose __call__, torch's code, calls the launch primitive, so the submission's frame is never
# the one that calls it. Refused whenever the submission is on the stack, whoever calls it (natively
# the run went through: jiterator_named_like_triton had exe ok on the H200 on 2026-12-05). In CPU mode
# the wrapper checks for CUDA first; the submission says CUDA is there (an attribute of its own
# object), so the wrapper goes on to the primitive, which is where the guard must stop it (a CUDA
# build of torch without a GPU shows it; a CPU build has no jiterator).
import torch
import triton
import triton.language as tl
from torch.cuda import jiterator

_jit_relu = jiterator._create_jit_fn("template <typename T> T relu_op(T x) { return (x < T(0)) ? T(0) : x; }")
_jit_relu.is_cuda_available = True


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def relu(input, inplace=False):
    x = input.contiguous()
    _touch[(1,)](x, min(x.numel(), 1), BLOCK=16)
    out = _jit_relu(x)
    if inplace:
        input.copy_(out.view(input.shape))
        return input
    return out.view(input.shape)
