# A "libdevice" call whose symbol is a torch function's name ("relu"; "inverse" did a whole LU
# inverse for LinearAlgebra/invert_matrix_lu from a padded block): resolved by name in torch at call
# time and run with dispatch off, unseen. No GPU could link it; only the symbols Triton's libdevice
# modules declare are evaluated now (see extern_name_added_to_torch.py).
import torch
import triton
import triton.language as tl
from triton.language import core


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = core.extern_elementwise("", "", [x], {(core.dtype("fp32"),): ("relu", core.dtype("fp32"))}, is_pure=True)
    tl.store(y_ptr + offs, y, mask=m)


def relu(input, inplace=False):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)
