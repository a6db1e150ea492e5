import torch
import triton
import triton.language as tl

MAX_DIMS = 8  # dimensions one launch handles after merging; more take several passes


@triton.jit
def _lead_index(rem, src_off, size, shift, stride):
    # Peel one leading coordinate off the row indices and add its shifted source offset.
    i = rem % size
    src = i + shift
    src = tl.where(src >= size, src - size, src)  # wrap around without a second modulo
    return rem // size, src_off + src * stride


@triton.jit
def _ifftshift_kernel(x_ptr, y_ptr, n_rows, n_cols, n_col_blocks,
                      L0, L1, L2, L3, L4, L5, L6,
                      H0, H1, H2, H3, H4, H5, H6,
                      T0, T1, T2, T3, T4, T5, T6,
                      shift_last, stride_last, BR: tl.constexpr, BC: tl.constexpr):
    # The output is dense with shape [L0, ..., L6, n_cols], seen as n_rows x n_cols. Each program
    # copies a BR x BC tile; out[..., i_d, ...] = in[..., (i_d + shift_d) mod L_d, ...] with
    # shift_d = L_d // 2 on the rolled dimensions and 0 elsewhere. The source offset of a row is
    # computed once per row and shared by the BC columns.
    pid = tl.program_id(0).to(tl.int64)  # int64: tensors can exceed 2**31 elements
    rb = pid // n_col_blocks
    cb = pid - rb * n_col_blocks
    rows = rb * BR + tl.arange(0, BR)
    rem = rows
    src_row = tl.zeros_like(rows)
    rem, src_row = _lead_index(rem, src_row, L6, H6, T6)
    rem, src_row = _lead_index(rem, src_row, L5, H5, T5)
    rem, src_row = _lead_index(rem, src_row, L4, H4, T4)
    rem, src_row = _lead_index(rem, src_row, L3, H3, T3)
    rem, src_row = _lead_index(rem, src_row, L2, H2, T2)
    rem, src_row = _lead_index(rem, src_row, L1, H1, T1)
    rem, src_row = _lead_index(rem, src_row, L0, H0, T0)
    cols = cb * BC + tl.arange(0, BC)
    src_col = cols + shift_last
    src_col = tl.where(src_col >= n_cols, src_col - n_cols, src_col)
    mask = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    vals = tl.load(x_ptr + (src_row[:, None] + src_col[None, :] * stride_last), mask=mask)
    tl.store(y_ptr + (rows[:, None] * n_cols + cols[None, :]), vals, mask=mask)


def _plan(shape, strides, rolled):
    """(size, shift, stride) per dimension after dropping size-1 dimensions and merging neighbours
    that are not rolled and are laid out contiguously with each other in the input."""
    dims = []
    for d, (n, st) in enumerate(zip(shape, strides)):
        if n == 1:
            continue
        shift = n // 2 if d in rolled else 0
        if dims and shift == 0 and dims[-1][1] == 0 and dims[-1][2] == st * n:
            dims[-1] = (dims[-1][0] * n, 0, st)
            continue
        dims.append((n, shift, st))
    return dims or [(1, 0, 1)]


def _launch(x, y, dims):
    lead, (n_cols, shift_last, stride_last) = dims[:-1], dims[-1]
    lead = [(1, 0, 0)] * (MAX_DIMS - 1 - len(lead)) + lead
    sizes, shifts, strides = (list(t) for t in zip(*lead))
    n_rows = y.numel() // n_cols
    # Tiles of ~4096 elements: wide along the last dimension (contiguous in the output), several
    # rows when the rows are short.
    BC = min(1024, triton.next_power_of_2(n_cols))
    BR = min(triton.next_power_of_2(n_rows), max(1, 4096 // BC))
    n_col_blocks = triton.cdiv(n_cols, BC)
    grid = (triton.cdiv(n_rows, BR) * n_col_blocks,)
    _ifftshift_kernel[grid](x, y, n_rows, n_cols, n_col_blocks, *sizes, *shifts, *strides,
                            shift_last, stride_last, BR=BR, BC=BC)


def ifftshift(input: torch.Tensor, dim=None) -> torch.Tensor:
    nd = input.dim()
    if dim is None:
        rolled = list(range(nd))
    elif isinstance(dim, int):
        rolled = [dim]
    else:
        rolled = list(dim)
    rolled = [d + nd if d < 0 else d for d in rolled]
    y = torch.empty(input.shape, dtype=input.dtype, device=input.device)
    if y.numel() == 0:
        return y
    x = input
    # One launch handles up to MAX_DIMS (merged) dimensions. Rarer layouts are made dense, then
    # rolled three dimensions per pass (rolls along different dimensions commute); three rolled
    # dimensions of a dense tensor merge into at most seven.
    todo = sorted(set(rolled))
    while True:
        dims = _plan(x.shape, x.stride(), set(todo))
        if len(dims) <= MAX_DIMS:
            _launch(x, y, dims)
            return y
        if not x.is_contiguous():
            x = x.contiguous()
            continue
        first, todo = todo[:3], todo[3:]
        tmp = torch.empty(input.shape, dtype=input.dtype, device=input.device)
        _launch(x, tmp, _plan(x.shape, x.stride(), set(first)))
        x = tmp
