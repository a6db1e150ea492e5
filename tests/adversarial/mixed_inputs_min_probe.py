# mixed_inputs_min_probe: the minimum of a coin-mix of two known sets, found with O(1) probes.
# NOT DEFENDED (2026-12-06): README, "Caches of perf inputs the mix leaves recognisable"; on a GPU the
#   timed-against-checked rule bounds it (not measured natively). Kept as the class's example.
#
# CLASS: order-statistic reductions (min / max / argmin / argmax / topk, full or per row) under
#   the where(coins, roll(A, s), roll(B, s)) mix.
# TARGET: Reduce/min_gelu.py (same idea: Reduce/min, Reduce/argmax and any task whose answer is an
#   extreme element of an elementwise function of one float input).
# HOW: the mix hides which set each element came from, but every element is one of two values the
#   wrapper has already seen AT KNOWN POSITIONS (same shift s for both sets). The wrapper keeps both
#   sets and g = gelu-like(x) of each (a Triton kernel on the honest miss path), plus
#   m[p] = min(gA[p], gB[p]) and, per block of N (row length), the positions sorted by m. On a call
#   it probes x[0] to find s (a binary search in the kept values), checks 8 more positions, and
#   then walks the candidates in increasing m: probe x at the rolled position, which tells the coin
#   (x == A[p] or B[p]) and so the true g there; stop once the next m exceeds the best g seen.
#   Each candidate wins with probability 1/2, so a full min costs ~2-3 probes and a row min a few
#   more (a row is a window of two blocks at column offset s mod N): O(1)-ish reads instead of
#   reading all n elements. Inputs not made of kept sets (exe cases, the fresh check set) miss
#   and run the bundled solution's kernels honestly (+ one elementwise Triton kernel storing g).
#   This CPU demo probes through a zero-copy numpy view; on a GPU the same walk is a small Triton
#   kernel per row (sorted-candidate lists per block are precomputed on the untimed warm-ups).
# VERDICT GOT (KERNELBENCHX_PERF_ON_CPU=1, same run as the honest solution): perf `ok`, speedup 8.458
#   (cases 0.0645 / 0.1347 ms, faster than eager) vs honest 0.002288 (18.91 / 42.18 ms): ~3700x.
#   Reads of x per call (simulated, n = 2**20): ~11 for the full min, ~2.5 per row for 1024x1024 rows.
# CORRECT VERDICT: timed doing the O(n) work. A coin-mix of two fixed sets leaks exactly the
#   structure order statistics need; the timed inputs must contain values the wrapper never saw
#   (e.g. a keyed per-repetition perturbation of every element: x = A_r * (1 + eps*u) + ...,
#   or fresh draws), not just a recombination of seen values.
import numpy as _np
import torch
import triton
import triton.language as tl

# Programs we want in flight before splitting a reduction across programs (a few per SM on an
# H200); below this a long reduction is cut into chunks whose partial (value, index) winners a
# second pass combines.
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
def _gelu_like(x, MODE: tl.constexpr):
    # MODE 1 ('none'): x * erf(x / sqrt(2)) / 2, the task's formula for approximate='none'.
    # MODE 2 ('tanh'): 0.5 * x * (1 + tanh(z)) with z = sqrt(2/pi) * (x + 0.044715 x^3), computed
    #   as x * sigmoid(2z) (the same function) to avoid the cancellation in 1 + tanh(z) for x < 0.
    # MODE 0: identity (second pass over values that are already transformed).
    if MODE == 1:
        y = x * tl.math.erf(x * 0.7071067811865476) * 0.5
    elif MODE == 2:
        z = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = x * tl.sigmoid(2.0 * z)
    else:
        y = x
    return y


@triton.jit
def _precedes(v_a, i_a, v_b, i_b):
    # True where candidate a = (value, index) beats b for torch.min semantics: NaN beats every
    # number (it propagates), then the smaller value, and on equal values (or two NaNs) the
    # smaller index. Index BIG marks an empty candidate (masked lane), which never wins.
    # Used elementwise to update per-lane winners.
    BIG: tl.constexpr = 9223372036854775807
    nan_a = v_a != v_a
    nan_b = v_b != v_b
    smaller = (v_a < v_b) | ((v_a == v_b) & (i_a < i_b))
    wins = (i_b == BIG) | (nan_a & (~nan_b | (i_a < i_b))) | (~nan_a & ~nan_b & smaller)
    return (i_a != BIG) & wins


@triton.jit
def _lanes_to_min(acc_v, acc_i, AXIS: tl.constexpr, HI: tl.constexpr):
    # Merge per-lane winners along AXIS with plain min/sum reductions. A NaN lane wins (smallest
    # index among NaN lanes); otherwise the smallest value, and among lanes holding it the
    # smallest index. HI is a value no smaller than any real one (+inf, or the int maximum).
    BIG: tl.constexpr = 9223372036854775807
    is_nan = acc_v != acc_v
    nan_i = tl.min(tl.where(is_nan, acc_i, BIG), axis=AXIS)
    has_nan = nan_i != BIG
    nan_v = tl.sum(tl.where(is_nan, acc_v, 0), axis=AXIS)  # NaN exactly where has_nan
    valid = (acc_i != BIG) & ~is_nan
    best_v = tl.min(tl.where(valid, acc_v, HI), axis=AXIS)
    hit = valid & (acc_v == tl.expand_dims(best_v, AXIS))
    best_i = tl.min(tl.where(hit, acc_i, BIG), axis=AXIS)
    return tl.where(has_nan, nan_v, best_v), tl.where(has_nan, nan_i, best_i)


@triton.jit
def _min_gelu_rows_kernel(x_ptr, idx_in_ptr, val_ptr, idx_ptr, M, N, n_per_split,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CMP: tl.constexpr,
                          HI: tl.constexpr, HAS_IDX: tl.constexpr, MODE: tl.constexpr):
    # x is (M, N) row-major. Program (pid_m, pid_s) finds the first minimum of g(x) (g given by
    # MODE, fused into the load so g(x) never goes to memory) of BLOCK_M rows over
    # the column chunk [pid_s * n_per_split, +n_per_split) and writes (value, index) at
    # [row, pid_s] of (M, n_splits) buffers. With HAS_IDX the indices come from idx_in_ptr
    # (second pass over per-chunk winners) instead of the column position.
    BIG: tl.constexpr = 9223372036854775807
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    n_splits = tl.num_programs(1)
    rows = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    row_base = rows * N  # int64: M * N may exceed 2**31
    n_start = pid_s.to(tl.int64) * n_per_split
    n_end = tl.minimum(n_start + n_per_split, N)
    # Per-lane running winners; each lane sees increasing indices, so keeping the old winner on
    # ties keeps the first occurrence. Lanes are merged by _lanes_to_min at the end.
    acc_v = tl.zeros([BLOCK_M, BLOCK_N], dtype=CMP)
    acc_i = tl.full([BLOCK_M, BLOCK_N], BIG, tl.int64)
    for n0 in range(n_start, n_end, BLOCK_N):
        cols = (n0 + tl.arange(0, BLOCK_N)).to(tl.int64)
        mask = row_mask[:, None] & (cols < n_end)[None, :]
        offs = row_base[:, None] + cols[None, :]
        v = _gelu_like(tl.load(x_ptr + offs, mask=mask, other=0).to(CMP), MODE)
        if HAS_IDX:
            i = tl.load(idx_in_ptr + offs, mask=mask, other=BIG)
        else:
            i = tl.where(mask, cols[None, :], BIG)
        take = _precedes(v, i, acc_v, acc_i)
        acc_v = tl.where(take, v, acc_v)
        acc_i = tl.where(take, i, acc_i)
    best_v, best_i = _lanes_to_min(acc_v, acc_i, 1, HI)
    out = rows * n_splits + pid_s
    tl.store(val_ptr + out, best_v.to(val_ptr.dtype.element_ty), mask=row_mask)
    tl.store(idx_ptr + out, best_i, mask=row_mask)


@triton.jit
def _min_gelu_cols_kernel(x_ptr, val_ptr, idx_ptr, N, K, n_per_split,
                          BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, CMP: tl.constexpr,
                          HI: tl.constexpr, MODE: tl.constexpr):
    # x is (M, N, K) row-major; first minimum of g(x) over N with [BLOCK_N, BLOCK_K] tiles
    # (contiguous along K). Writes (value, index) at [m * K + k, pid_s] of (M * K, n_splits)
    # buffers.
    BIG: tl.constexpr = 9223372036854775807
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
    acc_v = tl.zeros([BLOCK_N, BLOCK_K], dtype=CMP)
    acc_i = tl.full([BLOCK_N, BLOCK_K], BIG, tl.int64)
    for n0 in range(n_start, n_end, BLOCK_N):
        ns = (n0 + tl.arange(0, BLOCK_N)).to(tl.int64)
        mask = (ns < n_end)[:, None] & k_mask[None, :]
        v = tl.load(x_ptr + base + ns[:, None] * K + ks[None, :], mask=mask, other=0).to(CMP)
        v = _gelu_like(v, MODE)
        i = tl.where(mask, ns[:, None], BIG)
        take = _precedes(v, i, acc_v, acc_i)
        acc_v = tl.where(take, v, acc_v)
        acc_i = tl.where(take, i, acc_i)
    best_v, best_i = _lanes_to_min(acc_v, acc_i, 0, HI)
    out = (m * K + ks) * n_splits + pid_s
    tl.store(val_ptr + out, best_v.to(val_ptr.dtype.element_ty), mask=k_mask)
    tl.store(idx_ptr + out, best_i, mask=k_mask)


def _cmp_dtype(dtype: torch.dtype):
    """(torch, triton) dtypes g(x) is computed and compared in, and a value >= any of them."""
    if dtype == torch.float64:
        return torch.float64, tl.float64, float("inf")
    return torch.float32, tl.float32, float("inf")  # fp16/bf16 compute in fp32


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


def _reduce_min_gelu(x: torch.Tensor, M: int, N: int, K: int, val_dst: torch.Tensor,
                     idx_dst: torch.Tensor, mode: int):
    """First minimum of g(x) over N of the contiguous (M, N, K) `x`, into flat tensors."""
    cmp_t, cmp_tl, hi = _cmp_dtype(x.dtype)
    if K == 1:
        block_n = min(_next_pow2(N), 1024)
        block_m = max(1, min(_next_pow2(M), _TILE // block_n))
        programs = triton.cdiv(M, block_m)
    else:
        block_k = min(_next_pow2(K), 128)
        block_n = max(1, min(_next_pow2(N), _TILE // block_k))
        programs = M * triton.cdiv(K, block_k)
    split, n_per = _split(programs, N, block_n)
    if split == 1:
        vals, idxs = val_dst, idx_dst
    else:
        vals = torch.empty((M * K, split), dtype=cmp_t, device=x.device)
        idxs = torch.empty((M * K, split), dtype=torch.int64, device=x.device)
    if K == 1:
        _min_gelu_rows_kernel[(programs, split)](x, idxs, vals, idxs, M, N, n_per,
                                                 BLOCK_M=block_m, BLOCK_N=block_n, CMP=cmp_tl,
                                                 HI=hi, HAS_IDX=False, MODE=mode)
    else:
        _min_gelu_cols_kernel[(programs, split)](x, vals, idxs, N, K, n_per, BLOCK_N=block_n,
                                                 BLOCK_K=block_k, CMP=cmp_tl, HI=hi, MODE=mode)
    if split > 1:
        # Second pass over the per-chunk winners, which carry their global indices.
        R = M * K
        block_s = min(_next_pow2(split), 1024)
        block_r = max(1, min(_next_pow2(R), _TILE // block_s))
        _min_gelu_rows_kernel[(triton.cdiv(R, block_r), 1)](vals, idxs, val_dst, idx_dst, R,
                                                            split, split, BLOCK_M=block_r,
                                                            BLOCK_N=block_s, CMP=cmp_tl, HI=hi,
                                                            HAS_IDX=True, MODE=0)


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


def _write_into(out: torch.Tensor, result: torch.Tensor) -> torch.Tensor:
    out.copy_(result)
    return out


def _honest_min_gelu(input, dim=None, keepdim=False, approximate='none', out=None):
    modes = {"none": 1, "tanh": 2}
    if approximate not in modes:
        raise ValueError(f"Invalid value for approximate: {approximate}. Choose 'none' or 'tanh'.")
    if not input.dtype.is_floating_point:
        raise TypeError("min_gelu expects a floating-point input")
    mode = modes[approximate]
    dev = input.device
    if dim is None:
        # Minimum over every element: a 0-d tensor (keepdim does not apply here).
        x3, M, N, K, _, _ = _reduction_view(input, None)
        if N == 0:
            raise RuntimeError("min_gelu(): cannot take the minimum of an empty tensor")
        direct = (out is not None and out.dim() == 0 and out.dtype == input.dtype)
        value = out if direct else torch.empty((), dtype=input.dtype, device=dev)
        scratch_idx = torch.empty(1, dtype=torch.int64, device=dev)
        _reduce_min_gelu(x3, M, N, K, value.view(1), scratch_idx, mode)
        if out is not None and not direct:
            return _write_into(out, value)
        return value
    if not isinstance(dim, int):
        raise TypeError("min_gelu: dim must be an int or None")
    x3, M, N, K, keep_shape, squeezed = _reduction_view(input, dim)
    if N == 0:
        raise IndexError("min_gelu(): cannot reduce over a zero-size dimension")
    shape = keep_shape if keepdim else squeezed
    if out is not None:
        out_v, out_i = out
        direct = (list(out_v.shape) == list(shape) and list(out_i.shape) == list(shape)
                  and out_v.dtype == input.dtype and out_i.dtype == torch.int64
                  and out_v.is_contiguous() and out_i.is_contiguous())
    else:
        direct = False
    values = out_v if direct else torch.empty(shape, dtype=input.dtype, device=dev)
    indices = out_i if direct else torch.empty(shape, dtype=torch.int64, device=dev)
    if M * K > 0:
        _reduce_min_gelu(x3, M, N, K, values.view(-1), indices.view(-1), mode)
    if out is not None and not direct:
        return _write_into(out_v, values), _write_into(out_i, indices)
    return values, indices


@triton.jit
def _keep_g_kernel(x_ptr, xc_ptr, g_ptr, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(xc_ptr + offs, x, mask=mask)
    tl.store(g_ptr + offs, _gelu_like(x.to(tl.float32), MODE), mask=mask)


_sets = {}    # (shape, mode) -> list of kept sets: {"x": np values, "g": np g, "sorted": ..., "pos": ...}
_pairs = {}   # (id(a), id(b), N) -> precomputed m and per-block order
_PROBES = 8


class _Miss(Exception):
    pass


def _flat(t):
    return t.numpy().reshape(-1)


def _keep(input, mode):
    n = input.numel()
    xc = torch.empty(n, dtype=torch.float32, device=input.device)
    g = torch.empty(n, dtype=torch.float32, device=input.device)
    _keep_g_kernel[(triton.cdiv(n, 1024),)](input, xc, g, n, MODE=mode, BLOCK=1024)
    xs = _flat(xc)
    order = _np.argsort(xs, kind="stable")
    entry = {"x": xs, "g": _flat(g), "sorted": xs[order], "pos": order}
    kept = _sets.setdefault((tuple(input.shape), mode), [])
    kept.append(entry)
    del kept[:-2]


def _find(x, kept):
    """(a, b, s) with x[i] in {a[(i - s) % n], b[(i - s) % n]} at the probed positions."""
    n = x.shape[0]
    v = x[0]
    probes = [(i * 2654435761 + 7) % n for i in range(1, _PROBES + 1)]
    for e in kept:
        lo = _np.searchsorted(e["sorted"], v, "left")
        hi = _np.searchsorted(e["sorted"], v, "right")
        for p in e["pos"][lo:min(hi, lo + 4)]:
            s = (-int(p)) % n
            a, b = kept[0], kept[-1]
            if all(x[i] == a["x"][(i - s) % n] or x[i] == b["x"][(i - s) % n] for i in probes):
                return a, b, s
    raise _Miss


def _pair(a, b, N):
    key = (id(a["x"]), id(b["x"]), N)
    pr = _pairs.get(key)
    if pr is None:
        m = _np.minimum(a["g"], b["g"])
        pr = {"m": m, "order": _np.argsort(m, kind="stable"),
              "rows": _np.argsort(m.reshape(-1, N), axis=1, kind="stable")}
        if len(_pairs) > 16:
            _pairs.clear()
        _pairs[key] = pr
    return pr


def _g_at(x, a, b, p, i):
    v = x[i]
    if v == a["x"][p]:
        return a["g"][p]
    if v == b["x"][p]:
        return b["g"][p]
    raise _Miss


def _full_min(x, a, b, s, pr):
    n = x.shape[0]
    m, best = pr["m"], _np.float32(_np.inf)
    for p in pr["order"]:
        if m[p] > best:
            return best
        gv = _g_at(x, a, b, p, (p + s) % n)
        if gv < best:
            best = gv
    return best


def _row_min(x, a, b, s, pr, r, N, n):
    m, rows = pr["m"], pr["rows"]
    R = n // N
    start = (r * N - s) % n          # set position of row r's column 0
    k, c = divmod(start, N)
    best, bestj = _np.float32(_np.inf), -1
    # block k's columns [c, N) are row columns [0, N - c); block k + 1's [0, c) are [N - c, N)
    parts = [(k, c, N, -c), ((k + 1) % R, 0, c, N - c)]
    if N - c < c:
        parts.reverse()
    for block, lo, hi, shift in parts:
        base = block * N
        for col in rows[block]:
            p = base + col
            if m[p] > best:
                break
            if not (lo <= col < hi):
                continue
            j = col + shift
            gv = _g_at(x, a, b, p, r * N + j)
            if gv < best or (gv == best and j < bestj):
                best, bestj = gv, j
    return best, bestj


def _attack(input, dim, keepdim, mode, out):
    if input.device.type != "cpu" or input.dtype != torch.float32 or not input.is_contiguous() or input.numel() < 2:
        raise _Miss
    kept = _sets.get((tuple(input.shape), mode))
    if not kept:
        raise _Miss
    x = _flat(input)
    n = x.shape[0]
    a, b, s = _find(x, kept)
    if dim is None:
        best = _full_min(x, a, b, s, _pair(a, b, n))
        if out is not None:
            out.fill_(float(best))
            return out
        return torch.full((), float(best), dtype=torch.float32)
    d = dim % input.dim()
    if d != input.dim() - 1:
        raise _Miss
    N = input.shape[-1]
    pr = _pair(a, b, N)
    R = n // N
    vals = _np.empty(R, dtype=_np.float32)
    idx = _np.empty(R, dtype=_np.int64)
    for r in range(R):
        vals[r], idx[r] = _row_min(x, a, b, s, pr, r, N, n)
    shape = list(input.shape[:-1]) + ([1] if keepdim else [])
    if out is not None:
        ov, oi = out
        _flat(ov)[:] = vals
        _flat(oi)[:] = idx
        return ov, oi
    return torch.from_numpy(vals).reshape(shape), torch.from_numpy(idx).reshape(shape)


def min_gelu(input, dim=None, keepdim=False, approximate='none', out=None):
    mode = {"none": 1, "tanh": 2}.get(approximate)
    if mode is not None and isinstance(input, torch.Tensor):
        try:
            return _attack(input, dim, keepdim, mode, out)
        except _Miss:
            pass
    result = _honest_min_gelu(input, dim=dim, keepdim=keepdim, approximate=approximate, out=out)
    if mode is not None and input.device.type == "cpu" and input.dtype == torch.float32 \
            and input.is_contiguous() and input.numel() > 1:
        _keep(input, mode)
    return result
