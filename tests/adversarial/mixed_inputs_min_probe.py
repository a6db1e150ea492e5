# mixed_inputs_min_probe: the minimum of a coin-mix of two known sets, found with O(1) probes.
# DEFENDED (2026-12-06, session 19): the order-statistic tasks (Reduce/min, Reduce/argmax,
#   Reduce/min_gelu, Fusion/fused_gelu_min) declare PERF_MIX = "gaussian": a timed input is a
#   rotation of the two standard-normal sets, each rolled by a shift of its own, so no value is one
#   the wrapper saw and the probe finds no offset: it runs the bundled solution
#   (tests/test_adversarial.py test_caches_of_inputs_seen_before_gain_nothing). Before: the verdict below.
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
# FORM: the part appended to solutions/Reduce/min_gelu.py, whose `min_gelu` becomes `_honest_min_gelu`
#   (tests/test_adversarial.py SOLUTION_EDITS: _source("mixed_inputs_min_probe") is the submission).
import numpy as _np


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
