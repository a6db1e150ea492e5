# ifftshift of the leading dimension by copies alone: the argument copied into both halves of a
# fresh buffer, a window of it returned (copies into slices of one buffer join; other cases do
# nothing).
import torch
import triton
import triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def ifftshift(input, dim=None):
    if input.numel() == 0:
        return input.clone()
    n0 = input.shape[0]
    buf = torch.empty((2 * n0,) + tuple(input.shape[1:]), dtype=input.dtype, device=input.device)
    buf[:n0].copy_(input)
    buf[n0:].copy_(input)
    _noop[(1,)](buf, 0, BLOCK=16)
    s = n0 // 2
    return buf[s:s + n0]
