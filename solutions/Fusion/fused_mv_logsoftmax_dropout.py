import os

import torch
import triton
import triton.language as tl


@triton.jit
def _mv_partials_kernel(a_ptr, v_ptr, z_ptr, pmax_ptr, psum_ptr, N, M, sam, sak, sv,
                        BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # z for BLOCK_R rows, plus this block's share of the log-sum-exp: its max and sum exp(z - max).
    pid = tl.program_id(0)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < N
    acc = tl.zeros((BLOCK_R,), dtype=tl.float32)
    for c0 in range(0, M, BLOCK_C):
        cols = c0 + tl.arange(0, BLOCK_C)
        cmask = cols < M
        a = tl.load(a_ptr + rows[:, None].to(tl.int64) * sam + cols[None, :] * sak,
                    mask=rmask[:, None] & cmask[None, :], other=0.0)
        v = tl.load(v_ptr + cols * sv, mask=cmask, other=0.0)
        acc += tl.sum(a * v[None, :], axis=1)
    tl.store(z_ptr + rows, acc, mask=rmask)
    z = tl.where(rmask, acc, float("-inf"))
    m = tl.max(z, axis=0)
    # an all -inf block (only padding) keeps sum 0 without computing exp(-inf - -inf) = NaN
    ssum = tl.sum(tl.where(rmask, tl.exp(z - m), 0.0), axis=0)
    # tl.max skips NaN; a NaN logit must make every output NaN, as in PyTorch
    ssum = tl.where(tl.sum((acc != acc).to(tl.int32), axis=0) > 0, float("nan"), ssum)
    tl.store(pmax_ptr + pid, m)
    tl.store(psum_ptr + pid, ssum)


@triton.jit(do_not_specialize=["seed", "p", "scale"])
def _logsoftmax_dropout_kernel(z_ptr, pmax_ptr, psum_ptr, y_ptr, N, NB, sy, seed, p, scale,
                               TRAINING: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_P: tl.constexpr):
    # Every program combines all block partials (a few hundred numbers) into the global
    # log-sum-exp, then finishes its own rows.
    pid = tl.program_id(0)
    gmax = float("-inf")
    for b0 in range(0, NB, BLOCK_P):
        idx = b0 + tl.arange(0, BLOCK_P)
        gmax = tl.maximum(gmax, tl.max(tl.load(pmax_ptr + idx, mask=idx < NB, other=float("-inf")), axis=0))
    total = 0.0
    for b0 in range(0, NB, BLOCK_P):
        idx = b0 + tl.arange(0, BLOCK_P)
        pm = tl.load(pmax_ptr + idx, mask=idx < NB, other=float("-inf"))
        ps = tl.load(psum_ptr + idx, mask=idx < NB, other=0.0)
        total += tl.sum(tl.where(ps == 0.0, 0.0, ps * tl.exp(pm - gmax)), axis=0)
    lse = gmax + tl.log(total)
    rows = pid * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = rows < N
    s = tl.load(z_ptr + rows, mask=rmask, other=0.0) - lse
    if TRAINING:
        r = tl.rand(seed, rows)
        s = tl.where(r >= p, s * scale, 0.0)
    tl.store(y_ptr + rows.to(tl.int64) * sy, s, mask=rmask)


def fused_mv_logsoftmax_dropout(input, vec, p=0.5, training=True, inplace=False, dim=0, *, out=None):
    # `inplace` concerns only the internal log-softmax result, which is never materialised here.
    if dim not in (0, -1):
        raise IndexError(f"dim {dim} out of range for a 1-D result")
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    N, M = input.shape
    y = out if out is not None else torch.empty((N,), dtype=input.dtype, device=input.device)
    if N == 0:
        return y
    BLOCK_R, BLOCK_C, BLOCK_P = 128, 64, 256
    nb = triton.cdiv(N, BLOCK_R)
    z = torch.empty((N,), dtype=torch.float32, device=input.device)
    pmax = torch.empty((nb,), dtype=torch.float32, device=input.device)
    psum = torch.empty((nb,), dtype=torch.float32, device=input.device)
    _mv_partials_kernel[(nb,)](input, vec, z, pmax, psum, N, M, input.stride(0), input.stride(1),
                               vec.stride(0), BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    _logsoftmax_dropout_kernel[(nb,)](z, pmax, psum, y, N, nb, y.stride(0), seed, float(p), scale,
                                      TRAINING=bool(training), BLOCK_R=BLOCK_R, BLOCK_P=BLOCK_P)
    return y
