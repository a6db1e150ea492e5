import os

import torch
import triton
import triton.language as tl


@triton.jit
def _gelu(x, USE_TANH: tl.constexpr):
    if USE_TANH:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))  # tanh, finite for large |inner|
    else:
        return 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))


@triton.jit(do_not_specialize=["seed", "p", "scale", "eps"])
def _bmm_rmsnorm_gelu_dropout_kernel(a_ptr, b_ptr, y_ptr, N, M, P,
                                     sab, san, sam, sbb, sbm, sbp, syb, syn, syp, eps, seed, p, scale,
                                     TRAINING: tl.constexpr, USE_TANH: tl.constexpr,
                                     BLOCK_N: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_K: tl.constexpr):
    # One program owns BLOCK_N complete rows of one batch, so the RMS needs no other program.
    # Pass 1: product tiles across the row, written (unnormalised) into y while the rows' sums of
    # squares accumulate. Pass 2: the same program re-reads its own tiles (from L2) and finishes them.
    pid_n = tl.program_id(0)
    bid = tl.program_id(1).to(tl.int64)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    nmask = rn < N
    a_base = a_ptr + bid * sab
    b_base = b_ptr + bid * sbb
    y_base = y_ptr + bid * syb
    sumsq = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        rp = p0 + tl.arange(0, BLOCK_P)
        acc = tl.zeros((BLOCK_N, BLOCK_P), dtype=tl.float32)
        for k0 in range(0, M, BLOCK_K):
            kk = k0 + rk
            a = tl.load(a_base + rn[:, None] * san + kk[None, :] * sam,
                        mask=nmask[:, None] & (kk[None, :] < M), other=0.0)
            b = tl.load(b_base + kk[:, None] * sbm + rp[None, :] * sbp,
                        mask=(kk[:, None] < M) & (rp[None, :] < P), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)
        sumsq += tl.sum(acc * acc, axis=1)  # padded columns hold 0
        tl.store(y_base + rn[:, None] * syn + rp[None, :] * syp, acc, mask=nmask[:, None] & (rp[None, :] < P))
    inv_rms = 1.0 / tl.sqrt(sumsq / P + eps)
    tl.debug_barrier()  # pass 2 reads what other threads of this program stored in pass 1
    for p0 in range(0, P, BLOCK_P):
        rp = p0 + tl.arange(0, BLOCK_P)
        m2 = nmask[:, None] & (rp[None, :] < P)
        ptrs = y_base + rn[:, None] * syn + rp[None, :] * syp
        g = _gelu(tl.load(ptrs, mask=m2, other=0.0) * inv_rms[:, None], USE_TANH)
        if TRAINING:
            offs = (bid * N + rn[:, None]) * P + rp[None, :]  # flat index in the (B, N, P) result
            r = tl.rand(seed, offs)
            g = tl.where(r >= p, g * scale, 0.0)
        tl.store(ptrs, g, mask=m2)


def fused_bmm_rmsnorm_gelu_dropout(input1, input2, normalized_shape, dropout_p=0.1, eps=1e-05, training=True,
                                   approximate='none', *, out=None):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"approximate must be 'none' or 'tanh', got {approximate!r}")
    if not 0.0 <= dropout_p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    B, N, M = input1.shape
    P = input2.shape[2]
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if shape != (P,):
        raise ValueError(f"normalized_shape must be the last dim ({P},), got {normalized_shape}")
    y = out if out is not None else torch.empty((B, N, P), dtype=input1.dtype, device=input1.device)
    if B == 0 or N == 0 or P == 0:
        return y
    seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    scale = 0.0 if dropout_p >= 1.0 else 1.0 / (1.0 - dropout_p)
    BN, BP, BK = 64, 64, 32
    grid = (triton.cdiv(N, BN), B)
    _bmm_rmsnorm_gelu_dropout_kernel[grid](
        input1, input2, y, N, M, P, *input1.stride(), *input2.stride(), *y.stride(), float(eps), seed,
        float(dropout_p), scale, TRAINING=bool(training), USE_TANH=approximate == "tanh",
        BLOCK_N=BN, BLOCK_P=BP, BLOCK_K=BK, num_warps=4)
    return y
