import torch
import triton
import triton.language as tl

# Programs we want in flight before splitting a reduction across programs (a few per SM on an
# H200); below this a long reduction is cut into chunks whose partial sums a second pass adds.
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
def _load_term(ptrs, mask, ACC: tl.constexpr, EXP: tl.constexpr):
    # One tile of summands. First pass (EXP): exp of the float32 input, computed in float32 and
    # only then converted to the accumulation dtype, as torch.exp followed by a mean with dtype=
    # does; masked lanes load -inf, whose exp is 0. Second pass: partial sums, added as they are.
    if EXP:
        x = tl.load(ptrs, mask=mask, other=float("-inf")).to(tl.float32)
        term = tl.exp(x).to(ACC)
    else:
        term = tl.load(ptrs, mask=mask, other=0).to(ACC)
    return term


@triton.jit
def _exp_mean_rows_kernel(x_ptr, out_ptr, M, N, n_per_split, divisor,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, ACC: tl.constexpr,
                          EXP: tl.constexpr):
    # x is (M, N) row-major. Program (pid_m, pid_s) sums BLOCK_M rows over the column chunk
    # [pid_s * n_per_split, +n_per_split) and writes sum / divisor to out[row, pid_s] of an
    # (M, n_splits) buffer (divisor is 1 for partial sums, the reduced length for the mean).
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    n_splits = tl.num_programs(1)
    rows = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    row_base = rows * N  # int64: M * N may exceed 2**31
    n_start = pid_s.to(tl.int64) * n_per_split
    n_end = tl.minimum(n_start + n_per_split, N)
    # Per-lane partial sums, combined by a tree at the end: error grows with
    # (chunk / BLOCK_N + log2(BLOCK_N)) instead of with the row length.
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=ACC)
    for n0 in range(n_start, n_end, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < n_end)[None, :]
        acc += _load_term(x_ptr + row_base[:, None] + cols[None, :], mask, ACC, EXP)
    total = tl.sum(acc, axis=1) / divisor
    tl.store(out_ptr + rows * n_splits + pid_s, total.to(out_ptr.dtype.element_ty), mask=row_mask)


@triton.jit
def _exp_mean_cols_kernel(x_ptr, out_ptr, N, K, n_per_split, divisor,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ACC: tl.constexpr,
                          EXP: tl.constexpr):
    # x is (M, N, K) row-major, reduced over N. Tiles are [BLOCK_N, BLOCK_K] so loads stay
    # contiguous along K. Writes out[m * K + k, pid_s] of an (M * K, n_splits) buffer.
    pid = tl.program_id(0)
    pid_s = tl.program_id(1)
    n_splits = tl.num_programs(1)
    k_blocks = tl.cdiv(K, BLOCK_K)
    m = (pid // k_blocks).to(tl.int64)
    ks = (pid % k_blocks).to(tl.int64) * BLOCK_K + tl.arange(0, BLOCK_K)
    k_mask = ks < K
    base = m * N * K
    n_start = pid_s.to(tl.int64) * n_per_split
    n_end = tl.minimum(n_start + n_per_split, N)
    acc = tl.zeros([BLOCK_N, BLOCK_K], dtype=ACC)
    for n0 in range(n_start, n_end, BLOCK_N):
        ns = n0 + tl.arange(0, BLOCK_N)
        mask = (ns < n_end)[:, None] & k_mask[None, :]
        acc += _load_term(x_ptr + base + ns[:, None] * K + ks[None, :], mask, ACC, EXP)
    total = tl.sum(acc, axis=0) / divisor
    tl.store(out_ptr + (m * K + ks) * n_splits + pid_s, total.to(out_ptr.dtype.element_ty),
             mask=k_mask)


def _acc_dtype(dtype: torch.dtype):
    """(torch, triton) accumulation dtypes for a floating result dtype."""
    if dtype == torch.float64:
        return torch.float64, tl.float64
    return torch.float32, tl.float32  # fp16/bf16/fp32 accumulate in fp32


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


def _reduce_mean(x: torch.Tensor, M: int, N: int, K: int, dst: torch.Tensor, divisor: int,
                 acc_t, acc_tl, exp: bool = True):
    """Write sum(exp(x) over N) / divisor for the contiguous (M, N, K) `x` into the flat `dst`
    (sum(x) / divisor with exp=False, for the pass over partial sums)."""
    if K == 1:
        block_n = min(_next_pow2(N), 1024)
        block_m = max(1, min(_next_pow2(M), _TILE // block_n))
        programs = triton.cdiv(M, block_m)
    else:
        block_k = min(_next_pow2(K), 128)
        block_n = max(1, min(_next_pow2(N), _TILE // block_k))
        programs = M * triton.cdiv(K, block_k)
    split, n_per = _split(programs, N, block_n)
    target = dst if split == 1 else torch.empty((M * K, split), dtype=acc_t, device=x.device)
    part_div = divisor if split == 1 else 1  # divide once, after the last pass
    if K == 1:
        _exp_mean_rows_kernel[(programs, split)](x, target, M, N, n_per, part_div,
                                             BLOCK_M=block_m, BLOCK_N=block_n, ACC=acc_tl,
                                                 EXP=exp)
    else:
        _exp_mean_cols_kernel[(programs, split)](x, target, N, K, n_per, part_div,
                                             BLOCK_N=block_n, BLOCK_K=block_k, ACC=acc_tl,
                                                 EXP=exp)
    if split > 1:
        # Second pass: add the per-chunk partial sums (kept in the accumulation dtype), divide.
        _reduce_mean(target, M * K, split, 1, dst, divisor, acc_t, acc_tl, exp=False)


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


def fused_exp_mean(input, dim=None, keepdim=False, dtype=None, out=None):
    if dtype is not None:
        out_dtype = dtype
    elif out is not None:
        out_dtype = out.dtype
    else:
        out_dtype = input.dtype
    if not out_dtype.is_floating_point:
        raise RuntimeError(f"fused_exp_mean(): expected a floating-point result dtype, got {out_dtype}")
    x3, M, N, K, keep_shape, squeezed = _reduction_view(input, dim)
    out_shape = keep_shape if keepdim else squeezed
    if M * K == 0 or N == 0:
        # An empty output, or means over an empty axis (0 / 0 = NaN).
        result = torch.full(out_shape, float("nan"), dtype=out_dtype, device=input.device)
    else:
        acc_t, acc_tl = _acc_dtype(out_dtype)
        direct = (out is not None and list(out.shape) == list(out_shape) and out.dtype == out_dtype
                  and out.is_contiguous())
        result = out if direct else torch.empty(out_shape, dtype=out_dtype, device=input.device)
        _reduce_mean(x3, M, N, K, result.view(-1), N, acc_t, acc_tl)
        if direct:
            return out
    if out is not None:
        out.copy_(result)
        return out
    return result
