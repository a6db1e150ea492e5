# A "libdevice" call whose symbol is a name the submission added to torch at import: Triton's
# interpreter has the harness evaluate libdevice calls with torch, with dispatch off (the kernel's
# own math), and a symbol looked up by name at call time found the submission's function there, run
# unseen inside a counted launch (any task: a hook that did a whole convolution with F.conv2d on
# tensors it kept passed Convolution/conv2d). Only the functions of the symbols Triton's libdevice
# modules declare, bound before the import, are evaluated: an unknown symbol fails as it would
# fail to link on a GPU.
import torch
import triton
import triton.language as tl
from triton.language import core


def _anything(x):
    return torch.nn.functional.relu(x)  # any Python and PyTorch, with the op monitor blind


torch.kbx_anything = _anything  # a new name, not a rebinding


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = core.extern_elementwise("", "", [x], {(core.dtype("fp32"),): ("kbx_anything", core.dtype("fp32"))},
                                is_pure=True)
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
