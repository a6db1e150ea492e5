import torch
import triton
import triton.language as tl

_BLOCK = 1024
# Reductions run in two deterministic stages: at most _MAX_PARTIALS programs each sum a strided set
# of tiles into one fp32 partial, then a single program adds the partials (no atomics, so the result
# does not depend on scheduling). The number of partials depends only on n.
_MAX_PARTIALS = 4096


@triton.jit
def _bce(x, y, w_ptr, offs, mask, HAS_WEIGHT: tl.constexpr):
    # log(1 - x) computed as log1p(-x): u = 1 - x rounds, but log(u) * (-x) / (u - 1) cancels that
    # rounding (Goldberg's trick; u - 1 is exact). u == 1 means x < eps/2, where log1p(-x) = -x.
    u = 1.0 - x
    log_1mx = tl.where(u == 1.0, -x, tl.log(u) * (-x) / (u - 1.0))
    # PyTorch clamps both logs at -100 so that x = 0 or x = 1 give a finite loss (and 0 * -inf
    # never appears).
    log_x = tl.maximum(tl.log(x), -100.0)
    log_1mx = tl.maximum(log_1mx, -100.0)
    loss = -(y * log_x + (1.0 - y) * log_1mx)
    if HAS_WEIGHT:
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        loss = loss * w
    return loss


@triton.jit
def _bce_none_kernel(x_ptr, y_ptr, w_ptr, out_ptr, n, HAS_WEIGHT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: n may exceed 2**31
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.5).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    loss = _bce(x, y, w_ptr, offs, mask, HAS_WEIGHT)
    tl.store(out_ptr + offs, loss.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _bce_partial_kernel(x_ptr, y_ptr, w_ptr, partial_ptr, n, HAS_WEIGHT: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    num_tiles = tl.cdiv(n, BLOCK)
    # Each lane keeps its own fp32 running sum; the tree sum at the end keeps rounding error small.
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for tile in range(pid, num_tiles, nprog):
        offs = tl.cast(tile, tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.5).to(tl.float32)
        y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(mask, _bce(x, y, w_ptr, offs, mask, HAS_WEIGHT), 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def _finalize_kernel(partial_ptr, out_ptr, num_partials, denom, BLOCK_P: tl.constexpr):
    offs = tl.arange(0, BLOCK_P)
    p = tl.load(partial_ptr + offs, mask=offs < num_partials, other=0.0)
    total = tl.sum(p, axis=0)
    # denom is 1 for 'sum' and n for 'mean' (0/0 gives NaN for an empty mean, as in PyTorch).
    tl.store(out_ptr, (total / denom).to(out_ptr.dtype.element_ty))


def binary_cross_entropy(input: torch.Tensor, target: torch.Tensor, weight: torch.Tensor = None,
                         reduction: str = "mean") -> torch.Tensor:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    shape = input.shape
    x = input.contiguous()
    y = target.contiguous()
    has_weight = weight is not None
    # A broadcast weight (e.g. per class) is materialised at the input's shape so that the kernel
    # reads all three operands with the same flat index.
    w = weight.expand(shape).contiguous() if has_weight else x
    n = x.numel()
    if reduction == "none":
        out = torch.empty(shape, dtype=input.dtype, device=input.device)
        if n:
            _bce_none_kernel[(triton.cdiv(n, _BLOCK),)](x, y, w, out, n, HAS_WEIGHT=has_weight, BLOCK=_BLOCK)
        return out
    num_partials = min(triton.cdiv(n, _BLOCK), _MAX_PARTIALS)
    partials = torch.empty(max(num_partials, 1), dtype=torch.float32, device=input.device)
    if n:
        _bce_partial_kernel[(num_partials,)](x, y, w, partials, n, HAS_WEIGHT=has_weight, BLOCK=_BLOCK)
    out = torch.empty((), dtype=input.dtype, device=input.device)
    denom = float(n) if reduction == "mean" else 1.0
    _finalize_kernel[(1,)](partials, out, num_partials, denom, BLOCK_P=_MAX_PARTIALS)
    return out
