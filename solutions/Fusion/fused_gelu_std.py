import torch
import triton
import triton.language as tl

# Programs we want in flight before splitting a reduction across programs (a few per SM on an
# H200); below this a long reduction is cut into chunks whose partial statistics (count, mean,
# M2) a second pass merges.
_TARGET_PROGRAMS = 528
_MIN_TILES_PER_CHUNK = 4
_TILE = 2048  # elements per loaded tile: enough bytes in flight, modest register use


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def _prod(xs) -> int:
    p = 1
    for s in xs:
        p *= int(s)
    return p


@triton.jit
def _gelu(x, USE_TANH: tl.constexpr):
    # GELU of a tile in the accumulation dtype, fused into the load so that the activations
    # never go to memory.
    if USE_TANH:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        # 0.5 * (1 + tanh(u)) = sigmoid(2u): finite for large |u|, no cancellation for x < 0.
        y = x * tl.sigmoid(2.0 * inner)
    else:
        y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    return y


@triton.jit
def _std_finish(n, mean, m2, axis: tl.constexpr):
    # Merge per-lane (count, mean, M2) triples along `axis` in closed form (Chan et al.):
    #   M2 = sum_i M2_i + sum_i n_i * (mean_i - mean)^2, with mean the count-weighted mean.
    n_tot = tl.sum(n, axis=axis)
    safe = tl.maximum(n_tot, 1.0)
    mean_tot = tl.sum(n * mean, axis=axis) / safe
    d = mean - tl.expand_dims(mean_tot, axis)
    m2_tot = tl.sum(m2 + n * d * d, axis=axis)
    return n_tot, mean_tot, m2_tot


@triton.jit
def _gelu_std_rows_kernel(x_ptr, std_ptr, pn_ptr, pmean_ptr, pm2_ptr, M, N, n_per_split, denom,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, ACC: tl.constexpr,
                     PARTIAL: tl.constexpr, USE_TANH: tl.constexpr):
    # x is (M, N) row-major. Program (pid_m, pid_s) handles BLOCK_M rows over the column chunk
    # [pid_s * n_per_split, +n_per_split). It writes the std (PARTIAL=False) or the chunk's
    # (count, mean, M2) triple into (M, n_splits) buffers (PARTIAL=True).
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    n_splits = tl.num_programs(1)
    rows = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    row_base = rows * N  # int64: M * N may exceed 2**31
    # Shift every row by GELU of its first element: variance is shift-invariant, and data with a mean far
    # from 0 (e.g. 1000 + noise) would otherwise lose digits in the running means.
    shift = _gelu(tl.load(x_ptr + row_base, mask=row_mask, other=0).to(ACC), USE_TANH)
    n_start = pid_s.to(tl.int64) * n_per_split
    n_end = tl.minimum(n_start + n_per_split, N)
    cnt = tl.zeros([BLOCK_M, BLOCK_N], dtype=ACC)
    mean = tl.zeros([BLOCK_M, BLOCK_N], dtype=ACC)
    m2 = tl.zeros([BLOCK_M, BLOCK_N], dtype=ACC)
    for n0 in range(n_start, n_end, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < n_end)[None, :]
        x = _gelu(tl.load(x_ptr + row_base[:, None] + cols[None, :], mask=mask, other=0).to(ACC),
                  USE_TANH)
        # Welford update per lane (single pass, no E[x^2] - E[x]^2 cancellation).
        y = x - shift[:, None]
        new_cnt = cnt + 1.0
        delta = y - mean
        new_mean = mean + delta / new_cnt
        new_m2 = m2 + delta * (y - new_mean)
        cnt = tl.where(mask, new_cnt, cnt)
        mean = tl.where(mask, new_mean, mean)
        m2 = tl.where(mask, new_m2, m2)
    n_tot, mean_tot, m2_tot = _std_finish(cnt, mean, m2, 1)
    out_idx = rows * n_splits + pid_s
    if PARTIAL:
        tl.store(pn_ptr + out_idx, n_tot, mask=row_mask)
        tl.store(pmean_ptr + out_idx, mean_tot, mask=row_mask)
        tl.store(pm2_ptr + out_idx, m2_tot, mask=row_mask)
    else:
        # denom = max(0, N - correction): 0 gives inf (or NaN for 0/0) as in torch.
        std = tl.sqrt(m2_tot / denom)
        tl.store(std_ptr + out_idx, std.to(std_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def _gelu_std_cols_kernel(x_ptr, std_ptr, pn_ptr, pmean_ptr, pm2_ptr, N, K, n_per_split, denom,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ACC: tl.constexpr,
                     PARTIAL: tl.constexpr, USE_TANH: tl.constexpr):
    # x is (M, N, K) row-major, reduced over N with [BLOCK_N, BLOCK_K] tiles (contiguous along
    # K). Outputs are indexed (m * K + k, pid_s) as in the rows kernel.
    pid = tl.program_id(0)
    pid_s = tl.program_id(1)
    n_splits = tl.num_programs(1)
    k_blocks = tl.cdiv(K, BLOCK_K)
    m = (pid // k_blocks).to(tl.int64)
    ks = (pid % k_blocks).to(tl.int64) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_mask = ks < K
    base = m * N * K
    shift = _gelu(tl.load(x_ptr + base + ks, mask=k_mask, other=0).to(ACC), USE_TANH)  # element n = 0
    n_start = pid_s.to(tl.int64) * n_per_split
    n_end = tl.minimum(n_start + n_per_split, N)
    cnt = tl.zeros([BLOCK_N, BLOCK_K], dtype=ACC)
    mean = tl.zeros([BLOCK_N, BLOCK_K], dtype=ACC)
    m2 = tl.zeros([BLOCK_N, BLOCK_K], dtype=ACC)
    for n0 in range(n_start, n_end, BLOCK_N):
        ns = n0 + tl.arange(0, BLOCK_N)
        mask = (ns < n_end)[:, None] & k_mask[None, :]
        x = _gelu(tl.load(x_ptr + base + ns[:, None] * K + ks[None, :], mask=mask, other=0).to(ACC),
                  USE_TANH)
        y = x - shift[None, :]
        new_cnt = cnt + 1.0
        delta = y - mean
        new_mean = mean + delta / new_cnt
        new_m2 = m2 + delta * (y - new_mean)
        cnt = tl.where(mask, new_cnt, cnt)
        mean = tl.where(mask, new_mean, mean)
        m2 = tl.where(mask, new_m2, m2)
    n_tot, mean_tot, m2_tot = _std_finish(cnt, mean, m2, 0)
    out_idx = (m * K + ks) * n_splits + pid_s
    if PARTIAL:
        tl.store(pn_ptr + out_idx, n_tot, mask=k_mask)
        tl.store(pmean_ptr + out_idx, mean_tot, mask=k_mask)
        tl.store(pm2_ptr + out_idx, m2_tot, mask=k_mask)
    else:
        std = tl.sqrt(m2_tot / denom)
        tl.store(std_ptr + out_idx, std.to(std_ptr.dtype.element_ty), mask=k_mask)


@triton.jit
def _std_combine_kernel(pn_ptr, pmean_ptr, pm2_ptr, std_ptr, R, S, denom,
                        BLOCK_R: tl.constexpr, BLOCK_S: tl.constexpr, ACC: tl.constexpr):
    # Second pass: merge the S per-chunk (count, mean, M2) triples of each of R outputs (all
    # chunks of an output share the same shift, so their means are comparable).
    pid = tl.program_id(0)
    rows = pid.to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    row_mask = rows < R
    cnt = tl.zeros([BLOCK_R, BLOCK_S], dtype=ACC)
    mean = tl.zeros([BLOCK_R, BLOCK_S], dtype=ACC)
    m2 = tl.zeros([BLOCK_R, BLOCK_S], dtype=ACC)
    for s0 in range(0, S, BLOCK_S):
        cols = s0 + tl.arange(0, BLOCK_S)
        mask = row_mask[:, None] & (cols < S)[None, :]
        offs = rows[:, None] * S + cols[None, :]
        nb = tl.load(pn_ptr + offs, mask=mask, other=0)
        mb = tl.load(pmean_ptr + offs, mask=mask, other=0)
        qb = tl.load(pm2_ptr + offs, mask=mask, other=0)
        # Pairwise (Chan) merge of two (count, mean, M2) triples; an empty side changes nothing.
        n_new = cnt + nb
        w = nb / tl.maximum(n_new, 1.0)
        delta = mb - mean
        mean = mean + delta * w
        m2 = m2 + qb + delta * delta * cnt * w
        cnt = n_new
    n_tot, mean_tot, m2_tot = _std_finish(cnt, mean, m2, 1)
    std = tl.sqrt(m2_tot / denom)
    tl.store(std_ptr + rows, std.to(std_ptr.dtype.element_ty), mask=row_mask)


def _acc_dtype(dtype: torch.dtype):
    """(torch, triton) accumulation dtypes: fp64 stays fp64, fp16/bf16/fp32 use fp32."""
    if dtype == torch.float64:
        return torch.float64, tl.float64
    return torch.float32, tl.float32


def _reduce_gelu_std(x: torch.Tensor, M: int, N: int, K: int, dst: torch.Tensor, denom: float,
                     use_tanh: bool):
    """Std over N of GELU of the contiguous (M, N, K) tensor `x`, into the flat (M*K,) `dst`."""
    acc_t, acc_tl = _acc_dtype(x.dtype)
    if K == 1:
        block_n = min(_next_pow2(N), 1024)
        block_m = max(1, min(_next_pow2(M), _TILE // block_n))
        programs = triton.cdiv(M, block_m)
    else:
        block_k = min(_next_pow2(K), 128)
        block_n = max(1, min(_next_pow2(N), _TILE // block_k))
        programs = M * triton.cdiv(K, block_k)
    split, n_per = _split(programs, N, block_n)
    if split > 1:
        parts = [torch.empty((M * K, split), dtype=acc_t, device=x.device) for _ in range(3)]
    else:
        parts = [dst, dst, dst]  # unused
    meta = dict(ACC=acc_tl, PARTIAL=split > 1, USE_TANH=use_tanh, num_warps=8 if _TILE >= 2048 else 4)
    if K == 1:
        _gelu_std_rows_kernel[(programs, split)](x, dst, *parts, M, N, n_per, denom,
                                            BLOCK_M=block_m, BLOCK_N=block_n, **meta)
    else:
        _gelu_std_cols_kernel[(programs, split)](x, dst, *parts, N, K, n_per, denom,
                                            BLOCK_N=block_n, BLOCK_K=block_k, **meta)
    if split > 1:
        R = M * K
        block_s = min(_next_pow2(split), 1024)
        block_r = max(1, min(_next_pow2(R), _TILE // block_s))
        _std_combine_kernel[(triton.cdiv(R, block_r),)](*parts, dst, R, split, denom,
                                                        BLOCK_R=block_r, BLOCK_S=block_s,
                                                        ACC=acc_tl)


def _split(programs: int, N: int, block_n: int):
    """Number of chunks to cut the reduced axis into, and their length (a multiple of block_n)."""
    if programs >= _TARGET_PROGRAMS:
        return 1, N
    max_split = triton.cdiv(N, block_n * _MIN_TILES_PER_CHUNK)
    split = min(triton.cdiv(_TARGET_PROGRAMS, programs), max_split, 65535)
    if split <= 1:
        return 1, N
    n_per = triton.cdiv(triton.cdiv(N, split), block_n) * block_n
    return triton.cdiv(N, n_per), n_per


def _reduction_view(x: torch.Tensor, dim):
    """View `x` as a contiguous (M, N, K) tensor reduced over N.

    Returns (x3, M, N, K, keepdim_shape, squeezed_shape). The M*K outputs come out in the order of
    the kept dimensions. Reduced dimensions that form one run stay in place (no copy for a
    contiguous input); otherwise the kept dimensions are permuted to the front.
    """
    nd = x.dim()
    if nd == 0:
        return x.reshape(1), 1, 1, 1, [], []
    shape = list(x.shape)
    if dim is None:
        dims = list(range(nd))
    else:
        dims = [dim] if isinstance(dim, int) else list(dim)
        if len(dims) == 0:
            dims = list(range(nd))  # torch: an empty dim list reduces everything
    red = []
    for d in dims:
        if not -nd <= d < nd:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-nd}, {nd - 1}], but got {d})")
        d %= nd
        if d in red:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        red.append(d)
    red.sort()
    kept = [d for d in range(nd) if d not in red]
    keep_shape = [1 if d in red else shape[d] for d in range(nd)]
    squeezed = [shape[d] for d in kept]
    if red == list(range(red[0], red[-1] + 1)):
        x3 = x.contiguous()
        M = _prod(shape[:red[0]])
        N = _prod(shape[red[0]:red[-1] + 1])
        K = _prod(shape[red[-1] + 1:])
    else:
        x3 = x.permute(*kept, *red).contiguous()
        M, N, K = _prod(squeezed), _prod(shape[d] for d in red), 1
    return x3, M, N, K, keep_shape, squeezed


def fused_gelu_std(input, dim=None, keepdim=False, correction=1, approximate='none', out=None):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"fused_gelu_std only supports floating-point dtypes, got {input.dtype}")
    x3, M, N, K, keep_shape, squeezed = _reduction_view(input, dim)
    out_shape = keep_shape if keepdim else squeezed
    if M * K == 0 or N == 0:
        # An empty output, or a std over an empty axis (NaN, as in torch).
        result = torch.full(out_shape, float("nan"), dtype=input.dtype, device=input.device)
    else:
        denom = float(max(N - correction, 0))
        direct = (out is not None and list(out.shape) == list(out_shape)
                  and out.dtype == input.dtype and out.is_contiguous())
        result = out if direct else torch.empty(out_shape, dtype=input.dtype, device=input.device)
        _reduce_gelu_std(x3, M, N, K, result.view(-1), denom, approximate == "tanh")
        if direct:
            return out
    if out is not None:
        out.copy_(result)
        return out
    return result
