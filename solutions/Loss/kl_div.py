import torch
import triton
import triton.language as tl

_BLOCK = 1024
# Reductions run in two deterministic stages: at most _MAX_PARTIALS programs each sum a strided set
# of tiles into one fp32 partial, then a single program adds the partials (no atomics, so the result
# does not depend on scheduling). The number of partials depends only on n.
_MAX_PARTIALS = 4096


@triton.jit
def _kl(x, t, LOG_TARGET: tl.constexpr):
    if LOG_TARGET:
        # target holds log-probabilities: exp(t) * (t - x)
        return tl.exp(t) * (t - x)
    else:
        # t * (log t - x), with 0 * log 0 defined as 0 (xlogy); where() keeps the NaN of the
        # unselected 0 * -inf branch out of the result.
        return tl.where(t == 0.0, 0.0, t * tl.log(t)) - t * x


@triton.jit
def _kl_none_kernel(x_ptr, t_ptr, out_ptr, n, LOG_TARGET: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: n may exceed 2**31
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, _kl(x, t, LOG_TARGET).to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _kl_partial_kernel(x_ptr, t_ptr, partial_ptr, n, LOG_TARGET: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    num_tiles = tl.cdiv(n, BLOCK)
    # Each lane keeps its own fp32 running sum; the tree sum at the end keeps rounding error small.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, num_tiles, nprog):
        offs = tl.cast(tile, tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(mask, _kl(x, t, LOG_TARGET), 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _finalize_kernel(partial_ptr, out_ptr, num_partials, denom, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    p = tl.load(partial_ptr + offs, mask=offs < num_partials, other=0.0)
    total = tl.sum(p, axis=0)
    # denom: 1 ('sum'), numel ('mean') or size(0) ('batchmean'); 0/0 gives NaN as in PyTorch.
    tl.store(out_ptr, (total / denom).to(out_ptr.dtype.element_ty))


def kl_div(input: torch.Tensor, target: torch.Tensor, reduction: str = "batchmean",
           log_target: bool = False) -> torch.Tensor:
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    shape = torch.broadcast_shapes(input.shape, target.shape)
    out_dtype = torch.promote_types(input.dtype, target.dtype)
    x = input.expand(shape).contiguous()
    t = target.expand(shape).contiguous()
    n = x.numel()
    log_target = bool(log_target)
    if reduction == "none":
        out = torch.empty(shape, dtype=out_dtype, device=input.device)
        if n:
            _kl_none_kernel[(triton.cdiv(n, _BLOCK),)](x, t, out, n, LOG_TARGET=log_target, BLOCK=_BLOCK)
        return out
    num_partials = min(triton.cdiv(n, _BLOCK), _MAX_PARTIALS)
    partials = torch.empty(max(num_partials, 1), dtype=torch.float32, device=input.device)
    if n:
        _kl_partial_kernel[(num_partials,)](x, t, partials, n, LOG_TARGET=log_target, BLOCK=_BLOCK)
    out = torch.empty((), dtype=out_dtype, device=input.device)
    if reduction == "mean":
        denom = float(n)
    elif reduction == "batchmean" and input.dim() != 0:
        denom = float(input.shape[0])
    else:
        denom = 1.0
    _finalize_kernel[(1,)](partials, out, num_partials, denom, BLOCK_P=_MAX_PARTIALS)
    return out
