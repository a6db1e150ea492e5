import torch
import triton
import triton.language as tl

# The selection is never materialized: the result is viewed as (outer, n_idx, inner) rows
# r = (o, j) of `inner` entries; row r reads input[o, index[j], :] (one index load per row) and
# `other` through its broadcast strides, compares in the promoted dtype and stores bytes.
_TILE = 2048
_TL_TYPES = {torch.int64: tl.int64, torch.int32: tl.int32, torch.int16: tl.int16, torch.int8: tl.int8,
             torch.uint8: tl.uint8, torch.float32: tl.float32, torch.float64: tl.float64,
             torch.float16: tl.float16, torch.bfloat16: tl.bfloat16, torch.bool: tl.int1}


@triton.jit
def _index_select_eq_kernel(x_ptr, idx_ptr, o_ptr, y_ptr, R, n_idx, INNER, n_cb,
                            xs_o, xs_d, xs_i, idx_s, os_o, os_j, os_i,
                            CMP: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    pid_r = pid // n_cb
    pid_c = pid % n_cb
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < R
    o = (rows // n_idx).to(tl.int64)  # int64 offsets: tensors may exceed 2**31 elements
    j = (rows % n_idx).to(tl.int64)
    src = tl.load(idx_ptr + j * idx_s, mask=rmask, other=0).to(tl.int64)
    cols = (pid_c * BLOCK_C + tl.arange(0, BLOCK_C)).to(tl.int64)
    mask = rmask[:, None] & (cols < INNER)[None, :]
    x = tl.load(x_ptr + (o * xs_o + src * xs_d)[:, None] + cols[None, :] * xs_i, mask=mask)
    other = tl.load(o_ptr + (o * os_o + j * os_j)[:, None] + cols[None, :] * os_i, mask=mask)
    # Both sides in the promoted dtype: int64 stays exact, int64 vs float compares in float32.
    eq = x.to(CMP) == other.to(CMP)
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * INNER + cols[None, :], eq.to(tl.uint8), mask=mask)


def _prod(values):
    p = 1
    for v in values:
        p *= v
    return p


def fused_index_select_eq(input, dim, index, other, *, out=None):
    nd = input.dim()
    if not -max(nd, 1) <= dim < max(nd, 1):
        raise IndexError(f"Dimension out of range (got {dim} for a {nd}-d tensor)")
    if index.dim() > 1 or index.dtype not in (torch.int64, torch.int32):
        raise IndexError("index_select(): index must be a 1-D (or 0-d) int64 or int32 tensor")
    idx = index.reshape(-1)
    n_idx = idx.numel()
    if nd == 0:
        if n_idx != 1:
            raise IndexError("index_select(): a 0-d input needs exactly one index")
        shape, outer, inner = [], 1, 1
        x = input.reshape(1, 1, 1)
    else:
        d = dim % nd
        shape = list(input.shape)
        shape[d] = n_idx
        outer, inner = _prod(shape[:d]), _prod(shape[d + 1:])
        x = input.reshape(outer, input.shape[d], inner)  # a view whenever the dims collapse
    cmp_dtype = torch.result_type(input, other)
    if not isinstance(other, torch.Tensor):
        other = torch.full((), other, dtype=cmp_dtype, device=input.device)
    ov = other.expand(shape).reshape(outer, n_idx, inner)  # broadcast dims get stride 0
    direct = out is not None and out.is_contiguous() and out.dtype == torch.bool and list(out.shape) == shape
    y = out if direct else torch.empty(shape, dtype=torch.bool, device=input.device)
    rows = outer * n_idx
    if rows and inner:
        block_c = min(256, triton.next_power_of_2(inner))
        block_r = max(1, min(_TILE // block_c, triton.next_power_of_2(rows)))
        n_cb = triton.cdiv(inner, block_c)
        grid = (triton.cdiv(rows, block_r) * n_cb,)
        _index_select_eq_kernel[grid](x, idx, ov, y.view(torch.uint8), rows, n_idx, inner, n_cb,
                                      *x.stride(), idx.stride(0), *ov.stride(),
                                      CMP=_TL_TYPES[cmp_dtype], BLOCK_R=block_r, BLOCK_C=block_c)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
