import torch
import triton
import triton.language as tl

# The stacked tensor is never built. The result is viewed as (outer, C, inner): C joins the
# members' widths c_k (dim 1, or dim 0 for 1-D members), and member k owns columns
# [off_k, off_k + c_k). One launch per member reads it once and writes its quotients straight
# into its columns of the result; the launches touch disjoint outputs, so nothing is read twice.
_TILE = 2048


@triton.jit
def _hstack_div_kernel(x_ptr, d_ptr, y_ptr, d_scalar, OUTER, W, INNER, ROW, col0, c0, n_cb,
                       xs_o, xs_c, xs_i, ds_o, ds_c, ds_i,
                       D_TENSOR: tl.constexpr, MODE: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # Member (OUTER, W / INNER, INNER) with strides (xs_o, xs_c, xs_i) -> result rows of ROW
    # elements, from column col0 = c0 * INNER on; j = c * INNER + i indexes a member's row.
    pid = tl.program_id(0)
    pid_r = pid // n_cb
    pid_c = pid % n_cb
    rows = (pid_r * BLOCK_R + tl.arange(0, BLOCK_R)).to(tl.int64)  # int64: offsets may exceed 2**31
    j = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    c = (j // INNER).to(tl.int64)
    i = (j % INNER).to(tl.int64)
    mask = (rows < OUTER)[:, None] & (j < W)[None, :]
    x = tl.load(x_ptr + rows[:, None] * xs_o + (c * xs_c + i * xs_i)[None, :], mask=mask, other=0.0)
    if D_TENSOR:  # the divisor broadcast to the result (zero strides on broadcast dims)
        d = tl.load(d_ptr + rows[:, None] * ds_o + ((c0 + c) * ds_c + i * ds_i)[None, :], mask=mask, other=1.0)
    else:
        d = d_scalar
    q = x.to(tl.float32) / d
    if MODE == 1:  # trunc: toward zero
        q = tl.where(q < 0, tl.ceil(q), tl.floor(q))
    elif MODE == 2:  # floor: toward -inf
        q = tl.floor(q)
    tl.store(y_ptr + rows[:, None] * ROW + (col0 + j)[None, :], q.to(y_ptr.dtype.element_ty), mask=mask)


_MODES = {None: 0, "trunc": 1, "floor": 2}


def _as_3d(t, outer, inner):
    """``t`` as (outer, width, inner), a view whenever its trailing dims collapse."""
    if t.dim() == 1:
        return t.view(1, t.shape[0], 1)
    return t.reshape(outer, t.shape[1], inner)


def fused_hstack_div(tensors, divisor, *, rounding_mode=None, out=None):
    if rounding_mode not in _MODES:
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found {rounding_mode!r}")
    members = [t.reshape(1) if t.dim() == 0 else t for t in tensors]
    if not members:
        raise RuntimeError("hstack expects a non-empty TensorList")
    first = members[0]
    if first.dim() == 1:
        members = [t for t in members if t.numel() or t.dim() != 1 or len(members) == 1]
        shape = [sum(t.shape[0] for t in members)]
    else:
        for t in members:
            if t.dim() != first.dim() or t.shape[:1] != first.shape[:1] or t.shape[2:] != first.shape[2:]:
                raise RuntimeError("hstack: tensors must have the same shape except in dimension 1")
        shape = [first.shape[0], sum(t.shape[1] for t in members)] + list(first.shape[2:])
    outer = 1 if len(shape) == 1 else shape[0]
    inner = 1
    for v in shape[2:]:
        inner *= v
    width = shape[0] if len(shape) == 1 else shape[1]
    if isinstance(divisor, torch.Tensor):
        dv = _as_3d(divisor.expand(shape), outer, inner)  # raises if not broadcastable to the result
        ds = dv.stride()
        d_scalar = 1.0
    else:
        dv, ds, d_scalar = members[0], (0, 0, 0), float(divisor)
    direct = out is not None and out.is_contiguous() and out.dtype == torch.float32 and list(out.shape) == shape
    y = out if direct else torch.empty(shape, dtype=torch.float32, device=first.device)
    row = width * inner
    c0 = 0
    for t in members:
        x = _as_3d(t, outer, inner)
        w = x.shape[1] * inner
        if outer and w:
            block_c = min(1024, triton.next_power_of_2(w))
            block_r = max(1, min(_TILE // block_c, triton.next_power_of_2(outer)))
            n_cb = triton.cdiv(w, block_c)
            grid = (triton.cdiv(outer, block_r) * n_cb,)
            _hstack_div_kernel[grid](x, dv, y, d_scalar, outer, w, inner, row, c0 * inner, c0, n_cb,
                                     *x.stride(), *ds, D_TENSOR=isinstance(divisor, torch.Tensor),
                                     MODE=_MODES[rounding_mode], BLOCK_R=block_r, BLOCK_C=block_c)
        c0 += x.shape[1]
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
