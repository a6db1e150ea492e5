import torch
import triton
import triton.language as tl

_BLOCK = 1024
# Reductions run in two deterministic stages: at most _MAX_PARTIALS programs each sum a strided set
# of tiles into one fp32 partial, then a single program adds the partials (no atomics, so the result
# does not depend on scheduling). The number of partials depends only on n.
_MAX_PARTIALS = 4096


@triton.jit
def _smooth_l1(x, y, beta, PURE_L1: tl.constexpr):
    z = tl.abs(x - y)
    if PURE_L1:
        # beta == 0: the quadratic zone is empty (and 0.5*z*z/beta would divide by zero).
        return z
    else:
        return tl.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta)


@triton.jit
def _sl1_none_kernel(x_ptr, y_ptr, out_ptr, n, beta, PURE_L1: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: n may exceed 2**31
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    loss = _smooth_l1(x, y, beta, PURE_L1)
    tl.store(out_ptr + offs, loss.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _sl1_partial_kernel(x_ptr, y_ptr, partial_ptr, n, beta, PURE_L1: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    num_tiles = tl.cdiv(n, BLOCK)
    # Each lane keeps its own fp32 running sum; the tree sum at the end keeps rounding error small.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, num_tiles, nprog):
        offs = tl.cast(tile, tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(mask, _smooth_l1(x, y, beta, PURE_L1), 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _finalize_kernel(partial_ptr, out_ptr, num_partials, denom, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    p = tl.load(partial_ptr + offs, mask=offs < num_partials, other=0.0)
    total = tl.sum(p, axis=0)
    # denom is 1 for 'sum' and n for 'mean' (0/0 gives NaN for an empty mean, as in PyTorch).
    tl.store(out_ptr, (total / denom).to(out_ptr.dtype.element_ty))


def smooth_l1_loss(input: torch.Tensor, target: torch.Tensor, beta: float = 1.0,
                   reduction: str = "mean") -> torch.Tensor:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    beta = float(beta)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    pure_l1 = beta == 0.0
    shape = torch.broadcast_shapes(input.shape, target.shape)
    out_dtype = torch.promote_types(input.dtype, target.dtype)
    x = input.expand(shape).contiguous()
    y = target.expand(shape).contiguous()
    n = x.numel()
    if reduction == "none":
        out = torch.empty(shape, dtype=out_dtype, device=input.device)
        if n:
            _sl1_none_kernel[(triton.cdiv(n, _BLOCK),)](x, y, out, n, beta, PURE_L1=pure_l1, BLOCK=_BLOCK)
        return out
    num_partials = min(triton.cdiv(n, _BLOCK), _MAX_PARTIALS)
    partials = torch.empty(max(num_partials, 1), dtype=torch.float32, device=input.device)
    if n:
        _sl1_partial_kernel[(num_partials,)](x, y, partials, n, beta, PURE_L1=pure_l1, BLOCK=_BLOCK)
    out = torch.empty((), dtype=out_dtype, device=input.device)
    denom = float(n) if reduction == "mean" else 1.0
    _finalize_kernel[(1,)](partials, out, num_partials, denom, BLOCK_P=_MAX_PARTIALS)
    return out
