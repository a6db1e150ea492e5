import torch
import triton
import triton.language as tl

_MAX_LEAD = 4  # index dims before the innermost one, padded to this many


@triton.jit
def _scatter_kernel(out_ptr, idx_ptr, src_ptr, n_rows, L,
                    S1, S2, S3,
                    IS0, IS1, IS2, IS3, SS0, SS1, SS2, SS3, OS0, OS1, OS2, OS3,
                    is_l, ss_l, os_l, out_sd, tiles_c,
                    BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # Walks the index tensor as an (n_rows, L) grid of [BLOCK_R, BLOCK_C] tiles; the leading
    # coordinates of each row are decoded once. For every index element at coordinates c,
    # out[c with c[dim] replaced by index[c]] = src[c]. The out strides passed in have the
    # `dim` entry zeroed, so the index value times out_sd supplies that coordinate.
    pid = tl.program_id(0).to(tl.int64)  # int64: offsets can exceed 2**31
    pid_r = pid // tiles_c
    pid_c = pid % tiles_c
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    r = rows
    c3 = r % S3
    r = r // S3
    c2 = r % S2
    r = r // S2
    c1 = r % S1
    c0 = r // S1
    i_row = c0 * IS0 + c1 * IS1 + c2 * IS2 + c3 * IS3
    s_row = c0 * SS0 + c1 * SS1 + c2 * SS2 + c3 * SS3
    o_row = c0 * OS0 + c1 * OS1 + c2 * OS2 + c3 * OS3
    mask = (rows < n_rows)[:, None] & (cols < L)[None, :]
    target = tl.load(idx_ptr + i_row[:, None] + cols[None, :] * is_l, mask=mask, other=0).to(tl.int64)
    v = tl.load(src_ptr + s_row[:, None] + cols[None, :] * ss_l, mask=mask)
    tl.store(out_ptr + o_row[:, None] + cols[None, :] * os_l + target * out_sd, v, mask=mask)


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def scatter(input: torch.Tensor, dim: int, index: torch.Tensor, src: torch.Tensor) -> torch.Tensor:
    nd = max(input.dim(), 1)
    d = dim + nd if dim < 0 else dim
    if not 0 <= d < nd:
        raise IndexError(f"dim {dim} out of range for a {input.dim()}-d tensor")
    if index.dim() != input.dim() or src.dim() != input.dim():
        raise ValueError("scatter: input, index and src must have the same number of dimensions")
    # Out-of-place: start from a copy of input (the only data-movement that is not a kernel).
    out = input.clone(memory_format=torch.contiguous_format)
    if index.numel() == 0:
        return out
    o, i, s = out, index, src
    if input.dim() == 0:  # treat 0-d tensors as 1-element vectors
        o, i, s = out.view(1), index.view(1), src.reshape(1)
    k = i.dim()
    if k - 1 > _MAX_LEAD:
        raise NotImplementedError("scatter: more than 5 dimensions")
    out_strides = list(o.stride())
    out_sd = out_strides[d]
    out_strides[d] = 0  # that coordinate comes from the index value
    pad = _MAX_LEAD - (k - 1)
    lead_sizes = [1] * pad + list(i.shape[:-1])
    IS = [0] * pad + list(i.stride()[:-1])
    SS = [0] * pad + list(s.stride()[:-1])
    OS = [0] * pad + out_strides[:-1]
    L = i.shape[-1]
    n_rows = i.numel() // L
    BLOCK_C = min(_next_pow2(L), 1024)
    BLOCK_R = max(1, 4096 // BLOCK_C)
    tiles_c = triton.cdiv(L, BLOCK_C)
    grid = (triton.cdiv(n_rows, BLOCK_R) * tiles_c,)
    _scatter_kernel[grid](o, i, s, n_rows, L, *lead_sizes[1:], *IS, *SS, *OS,
                          i.stride(-1), s.stride(-1), out_strides[-1], out_sd, tiles_c,
                          BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return out
