import torch
import triton
import triton.language as tl

_MAX_REST = 4  # dims other than `dim`, after size-1 dims are dropped and runs merged


@triton.jit
def _index_fill_kernel(x_ptr, idx_ptr, val_ptr, K, D, sd, idx_stride, n_rest,
                       R1, R2, R3, RS0, RS1, RS2, RS3, tiles_n,
                       BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    # Tile [BLOCK_K, BLOCK_N]: BLOCK_K index entries (slices along `dim`) by BLOCK_N positions of
    # the other dims. Positions are decoded once per tile column and reused for every index row.
    # Writes go straight through x's strides, so a non-contiguous x is filled in place.
    pid = tl.program_id(0).to(tl.int64)  # int64: offsets can exceed 2**31
    pid_k = pid // tiles_n
    pid_n = pid % tiles_n
    k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_mask = k < K
    n_mask = n < n_rest
    idx = tl.load(idx_ptr + k * idx_stride, mask=k_mask, other=0).to(tl.int64)
    idx = tl.where(idx < 0, idx + D, idx)  # negative indices count from the end, as in PyTorch
    r = n
    c3 = r % R3
    r = r // R3
    c2 = r % R2
    r = r // R2
    c1 = r % R1
    c0 = r // R1
    rest_off = c0 * RS0 + c1 * RS1 + c2 * RS2 + c3 * RS3
    # The fill value lives in a one-element tensor of x's dtype, so int64 and float64 values
    # arrive exactly (a Python float kernel argument would be rounded to float32).
    val = tl.load(val_ptr)
    vals = tl.full([BLOCK_K, BLOCK_N], 0, dtype=x_ptr.dtype.element_ty) + val
    mask = k_mask[:, None] & n_mask[None, :]
    tl.store(x_ptr + idx[:, None] * sd + rest_off[None, :], vals, mask=mask)


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def index_fill_(dim: int, x: torch.Tensor, index: torch.Tensor, value) -> torch.Tensor:
    nd = x.dim()
    d = dim + max(nd, 1) if dim < 0 else dim
    if not 0 <= d < max(nd, 1):
        raise IndexError(f"dim {dim} out of range for a {nd}-d tensor")
    if index.dim() > 1:
        raise ValueError("index_fill_: index must be 0-d or 1-d")
    if isinstance(value, torch.Tensor):
        value = value.item()
    idx = index.reshape(-1)
    K = idx.numel()
    if K == 0 or x.numel() == 0:
        return x
    shape = list(x.shape) if nd else [1]
    strides = list(x.stride()) if nd else [1]
    D, sd = shape[d], strides[d]
    # The other dims: drop size-1 ones and merge neighbours that are contiguous in x.
    sizes, rstr = [], []
    for i, (s, st) in enumerate(zip(shape, strides)):
        if i == d or s == 1:
            continue
        if sizes and rstr[-1] == st * s:
            sizes[-1] *= s
            rstr[-1] = st
        else:
            sizes.append(s)
            rstr.append(st)
    if len(sizes) > _MAX_REST:
        raise NotImplementedError("index_fill_: too many non-mergeable dimensions")
    pad = _MAX_REST - len(sizes)
    R = [1] * pad + sizes
    RS = [0] * pad + rstr
    n_rest = R[0] * R[1] * R[2] * R[3]
    val = torch.full((1,), value, dtype=x.dtype, device=x.device)
    BLOCK_N = min(_next_pow2(n_rest), 1024)
    BLOCK_K = max(1, min(_next_pow2(K), 4096 // BLOCK_N))
    tiles_n = triton.cdiv(n_rest, BLOCK_N)
    grid = (triton.cdiv(K, BLOCK_K) * tiles_n,)
    _index_fill_kernel[grid](x, idx, val, K, D, sd, idx.stride(0) if K > 1 else 1, n_rest,
                             R[1], R[2], R[3], *RS, tiles_n, BLOCK_K=BLOCK_K, BLOCK_N=BLOCK_N)
    return x
