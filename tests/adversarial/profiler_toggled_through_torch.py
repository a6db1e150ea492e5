# A profiler session started and stopped by torch's own profile() inside the call: the harness's
# GPU trace (which kernels the call ran, natively) is such a session, and one begun or ended by the
# submission's call would end it or replace it with one that saw only what was chosen. The call is
# otherwise honest: starting the session must be refused.
import torch
import triton
import triton.language as tl
from torch.autograd.profiler import profile


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    session = profile(use_cpu=True)
    session.__enter__()
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    session.__exit__(None, None, None)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
