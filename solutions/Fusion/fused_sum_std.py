import torch
import triton
import triton.language as tl

# Two launches, because the standard deviation needs every sum (a global barrier):
# (1) the sums of the (P, K) view, each row's K terms split over up to SPLIT programs that write
#     partial sums; (2) one program adds each row's partials (in a fixed order) and computes the
#     standard deviation of the P sums in two passes (mean, then squared deviations).
_TARGET_PROGRAMS = 1024
_TILE = 2048
_STD_BLOCK = 1024


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


@triton.jit
def _partial_sums_kernel(x_ptr, part_ptr, P, K, s_p, s_k, SPLIT, n_kb,
                         BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr, ACC: tl.constexpr):
    # Program (pb, sp) sums rows pb*BLOCK_P.. over the K-blocks sp, sp + SPLIT, ... into
    # part[sp, row]. Per-lane accumulators, one tree reduction at the end.
    pb = tl.program_id(0)
    sp = tl.program_id(1)
    rows = pb.to(tl.int64) * BLOCK_P + tl.arange(0, BLOCK_P)
    rmask = rows < P
    ks = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_P, BLOCK_K], ACC)
    for kb in range(sp, n_kb, SPLIT):
        k = ks.to(tl.int64) + kb * BLOCK_K  # int64: offsets may exceed 2**31
        m = rmask[:, None] & (k < K)[None, :]
        x = tl.load(x_ptr + rows[:, None] * s_p + k[None, :] * s_k, mask=m, other=0.0)
        acc += x.to(ACC)
    tl.store(part_ptr + sp.to(tl.int64) * P + rows, tl.sum(acc, axis=1), mask=rmask)


@triton.jit
def _row_sums(part_ptr, p, pmask, P, SPLIT, BLOCK: tl.constexpr, ACC: tl.constexpr):
    s = tl.zeros([BLOCK], ACC)
    for sp in range(0, SPLIT):
        s += tl.load(part_ptr + sp * P + p, mask=pmask, other=0.0)
    return s


@triton.jit
def _std_of_sums_kernel(part_ptr, out_ptr, P, n, SPLIT, correction, BLOCK: tl.constexpr, ACC: tl.constexpr):
    # One program (n = P as a float): mean of the P sums, then sum((s - mean)^2) recomputing the sums from the same
    # partials in the same order (so they are bit-identical), then the corrected square root.
    offs = tl.arange(0, BLOCK)
    tot = tl.zeros([BLOCK], ACC)
    for p0 in range(0, P, BLOCK):
        p = p0 + offs
        tot += _row_sums(part_ptr, p, p < P, P, SPLIT, BLOCK, ACC)
    mean = tl.sum(tot, axis=0) / n  # P = 0: 0 / 0 = NaN, as in torch
    m2 = tl.zeros([BLOCK], ACC)
    for p0 in range(0, P, BLOCK):
        p = p0 + offs
        pmask = p < P
        d = tl.where(pmask, _row_sums(part_ptr, p, pmask, P, SPLIT, BLOCK, ACC) - mean, 0.0)
        m2 += d * d
    dof = tl.maximum(n - correction, 0.0)
    std = tl.sqrt(tl.sum(m2, axis=0) / dof)  # dof = 0: inf, or NaN when m2 = 0
    tl.store(out_ptr, std.to(out_ptr.dtype.element_ty))


def _reduced_dims(nd, dim):
    if dim is None:
        return list(range(nd))
    dims = [dim] if isinstance(dim, int) else list(dim)
    if nd == 0:
        for d in dims:
            if d not in (0, -1):
                raise IndexError(f"Dimension out of range (got {d} for a 0-d tensor)")
        return []
    for d in dims:
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (got {d} for a {nd}-d tensor)")
    return sorted({d % nd for d in dims})


def fused_sum_std(input, dim=None, keepdim=False, dtype=None, correction=1, out=None):
    acc_dtype = input.dtype if dtype is None else dtype
    if acc_dtype not in (torch.float32, torch.float64):
        raise TypeError(f"fused_sum_std supports float32 and float64 sums, got {acc_dtype}")
    acc = tl.float64 if acc_dtype == torch.float64 else tl.float32
    nd = input.dim()
    red = _reduced_dims(nd, dim)
    kept = [d for d in range(nd) if d not in red]
    P, K = 1, 1
    for d in kept:
        P *= input.shape[d]
    for d in red:
        K *= input.shape[d]
    # Kept dims first, reduced dims last: a (P, K) view (a copy only when the dims do not collapse).
    x = input.permute(kept + red).reshape(P, K) if nd else input.reshape(1, 1)
    s_p, s_k = x.stride()
    shape = (1,) * nd if keepdim else ()
    if out is None:
        out = torch.empty(shape, dtype=acc_dtype, device=input.device)
    elif out.numel() != 1 or out.dtype != acc_dtype:
        raise RuntimeError(f"out must be a one-element {acc_dtype} tensor, got {out.dtype}{list(out.shape)}")
    if s_k == 1 or K >= 16 * P:
        block_k = min(_TILE, _next_pow2(K))
        block_p = max(1, min(_TILE // block_k, _next_pow2(P)))
    else:  # short rows along a strided axis: tiles wide along P (contiguous for dim=0 of a matrix)
        block_p = min(64, _next_pow2(P))
        block_k = max(1, min(_TILE // block_p, _next_pow2(K)))
    n_pb, n_kb = triton.cdiv(P, block_p), triton.cdiv(K, block_k)
    split = max(1, min(n_kb, triton.cdiv(_TARGET_PROGRAMS, max(n_pb, 1))))
    part = torch.empty((split, P), dtype=acc_dtype, device=input.device)
    if P > 0:
        _partial_sums_kernel[(n_pb, split)](x, part, P, K, s_p, s_k, split, n_kb,
                                            BLOCK_P=block_p, BLOCK_K=block_k, ACC=acc)
    _std_of_sums_kernel[(1,)](part, out, P, float(P), split, float(correction), BLOCK=_STD_BLOCK, ACC=acc)
    return out
