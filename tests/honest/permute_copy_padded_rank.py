# An honest permute_copy (a DATA_MOVEMENT task) that pads the input to rank 6 with a view (leading
# size-1 dims) and makes it dense with .contiguous() before one kernel permutes: the copy reads the
# argument in its own order, which the copy rule once refused as a rearrangement.
import torch
import triton
import triton.language as tl


@triton.jit
def _permute6(x_ptr, y_ptr, n, S0, S1, S2, S3, S4, S5, T0, T1, T2, T3, T4, T5, BLOCK: tl.constexpr):
    r = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = r < n
    lin = r
    i5 = r % S5
    r = r // S5
    i4 = r % S4
    r = r // S4
    i3 = r % S3
    r = r // S3
    i2 = r % S2
    r = r // S2
    i1 = r % S1
    i0 = r // S1
    src = i0 * T0 + i1 * T1 + i2 * T2 + i3 * T3 + i4 * T4 + i5 * T5
    tl.store(y_ptr + lin, tl.load(x_ptr + src, mask=mask), mask=mask)


def permute_copy(input, dims):
    nd = input.dim()
    pad = 6 - nd
    x = input.reshape((1,) * pad + tuple(input.shape)).contiguous()   # rank 6, dense
    order = list(range(pad)) + [d % nd + pad for d in dims]
    y = torch.empty([input.shape[d % nd] for d in dims], dtype=input.dtype, device=input.device)
    n = y.numel()
    if n:
        _permute6[(triton.cdiv(n, 1024),)](x, y, n, *[x.shape[d] for d in order], *[x.stride(d) for d in order],
                                           BLOCK=1024)
    return y
