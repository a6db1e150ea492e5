import torch
import triton
import triton.language as tl

# The repeated tensor is never built. With the input viewed as (outer, K, inner) along `dim` and r_k
# the repeat counts, each output slice is x_k - lse with lse = log(sum_k r_k exp(x_k)) over the kept
# (r_k > 0) elements. Launches (each a barrier the next one needs):
#   1. partial (max, weighted sum of exp) per chunk of K, per column (o, i);
#   2. merge the chunks of each column into its lse;
#   3. write: output position j of a slice reads its source x[src(j)] and subtracts lse.
# src(j) is j // r for an int r; for a tensor of counts a scan and a fill build the position ->
# source map first.
_TILE = 4096
_SCAN_BLOCK = 1024


@triton.jit
def _scan_kernel(rep_ptr, offsets_ptr, K, SCAN_BLOCK: tl.constexpr):
    # Single program: offsets[k] = r_0 + ... + r_{k-1}; offsets[K] = the total.
    carry = tl.zeros([], dtype=tl.int64)
    for start in range(0, K, SCAN_BLOCK):
        idx = start + tl.arange(0, SCAN_BLOCK)
        c = tl.load(rep_ptr + idx, mask=idx < K, other=0).to(tl.int64)
        incl = tl.cumsum(c, axis=0)
        tl.store(offsets_ptr + idx, carry + incl - c, mask=idx < K)
        carry += tl.sum(c, axis=0)
    tl.store(offsets_ptr + K, carry)


@triton.jit
def _fill_map_kernel(rep_ptr, offsets_ptr, map_ptr, K, BLOCK: tl.constexpr):
    # Source k owns output positions offsets[k] .. offsets[k] + r_k - 1.
    k = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    km = k < K
    r = tl.load(rep_ptr + k, mask=km, other=0).to(tl.int64)
    start = tl.load(offsets_ptr + k, mask=km, other=0)
    r_max = tl.max(r, axis=0)
    t = tl.zeros([], tl.int64)  # a tensor from the start: loop-carried values keep one type
    while t < r_max:
        tl.store(map_ptr + start + t, k, mask=km & (t < r))
        t += 1


@triton.jit
def _partial_stats_kernel(x_ptr, rep_ptr, pm_ptr, ps_ptr, K, INNER, n_chunks, n_ib, xs_o, xs_k, xs_i, R,
                          REP_TENSOR: tl.constexpr, ACC: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    ib = pid % n_ib
    t = pid // n_ib
    c = t % n_chunks
    o = (t // n_chunks).to(tl.int64)  # int64 offsets: tensors may exceed 2**31 elements
    k = c * BLOCK_K + tl.arange(0, BLOCK_K)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    if REP_TENSOR:
        r = tl.load(rep_ptr + k, mask=k < K, other=0).to(ACC)
    else:
        r = tl.zeros([BLOCK_K], ACC) + R
    # Only kept elements (r > 0) take part: a dropped NaN or inf must not poison the slice.
    valid = ((k < K) & (r > 0))[:, None] & (i < INNER)[None, :]
    x = tl.load(x_ptr + o * xs_o + k.to(tl.int64)[:, None] * xs_k + i.to(tl.int64)[None, :] * xs_i,
                mask=valid, other=0).to(ACC)
    x = tl.where(valid, x, float("-inf"))
    m = tl.max(x, axis=0)
    m_safe = tl.where(m == float("-inf"), 0.0, m)  # a column of -inf sums to 0, not NaN
    e = tl.where(valid, r[:, None] * tl.exp(x - m_safe[None, :]), 0.0)
    s = tl.sum(e, axis=0)
    dst = (o * n_chunks + c) * INNER + i
    tl.store(pm_ptr + dst, m, mask=i < INNER)
    tl.store(ps_ptr + dst, s, mask=i < INNER)


@triton.jit
def _merge_kernel(pm_ptr, ps_ptr, lse_ptr, INNER, n_chunks, n_ib,
                  ACC: tl.constexpr, BLOCK_C: tl.constexpr, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    ib = pid % n_ib
    o = (pid // n_ib).to(tl.int64)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    imask = i < INNER
    cs = tl.arange(0, BLOCK_C)
    big_m = tl.full([BLOCK_I], float("-inf"), ACC)
    for c0 in range(0, n_chunks, BLOCK_C):
        c = c0 + cs
        mask = (c < n_chunks)[:, None] & imask[None, :]
        pm = tl.load(pm_ptr + (o * n_chunks + c)[:, None] * INNER + i[None, :], mask=mask, other=float("-inf"))
        big_m = tl.maximum(big_m, tl.max(pm, axis=0))
    m_safe = tl.where(big_m == float("-inf"), 0.0, big_m)
    total = tl.zeros([BLOCK_I], ACC)
    for c0 in range(0, n_chunks, BLOCK_C):
        c = c0 + cs
        mask = (c < n_chunks)[:, None] & imask[None, :]
        offs = (o * n_chunks + c)[:, None] * INNER + i[None, :]
        pm = tl.load(pm_ptr + offs, mask=mask, other=float("-inf"))
        ps = tl.load(ps_ptr + offs, mask=mask, other=0.0)
        total += tl.sum(tl.where(pm == float("-inf"), 0.0, ps * tl.exp(pm - m_safe[None, :])), axis=0)
    # total = 0 (all kept elements -inf) gives lse = -inf, and -inf - -inf = NaN outputs, as in torch.
    tl.store(lse_ptr + o * INNER + i, m_safe + tl.log(total), mask=imask)


@triton.jit
def _write_kernel(x_ptr, map_ptr, lse_ptr, y_ptr, L, INNER, n_jb, n_ib, xs_o, xs_k, xs_i, R,
                  REP_TENSOR: tl.constexpr, ACC: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_I: tl.constexpr):
    pid = tl.program_id(0)
    ib = pid % n_ib
    t = pid // n_ib
    jb = t % n_jb
    o = (t // n_jb).to(tl.int64)
    j = jb * BLOCK_J + tl.arange(0, BLOCK_J)
    i = ib * BLOCK_I + tl.arange(0, BLOCK_I)
    jmask = j < L
    imask = i < INNER
    mask = jmask[:, None] & imask[None, :]
    if REP_TENSOR:
        src = tl.load(map_ptr + j, mask=jmask, other=0).to(tl.int64)
    else:
        src = (j // R).to(tl.int64)
    x = tl.load(x_ptr + o * xs_o + src[:, None] * xs_k + i.to(tl.int64)[None, :] * xs_i, mask=mask, other=0).to(ACC)
    lse = tl.load(lse_ptr + o * INNER + i, mask=imask, other=0.0)
    y = x - lse[None, :]
    tl.store(y_ptr + (o * L + j.to(tl.int64))[:, None] * INNER + i[None, :], y.to(y_ptr.dtype.element_ty), mask=mask)


def _prod(values):
    p = 1
    for v in values:
        p *= v
    return p


def fused_repeat_interleave_log_softmax(input, repeats, dim=None, *, output_size=None, dtype=None, out=None):
    out_dtype = input.dtype if dtype is None else dtype
    if out_dtype not in (torch.float32, torch.float64):
        raise RuntimeError(f"log_softmax needs float32 or float64 (pass dtype for {input.dtype} input)")
    acc = tl.float64 if out_dtype == torch.float64 else tl.float32
    if dim is None or input.dim() == 0:
        x = input.reshape(1, -1, 1)  # flattened (row-major order); a copy only if non-contiguous
        lead, tail = [], []
    else:
        d = dim % input.dim()
        lead, tail = list(input.shape[:d]), list(input.shape[d + 1:])
        x = input.reshape(_prod(lead), input.shape[d], _prod(tail))  # a view whenever the dims collapse
    outer, K, inner = x.shape
    rep_tensor = isinstance(repeats, torch.Tensor) and repeats.numel() != 1
    dev = input.device
    if rep_tensor:
        if repeats.dim() != 1 or repeats.shape[0] != K:
            raise RuntimeError(f"repeats must have {K} entries, got shape {list(repeats.shape)}")
        reps = repeats.contiguous()
        offsets = torch.empty(K + 1, dtype=torch.int64, device=dev)
        _scan_kernel[(1,)](reps, offsets, K, SCAN_BLOCK=_SCAN_BLOCK)
        L = int(output_size) if output_size is not None else int(offsets[K].item())
        R = 1
    else:
        R = int(repeats.item()) if isinstance(repeats, torch.Tensor) else int(repeats)
        if R < 0:
            raise RuntimeError("repeats can not be negative")
        L, reps = K * R, x
    shape = lead + [L] + tail
    direct = out is not None and out.is_contiguous() and out.dtype == out_dtype and list(out.shape) == shape
    y = out if direct else torch.empty(shape, dtype=out_dtype, device=dev)
    if y.numel():
        if rep_tensor:
            src_map = torch.empty(L, dtype=torch.int32, device=dev)
            _fill_map_kernel[(triton.cdiv(K, 256),)](reps, offsets, src_map, K, BLOCK=256)
        else:
            src_map = x
        block_i = min(64, triton.next_power_of_2(inner))
        block_k = max(1, min(_TILE // block_i, triton.next_power_of_2(K)))
        n_chunks, n_ib = triton.cdiv(K, block_k), triton.cdiv(inner, block_i)
        pm = torch.empty((outer, n_chunks, inner), dtype=out_dtype, device=dev)
        ps = torch.empty_like(pm)
        lse = torch.empty((outer, inner), dtype=out_dtype, device=dev)
        _partial_stats_kernel[(outer * n_chunks * n_ib,)](x, reps, pm, ps, K, inner, n_chunks, n_ib, *x.stride(), R,
                                                          REP_TENSOR=rep_tensor, ACC=acc, BLOCK_K=block_k,
                                                          BLOCK_I=block_i)
        _merge_kernel[(outer * n_ib,)](pm, ps, lse, inner, n_chunks, n_ib, ACC=acc,
                                       BLOCK_C=max(1, min(_TILE // block_i, triton.next_power_of_2(n_chunks))),
                                       BLOCK_I=block_i)
        block_j = max(1, min(_TILE // block_i, triton.next_power_of_2(L)))
        n_jb = triton.cdiv(L, block_j)
        _write_kernel[(outer * n_jb * n_ib,)](x, src_map, lse, y, L, inner, n_jb, n_ib, *x.stride(), R,
                                              REP_TENSOR=rep_tensor, ACC=acc, BLOCK_J=block_j, BLOCK_I=block_i)
    if out is None:
        return y
    if not direct:
        out.copy_(y)
    return out
