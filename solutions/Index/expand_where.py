import torch
import triton
import triton.language as tl

_MAX_LEAD = 5  # leading dims (all but the innermost) after merging, padded to this many


@triton.jit
def _expand_where_kernel(x_ptr, c_ptr, o_ptr, out_ptr, n_rows, L,
                         S1, S2, S3, S4,
                         XS0, XS1, XS2, XS3, XS4, CS0, CS1, CS2, CS3, CS4,
                         OS0, OS1, OS2, OS3, OS4, xs_l, cs_l, os_l,
                         tiles_c, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # The output is a contiguous (n_rows, L) matrix. Each row's leading coordinates are decoded
    # once per row (not per element); broadcast operands simply have stride 0 on a dim.
    # 1-D grid (axis 1 is limited to 65535 programs): tiles are numbered row-block-major.
    pid = tl.program_id(0).to(tl.int64)
    pid_r = pid // tiles_c
    pid_c = pid % tiles_c
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)  # int64: sizes can exceed 2**31
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    r = rows
    i4 = r % S4
    r = r // S4
    i3 = r % S3
    r = r // S3
    i2 = r % S2
    r = r // S2
    i1 = r % S1
    i0 = r // S1
    x_row = i0 * XS0 + i1 * XS1 + i2 * XS2 + i3 * XS3 + i4 * XS4
    c_row = i0 * CS0 + i1 * CS1 + i2 * CS2 + i3 * CS3 + i4 * CS4
    o_row = i0 * OS0 + i1 * OS1 + i2 * OS2 + i3 * OS3 + i4 * OS4
    mask = (rows < n_rows)[:, None] & (cols < L)[None, :]
    cond = tl.load(c_ptr + c_row[:, None] + cols[None, :] * cs_l, mask=mask, other=0) != 0
    # Read each operand only where it is selected: saves bandwidth, and a NaN/inf in the
    # unselected operand can never leak into the result.
    x = tl.load(x_ptr + x_row[:, None] + cols[None, :] * xs_l, mask=mask & cond, other=0)
    o = tl.load(o_ptr + o_row[:, None] + cols[None, :] * os_l, mask=mask & (cond == 0), other=0)
    y = tl.where(cond, x.to(out_ptr.dtype.element_ty), o.to(out_ptr.dtype.element_ty))
    tl.store(out_ptr + rows[:, None] * L + cols[None, :], y, mask=mask)


def _broadcast_shape(*shapes):
    nd = max(len(s) for s in shapes)
    out = []
    for i in range(nd):
        size = 1
        for s in shapes:
            j = i - (nd - len(s))
            if j < 0 or s[j] == 1:
                continue
            if size != 1 and s[j] != size:
                raise ValueError(f"shapes {[tuple(s) for s in shapes]} are not broadcastable")
            size = s[j]
        out.append(size)
    return out


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def expand_where(input: torch.Tensor, target_sizes, cond: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
    xe = input.expand(*target_sizes)  # a view: -1 keeps a size, new leading dims are allowed
    out_shape = _broadcast_shape(list(xe.shape), list(cond.shape), list(other.shape))
    out_dtype = torch.promote_types(input.dtype, other.dtype)
    out = torch.empty(out_shape, dtype=out_dtype, device=input.device)
    if out.numel() == 0:
        return out
    # Zero-stride views of the three operands on the output shape (no data is copied).
    ops = [xe.expand(out_shape), cond.view(torch.uint8).expand(out_shape), other.expand(out_shape)]
    # Drop size-1 dims and merge neighbouring dims that are contiguous for every operand.
    sizes, strides = [], [[], [], []]
    for d, s in enumerate(out_shape):
        if s == 1:
            continue
        st = [t.stride(d) for t in ops]
        if sizes and all(strides[k][-1] == st[k] * s for k in range(3)):
            sizes[-1] *= s
            for k in range(3):
                strides[k][-1] = st[k]
        else:
            sizes.append(s)
            for k in range(3):
                strides[k].append(st[k])
    if not sizes:
        sizes, strides = [1], [[0], [0], [0]]
    lead = len(sizes) - 1
    if lead > _MAX_LEAD:
        raise NotImplementedError("expand_where: more than 6 non-mergeable dimensions")
    pad = _MAX_LEAD - lead
    lead_sizes = [1] * pad + sizes[:-1]
    lead_strides = [[0] * pad + strides[k][:-1] for k in range(3)]
    L = sizes[-1]
    n_rows = out.numel() // L
    BLOCK_C = min(_next_pow2(L), 1024)
    BLOCK_R = max(1, 4096 // BLOCK_C)
    tiles_c = triton.cdiv(L, BLOCK_C)
    grid = (triton.cdiv(n_rows, BLOCK_R) * tiles_c,)
    _expand_where_kernel[grid](ops[0], ops[1], ops[2], out, n_rows, L, *lead_sizes[1:],
                               *lead_strides[0], *lead_strides[1], *lead_strides[2],
                               strides[0][-1], strides[1][-1], strides[2][-1],
                               tiles_c, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return out
