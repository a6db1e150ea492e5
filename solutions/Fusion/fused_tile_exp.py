import torch
import triton
import triton.language as tl

# The tiled tensor is never built: output element [i_0, ..., i_n] reads input[i_0 % s_0, ...] and
# writes its exp. Adjacent dims are collapsed first -- a dim with one copy merges into the dim
# before it -- so most tilings become 1 to 3 dims; the kernel handles 4 (rows over the first three,
# columns over the last), and the wrapper peels leading dims off any longer collapsed shape.
_KERNEL_DIMS = 4


@triton.jit
def _tile_exp_kernel(x_ptr, y_ptr, R, n_cb, o1, o2, o3, s0, s1, s2, s3, t0, t1, t2,
                     BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # Output (o0, o1, o2, o3) row-major as R = o0*o1*o2 rows of o3; input (s0, s1, s2, s3) with
    # strides (t0, t1, t2, 1); o_d is a multiple of s_d.
    pid = tl.program_id(0)
    pid_r = pid // n_cb
    pid_c = pid % n_cb
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)  # int32 index math (cheap div/mod) ...
    i2 = rows % o2
    q = rows // o2
    i1 = q % o1
    i0 = q // o1
    # ... int64 offsets: tensors may exceed 2**31 elements
    xrow = (i0 % s0).to(tl.int64) * t0 + (i1 % s1).to(tl.int64) * t1 + (i2 % s2).to(tl.int64) * t2
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    xcol = cols % s3
    mask = (rows < R)[:, None] & (cols < o3)[None, :]
    x = tl.load(x_ptr + xrow[:, None] + xcol[None, :], mask=mask, other=0.0)
    y = tl.exp(x.to(tl.float32))
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * o3 + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def _collapse(reps, sizes):
    """Merge dim d+1 into dim d when it is not repeated (its input and output extents agree, so the
    merged index maps by one modulo); drop leading dims of size 1 that are not repeated."""
    out = []
    for r, s in zip(reps, sizes):
        if out and r == 1:
            out[-1] = (out[-1][0], out[-1][1] * s)
        elif r != 1 or s != 1:
            out.append((r, s))
    return out or [(1, 1)]


def _launch(x, y, dims):
    # x: contiguous input viewed as (s_d), y: contiguous output viewed as (r_d * s_d).
    if len(dims) > _KERNEL_DIMS:
        s0 = dims[0][1]
        for j in range(y.shape[0]):
            _launch(x.select(0, j % s0), y.select(0, j), dims[1:])
        return
    dims = [(1, 1)] * (_KERNEL_DIMS - len(dims)) + list(dims)
    (r0, s0), (r1, s1), (r2, s2), (r3, s3) = dims
    o1, o2, o3 = r1 * s1, r2 * s2, r3 * s3
    rows = r0 * s0 * o1 * o2
    t2 = s3
    t1 = s2 * t2
    t0 = s1 * t1
    block_c = min(1024, triton.next_power_of_2(o3))
    block_r = max(1, min(2048 // block_c, triton.next_power_of_2(rows)))
    n_cb = triton.cdiv(o3, block_c)
    grid = (triton.cdiv(rows, block_r) * n_cb,)
    _tile_exp_kernel[grid](x, y, rows, n_cb, o1, o2, o3, s0, s1, s2, s3, t0, t1, t2,
                           BLOCK_R=block_r, BLOCK_C=block_c, num_warps=4)


def fused_tile_exp(input, dims, *, out=None):
    dims = [int(d) for d in dims]
    if any(d < 0 for d in dims):
        raise RuntimeError(f"Trying to create tensor with negative dimension: dims={dims}")
    n = max(input.dim(), len(dims))
    reps = [1] * (n - len(dims)) + dims
    sizes = [1] * (n - input.dim()) + list(input.shape)
    shape = [r * s for r, s in zip(reps, sizes)]
    if out is not None and list(out.shape) != shape:
        raise RuntimeError(f"out has shape {list(out.shape)}, expected {shape}")
    # Write straight into a contiguous out=; otherwise into a fresh tensor (copied into out= if
    # that one is strided).
    direct = out is not None and out.is_contiguous() and out.dtype == input.dtype
    y = out if direct else torch.empty(shape, dtype=input.dtype, device=input.device)
    if y.numel():
        collapsed = _collapse(reps, sizes)
        x = input.contiguous().view([s for _, s in collapsed])
        _launch(x, y.view([r * s for r, s in collapsed]), collapsed)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
