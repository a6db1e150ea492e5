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
def _mul_strided_kernel(a_ptr, b_ptr, y_ptr, n_elements,
                        S1, S2, S3, S4, S5,
                        A0, A1, A2, A3, A4, A5,
                        B0, B1, B2, B3, B4, B5,
                        NDIM: tl.constexpr, BLOCK: tl.constexpr):
    # General case: the output is dense with (collapsed) shape [S0, ..., S(NDIM-1)]; a and b are
    # read through their own element strides, which are 0 along broadcast dimensions. The flat
    # output index is split into coordinates from the last dimension backwards.
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    rem = offsets
    a_off = tl.zeros_like(offsets)
    b_off = tl.zeros_like(offsets)
    if NDIM > 5:
        i = rem % S5
        rem = rem // S5
        a_off += i * A5
        b_off += i * B5
    if NDIM > 4:
        i = rem % S4
        rem = rem // S4
        a_off += i * A4
        b_off += i * B4
    if NDIM > 3:
        i = rem % S3
        rem = rem // S3
        a_off += i * A3
        b_off += i * B3
    if NDIM > 2:
        i = rem % S2
        rem = rem // S2
        a_off += i * A2
        b_off += i * B2
    if NDIM > 1:
        i = rem % S1
        rem = rem // S1
        a_off += i * A1
        b_off += i * B1
    a_off += rem * A0
    b_off += rem * B0
    a = tl.load(a_ptr + a_off, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + b_off, mask=mask).to(tl.float32)
    tl.store(y_ptr + offsets, (a * b).to(y_ptr.dtype.element_ty), mask=mask)


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
    sizes = [d[0] for d in dims] + [1] * (MAX_DIMS - len(dims))
    sa = [d[1] for d in dims] + [0] * (MAX_DIMS - len(dims))
    sb = [d[2] for d in dims] + [0] * (MAX_DIMS - len(dims))
    n = y.numel()
    BLOCK = 1024
    _mul_strided_kernel[(triton.cdiv(n, BLOCK),)](a, b, y, n, *sizes[1:], *sa, *sb,
                                                  NDIM=len(dims), BLOCK=BLOCK)


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
