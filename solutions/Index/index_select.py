import torch
import triton
import triton.language as tl


@triton.jit
def _index_select_kernel(x_ptr, idx_ptr, out_ptr, n_rows, K, D, inner, idx_stride,
                         tiles_c, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # View input as (outer, D, inner) and the output as (outer, K, inner), both contiguous.
    # Each program copies a [BLOCK_R, BLOCK_C] tile: BLOCK_R output rows (one (outer, k) pair
    # each) by BLOCK_C contiguous elements of `inner`, so loads and stores stay coalesced.
    # 1-D grid (axis 1 is limited to 65535 programs): tiles are numbered row-block-major.
    pid = tl.program_id(0).to(tl.int64)
    pid_r = pid // tiles_c
    pid_c = pid % tiles_c
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)  # int64: sizes can exceed 2**31
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    row_mask = rows < n_rows
    col_mask = cols < inner
    k = rows % K
    o = rows // K
    # One index load per row (not per element); int32 indices are widened before use.
    src_row = tl.load(idx_ptr + k * idx_stride, mask=row_mask, other=0).to(tl.int64)
    src = (o * D + src_row) * inner
    mask = row_mask[:, None] & col_mask[None, :]
    v = tl.load(x_ptr + src[:, None] + cols[None, :], mask=mask)
    tl.store(out_ptr + rows[:, None] * inner + cols[None, :], v, mask=mask)


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def index_select(input: torch.Tensor, dim: int, index: torch.Tensor) -> torch.Tensor:
    nd = input.dim()
    if nd == 0:
        raise ValueError("index_select: input must have at least one dimension")
    d = dim + nd if dim < 0 else dim
    if not 0 <= d < nd:
        raise IndexError(f"dim {dim} out of range for a {nd}-d tensor")
    if index.dim() > 1:
        raise ValueError("index_select: index must be 0-d or 1-d")
    idx = index.reshape(-1)
    x = input.contiguous()  # the kernel assumes a row-major (outer, D, inner) layout
    shape = list(x.shape)
    outer = 1
    for s in shape[:d]:
        outer *= s
    inner = 1
    for s in shape[d + 1:]:
        inner *= s
    D = shape[d]
    K = idx.numel()
    out = torch.empty(shape[:d] + [K] + shape[d + 1:], dtype=x.dtype, device=x.device)
    n_rows = outer * K
    if n_rows == 0 or inner == 0:
        return out
    BLOCK_C = min(_next_pow2(inner), 1024)
    BLOCK_R = max(1, 4096 // BLOCK_C)
    tiles_c = triton.cdiv(inner, BLOCK_C)
    grid = (triton.cdiv(n_rows, BLOCK_R) * tiles_c,)
    _index_select_kernel[grid](x, idx, out, n_rows, K, D, inner, idx.stride(0) if K > 1 else 1,
                               tiles_c, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return out
