import torch
import triton
import triton.language as tl

# Without max_norm: one launch, each program looks up BLOCK_R positions' rows, adds `other` and
# writes tanh. With max_norm the referenced rows are first renormalized in place, once each, which
# needs two barriers: (1) flag the referenced rows (every writer stores the same 1), (2) one program
# per flagged row computes its norm and rescales it, (3) the lookup reads the rescaled rows.
_TILE = 2048


@triton.jit
def _tanh(x):
    ax = tl.abs(x)
    # Near 0 an odd polynomial (1 - 2 / (e^{2x} + 1) cancels there); beyond, the exp form, which
    # saturates to exactly +-1 when exp overflows.
    xs = tl.where(ax < 0.625, x, 0.0)
    z = xs * xs
    p = ((((-5.70498872745e-3 * z + 2.06390887954e-2) * z - 5.37397155531e-2) * z + 1.33314422036e-1) * z
         - 3.33332819422e-1)
    small = xs + xs * z * p
    big = 1.0 - 2.0 / (tl.exp(2.0 * ax) + 1.0)
    big = tl.where(x < 0.0, -big, big)
    return tl.where(ax < 0.625, small, big)


@triton.jit
def _flag_rows_kernel(idx_ptr, flag_ptr, N, idx_s, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    rows = tl.load(idx_ptr + offs * idx_s, mask=m, other=0)
    tl.store(flag_ptr + rows, tl.full([BLOCK], 1, tl.uint8), mask=m)


@triton.jit
def _renorm_rows_kernel(w_ptr, flag_ptr, D, ws0, ws1, max_norm, p, P_KIND: tl.constexpr, BLOCK_D: tl.constexpr):
    # Row v, if referenced: norm = (sum |w|^p)^(1/p); above max_norm, scale by max_norm / (norm + 1e-7).
    v = tl.program_id(0)
    if tl.load(flag_ptr + v) != 0:
        base = w_ptr + v.to(tl.int64) * ws0
        cols = tl.arange(0, BLOCK_D)
        acc = tl.zeros([BLOCK_D], tl.float32)
        for d0 in range(0, D, BLOCK_D):
            d = d0 + cols
            w = tl.load(base + d.to(tl.int64) * ws1, mask=d < D, other=0.0).to(tl.float32)
            if P_KIND == 1:
                acc += tl.abs(w)
            elif P_KIND == 2:
                acc += w * w
            else:  # |w|^p, with 0^p = exp2(-inf) = 0
                acc += tl.exp2(p * tl.log2(tl.abs(w)))
        total = tl.sum(acc, axis=0)
        if P_KIND == 1:
            norm = total
        elif P_KIND == 2:
            norm = tl.sqrt(total)
        else:
            norm = tl.exp2(tl.log2(total) / p)
        if norm > max_norm:
            scale = max_norm / (norm + 1e-7)
            for d0 in range(0, D, BLOCK_D):
                d = d0 + cols
                ptrs = base + d.to(tl.int64) * ws1
                w = tl.load(ptrs, mask=d < D, other=0.0)
                tl.store(ptrs, (w.to(tl.float32) * scale).to(w_ptr.dtype.element_ty), mask=d < D)


@triton.jit
def _embedding_add_tanh_kernel(idx_ptr, w_ptr, o_ptr, y_ptr, N, R1, D, idx_s, ws0, ws1, os0, os1, os_d,
                               BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    # Positions r = r0 * R1 + r1 of the flattened indices; `other` is read through its broadcast
    # strides (os0, os1, os_d) over (r0, r1, d), so e.g. one row per r1 is never expanded.
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < N
    r0 = (rows // R1).to(tl.int64)  # int64 offsets: tensors may exceed 2**31 elements
    r1 = (rows % R1).to(tl.int64)
    i = tl.load(idx_ptr + rows.to(tl.int64) * idx_s, mask=rmask, other=0).to(tl.int64)
    w_row = i * ws0
    o_row = r0 * os0 + r1 * os1
    y_row = rows.to(tl.int64) * D
    cols = tl.arange(0, BLOCK_D)
    for d0 in range(0, D, BLOCK_D):
        d = (d0 + cols).to(tl.int64)
        m = rmask[:, None] & (d < D)[None, :]
        w = tl.load(w_ptr + w_row[:, None] + (d * ws1)[None, :], mask=m, other=0.0).to(tl.float32)
        o = tl.load(o_ptr + o_row[:, None] + (d * os_d)[None, :], mask=m, other=0.0).to(tl.float32)
        y = _tanh(w + o)
        tl.store(y_ptr + y_row[:, None] + d[None, :], y.to(y_ptr.dtype.element_ty), mask=m)


def fused_embedding_add_tanh(input_indices, weight, other, *, padding_idx=None, max_norm=None, norm_type=2.0,
                             scale_grad_by_freq=False, sparse=False, out=None):
    # padding_idx, scale_grad_by_freq and sparse only shape the gradient.
    if weight.dim() != 2:
        raise RuntimeError("weight must be 2-D")
    V, D = weight.shape
    if padding_idx is not None and not -V <= padding_idx < V:
        raise AssertionError("Padding_idx must be within num_embeddings")
    shape = list(input_indices.shape) + [D]
    idx = input_indices.reshape(-1)
    N = idx.numel()
    # other over (positions, D), split as (leading positions, last index dim, D) so a broadcast
    # over the leading dims stays a stride-0 view.
    R1 = input_indices.shape[-1] if input_indices.dim() else 1
    o = other.expand(shape).reshape(N // max(R1, 1) if R1 else 0, R1, D)
    direct = out is not None and out.is_contiguous() and out.dtype == torch.float32 and list(out.shape) == shape
    y = out if direct else torch.empty(shape, dtype=torch.float32, device=weight.device)
    if max_norm is not None and N:
        flags = torch.zeros(V, dtype=torch.uint8, device=weight.device)
        _flag_rows_kernel[(triton.cdiv(N, 1024),)](idx, flags, N, idx.stride(0), BLOCK=1024)
        p = float(norm_type)
        kind = 1 if p == 1.0 else 2 if p == 2.0 else 0
        block_d = min(1024, triton.next_power_of_2(D))
        _renorm_rows_kernel[(V,)](weight, flags, D, weight.stride(0), weight.stride(1), float(max_norm), p,
                                  P_KIND=kind, BLOCK_D=block_d)
    if N and D:
        block_d = min(256, triton.next_power_of_2(D))
        block_r = max(1, min(_TILE // block_d, triton.next_power_of_2(N)))
        _embedding_add_tanh_kernel[(triton.cdiv(N, block_r),)](
            idx, weight, o, y, N, max(R1, 1), D, idx.stride(0), weight.stride(0), weight.stride(1), *o.stride(),
            BLOCK_R=block_r, BLOCK_D=block_d)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
