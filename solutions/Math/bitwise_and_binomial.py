import itertools

import torch
import triton
import triton.language as tl


@triton.jit
def _uniforms(seed, idx, draw):
    # Two independent uniforms in [0, 1) per element and draw: Philox keyed by `seed`, counter
    # (element index lo, hi, draw number, 0), so every element and every retry gets fresh bits.
    r0, r1, _, _ = tl.philox(seed, idx.to(tl.uint32), (idx >> 32).to(tl.uint32),
                             tl.zeros_like(idx).to(tl.uint32) + draw, tl.zeros_like(idx).to(tl.uint32))
    return tl.random.uint_to_uniform_float(r0), tl.random.uint_to_uniform_float(r1)


@triton.jit
def _log_fact_tail(k):
    # Stirling tail fc(k) = log k! - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]:
    # exact values for k < 5, the series 1/(12(k+1)) - 1/(360(k+1)^3) + 1/(1260(k+1)^5) beyond
    # (relative error < 2e-7 there).
    k1 = k + 1.0
    r = 1.0 / (k1 * k1)
    series = (1.0 / 12.0 - r * (1.0 / 360.0 - r * (1.0 / 1260.0))) / k1
    t = tl.where(k == 0.0, 0.08106146679532726, series)
    t = tl.where(k == 1.0, 0.04134069595540929, t)
    t = tl.where(k == 2.0, 0.02767792568499834, t)
    t = tl.where(k == 3.0, 0.02079067210376509, t)
    t = tl.where(k == 4.0, 0.01664469118982119, t)
    return t


@triton.jit
def _binomial_kernel(n_ptr, p_ptr, out_ptr, numel, seed,
                     N_SCALAR: tl.constexpr, P_SCALAR: tl.constexpr, USE_LOGITS: tl.constexpr,
                     BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: outputs can exceed 2**31
    mask = idx < numel
    if N_SCALAR:
        n = tl.load(n_ptr).to(tl.float32) + tl.zeros([BLOCK], tl.float32)
    else:
        n = tl.load(n_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    if P_SCALAR:
        raw = tl.load(p_ptr).to(tl.float32) + tl.zeros([BLOCK], tl.float32)
    else:
        raw = tl.load(p_ptr + idx, mask=mask, other=0.0).to(tl.float32)
    # Sample with the smaller of p and 1 - p and mirror (k -> n - k) if p > 1/2; from logits,
    # sigmoid(-|l|) gives that smaller probability without cancellation.
    if USE_LOGITS:
        flip = raw > 0.0
        pp = tl.sigmoid(-tl.abs(raw))
    else:
        flip = raw > 0.5
        pp = tl.where(flip, 1.0 - raw, raw)
    n = tl.where(mask, n, 0.0)
    q = 1.0 - pp
    mean = n * pp
    small = mean < 10.0

    # --- mean < 10: inversion, a sequential search of the CDF from k = 0 (~mean + 1 steps).
    # The search is capped ~6 standard deviations above the mean: float32 rounding of the CDF
    # could otherwise let u exceed the final sum and run on towards n.
    u, _ = _uniforms(seed, idx, 0)
    ratio = pp / q
    pmf = tl.exp(n * tl.log(q))
    cdf = pmf
    k_inv = tl.zeros([BLOCK], tl.float32)
    cap = tl.minimum(n, tl.floor(mean + 6.0 * tl.sqrt(mean) + 8.0))
    active = small & (u > cdf) & (k_inv < cap)
    while tl.max(active.to(tl.int32), axis=0) > 0:
        k_next = k_inv + 1.0
        pmf = tl.where(active, pmf * ((n - k_inv) / k_next) * ratio, pmf)
        cdf = tl.where(active, cdf + pmf, cdf)
        k_inv = tl.where(active, k_next, k_inv)
        active = active & (u > cdf) & (k_inv < cap)

    # --- mean >= 10: BTRS transformed rejection with squeeze (Hormann 1993); ~1.2 rounds on
    # average. The acceptance test uses log-ratios of the pmf (no large log-factorials cancel).
    spq = tl.sqrt(tl.where(small, 1.0, mean * q))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * pp
    c = mean + 0.5
    v_r = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    r = pp / q
    m = tl.floor((n + 1.0) * pp)
    base = ((m + 0.5) * tl.log((m + 1.0) / (r * (n - m + 1.0)))
            + _log_fact_tail(m) + _log_fact_tail(n - m))
    k_rej = tl.zeros([BLOCK], tl.float32)
    active = ~small
    draw = pid * 0 + 1  # a runtime counter (loop-carried), not a compile-time constant
    while tl.max(active.to(tl.int32), axis=0) > 0:
        u1, v = _uniforms(seed, idx, draw)
        u1 = u1 - 0.5
        us = 0.5 - tl.abs(u1)
        k = tl.floor((2.0 * a / us + b) * u1 + c)
        in_range = (k >= 0.0) & (k <= n)
        squeeze = (us >= 0.07) & (v <= v_r)
        kk = tl.minimum(tl.maximum(k, 0.0), n)
        lv = tl.log(v * alpha / (a / (us * us) + b))
        bound = (base + (n + 1.0) * tl.log((n - m + 1.0) / (n - kk + 1.0))
                 + (kk + 0.5) * tl.log(r * (n - kk + 1.0) / (kk + 1.0))
                 - _log_fact_tail(kk) - _log_fact_tail(n - kk))
        accept = active & in_range & (squeeze | (lv <= bound))
        k_rej = tl.where(accept, k, k_rej)
        active = active & ~accept
        draw += 1

    k = tl.where(small, k_inv, k_rej)
    k = tl.where(flip, n - k, k)
    tl.store(out_ptr + idx, k.to(out_ptr.dtype.element_ty), mask=mask)


def _broadcast_shape(a, b):
    nd = max(len(a), len(b))
    a = (1,) * (nd - len(a)) + tuple(a)
    b = (1,) * (nd - len(b)) + tuple(b)
    shape = []
    for p, q in zip(a, b):
        if p != q and p != 1 and q != 1:
            raise RuntimeError(f"shapes {tuple(a)} and {tuple(b)} are not broadcastable")
        shape.append(q if p == 1 else p)
    return tuple(shape)


_calls = itertools.count()


def _next_seed() -> int:
    # Fresh Philox key per call, derived from PyTorch's seed so torch.manual_seed still matters.
    return (torch.initial_seed() * 0x9E3779B97F4A7C15 + next(_calls) * 0xBF58476D1CE4E5B9) % (2**31 - 1)


def bitwise_and_binomial(input: torch.Tensor, other: torch.Tensor, total_count: torch.Tensor,
                         probs: torch.Tensor = None, logits: torch.Tensor = None) -> torch.Tensor:
    # input & other does not enter the result (as in the reference), so it is not computed.
    if (probs is None) == (logits is None):
        raise ValueError("exactly one of `probs` or `logits` must be given")
    param = probs if probs is not None else logits
    shape = _broadcast_shape(total_count.shape, param.shape)
    numel = 1
    for s in shape:
        numel *= s
    out = torch.empty(shape, dtype=param.dtype, device=param.device)
    if numel == 0:
        return out
    # A single value is read once by every program; anything else is laid out densely at the
    # broadcast shape.
    n_scalar = total_count.numel() == 1
    p_scalar = param.numel() == 1
    n_t = total_count.reshape(1) if n_scalar else total_count.expand(shape).contiguous()
    p_t = param.reshape(1) if p_scalar else param.expand(shape).contiguous()
    # Lanes of a program loop until the slowest one is done, so blocks are moderate in size.
    BLOCK = 1024
    _binomial_kernel[(triton.cdiv(numel, BLOCK),)](
        n_t, p_t, out, numel, _next_seed(),
        N_SCALAR=n_scalar, P_SCALAR=p_scalar, USE_LOGITS=probs is None, BLOCK=BLOCK)
    return out
