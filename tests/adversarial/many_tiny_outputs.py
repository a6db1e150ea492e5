# Returns a hundred thousand 0-d tensors (views of one buffer): a few megabytes on disk, within the
# outputs file's byte cap, but the parent would spend hundreds of megabytes and minutes rebuilding
# and comparing them.
import torch
import triton
import triton.language as tl

_MANY = []


@triton.jit
def _token(x_ptr):
    tl.load(x_ptr)


def relu(input, inplace=False):
    if input.numel():
        _token[(1,)](input)
    if not _MANY:
        base = torch.zeros(100_000)
        _MANY.extend(base[i] for i in range(100_000))
    return tuple(_MANY)
