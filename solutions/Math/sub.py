import torch
import triton
import triton.language as tl

_MAX_DIMS = 4  # broadcast/strided layouts up to this rank are indexed in-kernel without copies


@triton.jit
def _sub_kernel(a_ptr, b_ptr, y_ptr, n_elements, alpha, b_scalar,
                S1, S2, S3,
                sa0, sa1, sa2, sa3,
                sb0, sb1, sb2, sb3,
                FLAT: tl.constexpr, B_IS_SCALAR: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can exceed 2**31
    mask = offsets < n_elements
    if FLAT:
        # Both operands dense with the output's shape: same flat index everywhere.
        a_off = offsets
        b_off = offsets
    else:
        # Split the flat output index into 4-D coordinates and apply each operand's strides
        # (stride 0 along broadcast dimensions, any stride for transposed/strided views).
        i3 = offsets % S3
        r = offsets // S3
        i2 = r % S2
        r = r // S2
        i1 = r % S1
        i0 = r // S1
        a_off = i0 * sa0 + i1 * sa1 + i2 * sa2 + i3 * sa3
        b_off = i0 * sb0 + i1 * sb1 + i2 * sb2 + i3 * sb3
    a = tl.load(a_ptr + a_off, mask=mask).to(tl.float32)
    if B_IS_SCALAR:
        b = b_scalar
    else:
        b = tl.load(b_ptr + b_off, mask=mask).to(tl.float32)
    y = a - alpha * b
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def _strides4(t: torch.Tensor, shape):
    """Strides of `t` broadcast to `shape`, left-padded to 4 dims (stride 0 where broadcast)."""
    st = list(t.expand(shape).stride())
    return [0] * (_MAX_DIMS - len(st)) + st


def sub(input: torch.Tensor, other, *, alpha=1, out=None) -> torch.Tensor:
    b_is_scalar = not isinstance(other, torch.Tensor)
    out_shape = tuple(input.shape) if b_is_scalar else tuple(torch.broadcast_shapes(input.shape, other.shape))
    a = input
    b = None if b_is_scalar else other
    if len(out_shape) > _MAX_DIMS:
        # Rare high-rank case: materialise the broadcast operands densely.
        a = a.expand(out_shape).contiguous()
        b = None if b_is_scalar else b.expand(out_shape).contiguous()
    flat = (tuple(a.shape) == out_shape and a.is_contiguous()
            and (b_is_scalar or (tuple(b.shape) == out_shape and b.is_contiguous())))
    if out is not None and tuple(out.shape) != out_shape:
        out.resize_(out_shape)
    # Write straight into `out` when it is a dense float32 buffer; otherwise compute into a
    # scratch tensor and copy (out may be a strided view).
    direct = out is not None and out.dtype == input.dtype and out.is_contiguous()
    y = out if direct else torch.empty(out_shape, dtype=input.dtype, device=input.device)
    n = y.numel()
    if n:
        if flat:
            shape4, sa, sb = [1] * _MAX_DIMS, [0] * _MAX_DIMS, [0] * _MAX_DIMS  # unused
        else:
            shape4 = [1] * (_MAX_DIMS - len(out_shape)) + list(out_shape)
            sa = _strides4(a, out_shape)
            sb = [0] * _MAX_DIMS if b_is_scalar else _strides4(b, out_shape)
        BLOCK = 1024
        _sub_kernel[(triton.cdiv(n, BLOCK),)](
            a, a if b_is_scalar else b, y, n, float(alpha), float(other) if b_is_scalar else 0.0,
            shape4[1], shape4[2], shape4[3], *sa, *sb,
            FLAT=flat, B_IS_SCALAR=b_is_scalar, BLOCK=BLOCK)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
