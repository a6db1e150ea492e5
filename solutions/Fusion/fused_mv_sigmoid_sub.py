import math

import torch
import triton
import triton.language as tl


@triton.jit
def _mv_sigmoid_sub_kernel(a_ptr, v_ptr, o_ptr, y_ptr, N, M, L, alpha, other_scalar,
                           san, sam, sv, sol, son, syl, syn,
                           OTHER_IS_TENSOR: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    # y[l, i] = sigmoid(sum_j A[i, j] v[j]) - alpha * other[l, i] for BLOCK_N rows i: the dot
    # products are accumulated in float32 over BLOCK_M-wide column chunks (A is read once), then
    # the sigmoid and the subtraction are applied for each of the L broadcast rows of the output.
    pid = tl.program_id(0)
    offs_n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    n_mask = offs_n < N
    a_rows = a_ptr + offs_n[:, None].to(tl.int64) * san
    acc = tl.zeros((BLOCK_N, BLOCK_M), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        cols = m0 + offs_m
        m_mask = cols < M
        a = tl.load(a_rows + cols[None, :].to(tl.int64) * sam, mask=n_mask[:, None] & m_mask[None, :], other=0.0)
        v = tl.load(v_ptr + cols.to(tl.int64) * sv, mask=m_mask, other=0.0)
        acc += a * v[None, :]
    z = tl.sum(acc, axis=1)
    # sigmoid through exp(-|z|) in (0, 1]: no overflow for either sign
    e = tl.exp(-tl.abs(z))
    s = tl.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    for l in range(0, L):
        if OTHER_IS_TENSOR:
            o = tl.load(o_ptr + l * sol + offs_n.to(tl.int64) * son, mask=n_mask, other=0.0)
            y = s - alpha * o
        else:
            y = s - alpha * other_scalar
        tl.store(y_ptr + l * syl + offs_n.to(tl.int64) * syn, y, mask=n_mask)


def fused_mv_sigmoid_sub(input, vec, other, alpha=1, *, out=None):
    if input.dim() != 2 or vec.dim() != 1 or input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"fused_mv_sigmoid_sub: cannot multiply {tuple(input.shape)} by {tuple(vec.shape)}")
    N, M = input.shape
    is_tensor = isinstance(other, torch.Tensor)
    shape = torch.broadcast_shapes((N,), other.shape) if is_tensor else (N,)
    if out is not None and tuple(out.shape) != tuple(shape):
        raise RuntimeError(f"fused_mv_sigmoid_sub: out has shape {tuple(out.shape)}, expected {tuple(shape)}")
    L = math.prod(shape[:-1])
    # other as an (L, N) view with stride 0 along broadcast dimensions (reshape copies only when
    # several broadcast leading dimensions cannot be merged into one stride)
    o = other.expand(shape).reshape(L, N) if is_tensor else input
    y = out if out is not None else torch.empty(shape, dtype=input.dtype, device=input.device)
    if y.numel() == 0:
        return y
    # an (L, N) view of the result; a strided out= of three or more dims is filled through a buffer
    needs_copy = y.dim() > 2 and not y.is_contiguous()
    y2 = torch.empty((L, N), dtype=y.dtype, device=y.device) if needs_copy else y.view(L, N)
    BLOCK_N, BLOCK_M = 16, 256
    _mv_sigmoid_sub_kernel[(triton.cdiv(N, BLOCK_N),)](
        input, vec, o, y2, N, M, L, float(alpha), 0.0 if is_tensor else float(other),
        input.stride(0), input.stride(1), vec.stride(0),
        o.stride(0) if is_tensor else 0, o.stride(1) if is_tensor else 0, y2.stride(0), y2.stride(1),
        OTHER_IS_TENSOR=is_tensor, BLOCK_N=BLOCK_N, BLOCK_M=BLOCK_M, num_warps=4)
    if needs_copy:
        y.copy_(y2.view(shape))
    return y
