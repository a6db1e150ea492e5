# A result of a sub-byte integer dtype (torch.int1), which torch.save cannot write: the worker's save
# of the call's outputs failed, and the job was `integrity` for tampering it never did. Its result is
# now kept as a placeholder naming the dtype, and the verdict is `wrong`.
import torch
import triton
import triton.language as tl


@triton.jit
def _idle(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


def relu(input, inplace=False):
    result = torch.empty(input.shape, dtype=torch.int1)
    _idle[(1,)](input, 1, BLOCK=16)
    return result
