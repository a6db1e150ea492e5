import math

import torch
import triton
import triton.language as tl

# Spectral radius by repeated squaring (Gelfand's formula, rho(A) = lim ||A^m||^(1/m)):
#   B_0 = A / ||A||_F,  B_k = B_{k-1}^2 / s_k  with  s_k = ||B_{k-1}^2||_F,
#   rho(A) = ||A||_F * prod_k s_k^(1/2^k) * rho(B_K)^(1/2^K).
# rho(B_K) lies in [1 / (n kappa), 1] (kappa: the eigenvector condition number), so dropping the last
# factor errs by at most log(n kappa) / 2^K relative: nothing for K = 32. Unlike power iteration this
# needs no gap between the largest eigenvalues and no real dominant eigenvalue: conjugate pairs,
# +-rho pairs, repeated and defective eigenvalues all give the limit. Every step is a float32 matrix
# product with true fp32 products (input_precision="ieee"), normalized so nothing overflows, and the
# weighted logs are accumulated in fp32 (the weights 2^-k shrink the later steps' rounding).
_SQUARINGS = 32
_SMALL_N = 64      # up to here a whole matrix lives in one program's registers
_BLOCK = 32        # tile of the multi-kernel path for larger n


def _next_pow2(n: int) -> int:
    return 1 << max(0, int(n) - 1).bit_length()


@triton.jit
def _radius_small_kernel(a_ptr, out_ptr, n, s_b, s_r, s_c, s_out,
                         K: tl.constexpr, NP: tl.constexpr):
    # One program per matrix (n <= NP <= 64), all K squarings in registers.
    b = tl.program_id(0).to(tl.int64)
    i = tl.arange(0, NP)
    m = (i < n)[:, None] & (i < n)[None, :]
    a = tl.load(a_ptr + b * s_b + i[:, None].to(tl.int64) * s_r + i[None, :].to(tl.int64) * s_c,
                mask=m, other=0.0).to(tl.float32)
    # Scale by max|a| first: ||A||_F itself may overflow (or underflow) in fp32.
    amax = tl.max(tl.max(tl.abs(a), axis=1), axis=0)
    a = a * tl.where(amax > 0, 1.0 / amax, 0.0)
    s0 = tl.sqrt(tl.sum(tl.sum(a * a, axis=1), axis=0))  # in [1, n] unless A = 0
    bmat = a * tl.where(s0 > 0, 1.0 / s0, 0.0)
    log2r = tl.full([], 0.0, tl.float32)
    w = tl.full([], 0.5, tl.float32)
    for _ in range(K):
        bmat = tl.dot(bmat, bmat, input_precision="ieee")
        s = tl.sqrt(tl.sum(tl.sum(bmat * bmat, axis=1), axis=0))
        # A nilpotent matrix reaches exactly 0: log2(0) = -inf gives rho = 0.
        log2r += w * tl.log2(s)
        bmat = bmat * tl.where(s > 0, 1.0 / s, 0.0)
        w = w * 0.5
    tl.store(out_ptr + b * s_out, amax * s0 * tl.exp2(log2r))


@triton.jit
def _prep_kernel(a_ptr, base_ptr, inv_ptr, log_ptr, n, s_b, s_r, s_c, BLOCK: tl.constexpr):
    # Per matrix: base = ||A||_F computed as max|a| * ||A / max|a|||_F, and the factor 1 / base
    # that the first squaring applies to A as it loads it.
    b = tl.program_id(0).to(tl.int64)
    i = tl.arange(0, BLOCK)
    amax = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for r0 in range(0, n, BLOCK):
        for c0 in range(0, n, BLOCK):
            r = r0 + i
            c = c0 + i
            m = (r < n)[:, None] & (c < n)[None, :]
            a = tl.load(a_ptr + b * s_b + r[:, None].to(tl.int64) * s_r + c[None, :].to(tl.int64) * s_c,
                        mask=m, other=0.0).to(tl.float32)
            amax = tl.maximum(amax, tl.abs(a))
    mx = tl.max(tl.max(amax, axis=1), axis=0)
    inv_mx = tl.where(mx > 0, 1.0 / mx, 0.0)
    sq = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for r0 in range(0, n, BLOCK):
        for c0 in range(0, n, BLOCK):
            r = r0 + i
            c = c0 + i
            m = (r < n)[:, None] & (c < n)[None, :]
            a = tl.load(a_ptr + b * s_b + r[:, None].to(tl.int64) * s_r + c[None, :].to(tl.int64) * s_c,
                        mask=m, other=0.0).to(tl.float32) * inv_mx
            sq += a * a
    s0 = tl.sqrt(tl.sum(tl.sum(sq, axis=1), axis=0))
    tl.store(base_ptr + b, mx * s0)
    tl.store(inv_ptr + b, tl.where(s0 > 0, inv_mx / s0, 0.0))
    tl.store(log_ptr + b, 0.0)


@triton.jit
def _square_kernel(x_ptr, y_ptr, inv_ptr, part_ptr, n, s_b, s_r, s_c, TILES,
                   BLOCK: tl.constexpr):
    # Y = (X * inv[b]) @ (X * inv[b]) for one BLOCK x BLOCK tile of Y, plus that tile's sum of
    # squares (written per tile: the Frobenius norm is merged by the next kernel, deterministically).
    b = tl.program_id(0).to(tl.int64)
    tm = tl.program_id(1)
    tn = tl.program_id(2)
    inv = tl.load(inv_ptr + b)
    i = tl.arange(0, BLOCK)
    rows = tm * BLOCK + i
    cols = tn * BLOCK + i
    xb = x_ptr + b * s_b
    acc = tl.zeros([BLOCK, BLOCK], dtype=tl.float32)
    for k0 in range(0, n, BLOCK):
        kk = k0 + i
        lhs = tl.load(xb + rows[:, None].to(tl.int64) * s_r + kk[None, :].to(tl.int64) * s_c,
                      mask=(rows < n)[:, None] & (kk < n)[None, :], other=0.0).to(tl.float32) * inv
        rhs = tl.load(xb + kk[:, None].to(tl.int64) * s_r + cols[None, :].to(tl.int64) * s_c,
                      mask=(kk < n)[:, None] & (cols < n)[None, :], other=0.0).to(tl.float32) * inv
        acc = tl.dot(lhs, rhs, acc, input_precision="ieee")
    m = (rows < n)[:, None] & (cols < n)[None, :]
    nn = n.to(tl.int64)
    tl.store(y_ptr + b * nn * nn + rows[:, None].to(tl.int64) * nn + cols[None, :], acc, mask=m)
    tl.store(part_ptr + b * TILES + tm * tl.num_programs(2) + tn, tl.sum(tl.sum(acc * acc, axis=1), axis=0))


@triton.jit
def _stage_kernel(part_ptr, inv_ptr, log_ptr, base_ptr, out_ptr, s_out, TILES, weight,
                  LAST: tl.constexpr, BLOCK_T: tl.constexpr):
    # s = ||Y||_F from the tiles' partial sums; log2(rho) accumulates weight * log2(s), and the next
    # squaring scales Y by 1 / s as it loads it.
    b = tl.program_id(0).to(tl.int64)
    t = tl.arange(0, BLOCK_T)
    acc = tl.zeros([BLOCK_T], dtype=tl.float32)
    for t0 in range(0, TILES, BLOCK_T):
        acc += tl.load(part_ptr + b * TILES + t0 + t, mask=t0 + t < TILES, other=0.0)
    s = tl.sqrt(tl.sum(acc, axis=0))
    log2r = tl.load(log_ptr + b) + weight * tl.log2(s)
    tl.store(log_ptr + b, log2r)
    tl.store(inv_ptr + b, tl.where(s > 0, 1.0 / s, 0.0))
    if LAST:
        tl.store(out_ptr + b * s_out, tl.load(base_ptr + b) * tl.exp2(log2r))


def spectral_norm_eig(A, *, out=None):
    n = A.shape[-1]
    assert A.dim() >= 2 and A.shape[-2] == n and n > 0, "A must be (*, n, n) with n >= 1"
    batch = tuple(A.shape[:-2])
    bsz = math.prod(batch)
    result = out if out is not None else torch.empty(batch, dtype=torch.float32, device=A.device)
    if bsz == 0:
        return result
    a = A.reshape(bsz, n, n)  # a view unless the batch dimensions cannot be merged
    # Results go straight into `out` when it is a plain float32 buffer of the batch shape.
    direct = result.dtype == torch.float32 and result.shape == batch and (result.dim() == 0 or result.is_contiguous())
    dst = result.reshape(bsz) if direct else torch.empty(bsz, dtype=torch.float32, device=A.device)
    if n <= _SMALL_N:
        _radius_small_kernel[(bsz,)](a, dst, n, a.stride(0), a.stride(1), a.stride(2), dst.stride(0),
                                     K=_SQUARINGS, NP=max(16, _next_pow2(n)), num_warps=4)
    else:
        f32 = dict(dtype=torch.float32, device=A.device)
        base = torch.empty(bsz, **f32)
        inv = torch.empty(bsz, **f32)
        log2r = torch.empty(bsz, **f32)
        _prep_kernel[(bsz,)](a, base, inv, log2r, n, a.stride(0), a.stride(1), a.stride(2), BLOCK=_BLOCK)
        tiles_1d = triton.cdiv(n, _BLOCK)
        tiles = tiles_1d * tiles_1d
        part = torch.empty(bsz * tiles, **f32)
        bufs = (torch.empty(bsz, n, n, **f32), torch.empty(bsz, n, n, **f32))
        x = a
        for k in range(1, _SQUARINGS + 1):
            y = bufs[k % 2]
            _square_kernel[(bsz, tiles_1d, tiles_1d)](x, y, inv, part, n, x.stride(0), x.stride(1), x.stride(2),
                                                      tiles, BLOCK=_BLOCK, num_warps=4)
            _stage_kernel[(bsz,)](part, inv, log2r, base, dst, dst.stride(0), tiles, 0.5 ** k,
                                  LAST=k == _SQUARINGS, BLOCK_T=min(1024, _next_pow2(tiles)))
            x = y
    if not direct:
        result.copy_(dst.reshape(batch))
    return result
