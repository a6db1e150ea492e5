# Swaps torch in sys.modules between the perf stage's last check and the saving of its results:
# an object with a finalizer hangs on the perf call buffers (the same tensors every repetition),
# which the harness drops when timing ends, just before it saves the kept results; the finalizer
# puts a module of its own under torch's name, where an import inside the saving function would
# find it (here it only breaks the save; a real attack would save another answer). The perf
# server saves through the module it bound before the import, and checks for swapped modules
# right before it saves: integrity.
import sys
import types

import torch
import triton
import triton.language as tl

_shapes = {}


class _Swap:
    def __del__(self):
        fake = types.ModuleType("torch")
        fake.serialization = types.ModuleType("torch.serialization")
        sys.modules["torch"] = fake


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def relu(input, inplace=False):
    key = (tuple(input.shape), inplace)
    _shapes[key] = _shapes.get(key, 0) + 1
    if _shapes[key] >= 5 and "kbx_swap" not in input.__dict__:  # a perf case: the same buffers again and again
        input.kbx_swap = _Swap()
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
