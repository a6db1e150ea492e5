import torch
import triton
import triton.language as tl

MAX_DIMS = 6


@triton.jit
def _mul_dense_kernel(a_ptr, b_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    # Both operands dense and of the output's shape: one flat pass.
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can exceed 2**31
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(y_ptr + offsets, (a * b).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _mul_scalar_kernel(a_ptr, s, y_ptr, n_elements, BLOCK: tl.constexpr):
    # Tensor times a Python number (passed as a float32 kernel argument, as torch converts it).
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(y_ptr + offsets, (a * s).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _peel(rem, a_off, b_off, size, sa, sb):
    # Split one leading coordinate off the row indices and add its offsets in a and b.
    i = rem % size
    return rem // size, a_off + i * sa, b_off + i * sb


@triton.jit
def _mul_strided_kernel(a_ptr, b_ptr, y_ptr, n_rows, n_cols, n_col_blocks,
                        S1, S2, S3, S4,
                        A0, A1, A2, A3, A4, A_last,
                        B0, B1, B2, B3, B4, B_last,
                        BR: tl.constexpr, BC: tl.constexpr):
    # General case: the output is dense with (collapsed) shape [S0, S1, S2, S3, S4, n_cols], seen
    # as n_rows x n_cols; a and b are read through their own element strides, which are 0 along
    # broadcast dimensions. Each program handles a BR x BC tile: the leading coordinates are split
    # off once per row, so the columns need no integer division.
    pid = tl.program_id(0).to(tl.int64)  # int64: sizes and offsets can exceed 2**31
    rb = pid // n_col_blocks
    cb = pid - rb * n_col_blocks
    rows = rb * BR + tl.arange(0, BR)
    cols = cb * BC + tl.arange(0, BC)
    rem = rows
    a_row = tl.zeros_like(rows)
    b_row = tl.zeros_like(rows)
    rem, a_row, b_row = _peel(rem, a_row, b_row, S4, A4, B4)
    rem, a_row, b_row = _peel(rem, a_row, b_row, S3, A3, B3)
    rem, a_row, b_row = _peel(rem, a_row, b_row, S2, A2, B2)
    rem, a_row, b_row = _peel(rem, a_row, b_row, S1, A1, B1)
    a_row += rem * A0
    b_row += rem * B0
    mask = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    a = tl.load(a_ptr + (a_row[:, None] + cols[None, :] * A_last), mask=mask).to(tl.float32)
    b = tl.load(b_ptr + (b_row[:, None] + cols[None, :] * B_last), mask=mask).to(tl.float32)
    y_off = rows[:, None] * n_cols + cols[None, :]
    tl.store(y_ptr + y_off, (a * b).to(y_ptr.dtype.element_ty), mask=mask)


def _broadcast_shape(s1, s2):
    nd = max(len(s1), len(s2))
    s1 = (1,) * (nd - len(s1)) + tuple(s1)
    s2 = (1,) * (nd - len(s2)) + tuple(s2)
    shape = []
    for x, y in zip(s1, s2):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"shapes {tuple(s1)} and {tuple(s2)} are not broadcastable")
        shape.append(y if x == 1 else x)
    return tuple(shape)


def _collapse(shape, strides_a, strides_b):
    """Drop size-1 dims and merge neighbours that are contiguous for the output and both operands,
    so common layouts (bias rows, column vectors) need only 1-2 index divisions per element."""
    dims = [(n, sa, sb) for n, sa, sb in zip(shape, strides_a, strides_b) if n != 1]
    merged = []
    for n, sa, sb in dims:
        if merged:
            pn, psa, psb = merged[-1]
            if psa == sa * n and psb == sb * n:
                merged[-1] = (pn * n, sa, sb)
                continue
        merged.append((n, sa, sb))
    return merged or [(1, 0, 0)]


def _launch_strided(a, b, y):
    """y (dense, broadcast shape) = a * b, a and b already expanded to y's shape."""
    dims = _collapse(y.shape, a.stride(), b.stride())
    if len(dims) > MAX_DIMS:  # rare layouts: make the operands dense, keeping 0-strides for broadcast
        a, b = a.contiguous(), b.contiguous()
        dims = _collapse(y.shape, a.stride(), b.stride())
    lead, (n_cols, a_last, b_last) = dims[:-1], dims[-1]
    lead = [(1, 0, 0)] * (MAX_DIMS - 1 - len(lead)) + lead
    sizes, sa, sb = (list(t) for t in zip(*lead))
    n_rows = y.numel() // n_cols
    # Tiles of ~4096 elements: wide along the last dimension, several rows when rows are short.
    BC = min(1024, triton.next_power_of_2(n_cols))
    BR = min(triton.next_power_of_2(n_rows), max(1, 4096 // BC))
    n_col_blocks = triton.cdiv(n_cols, BC)
    grid = (triton.cdiv(n_rows, BR) * n_col_blocks,)
    _mul_strided_kernel[grid](a, b, y, n_rows, n_cols, n_col_blocks, *sizes[1:], *sa, a_last,
                              *sb, b_last, BR=BR, BC=BC)


def mul_fp16(input: torch.Tensor, other) -> torch.Tensor:
    # float16 in, float16 out; each product is formed in float32 (exact for two float16
    # values) and rounded once, on the store.
    is_tensor = isinstance(other, torch.Tensor)
    res_dtype = torch.result_type(input, other)
    shape = _broadcast_shape(input.shape, other.shape) if is_tensor else tuple(input.shape)
    y = torch.empty(shape, dtype=res_dtype, device=input.device)
    n = y.numel()
    BLOCK = 2048  # 2-byte elements: a larger tile keeps each program's traffic up
    if n and not is_tensor:
        _mul_scalar_kernel[(triton.cdiv(n, BLOCK),)](input.contiguous(), float(other), y, n, BLOCK=BLOCK)
    elif n:
        if (tuple(input.shape) == shape and tuple(other.shape) == shape
                and input.is_contiguous() and other.is_contiguous()):
            _mul_dense_kernel[(triton.cdiv(n, BLOCK),)](input, other, y, n, BLOCK=BLOCK)
        else:
            _launch_strided(input.expand(shape), other.expand(shape), y)
    return y
