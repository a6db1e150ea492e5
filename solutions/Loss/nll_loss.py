import torch
import triton
import triton.language as tl

_BLOCK = 1024          # targets handled per program
_BLOCK_FINAL = 1024    # partial sums combined per step by the finishing program


@triton.jit
def _nll_kernel(x_ptr, t_ptr, w_ptr, out_ptr, part_loss_ptr, part_w_ptr,
                R, C, D, stride_n, stride_c, stride_d, ignore_index,
                HAS_WEIGHT: tl.constexpr, REDUCE: tl.constexpr, BLOCK: tl.constexpr):
    # Target r (flattened over batch and trailing dims) is (n, d) = (r // D, r % D); its loss reads
    # the single log-probability input[n, target[r], d].
    pid = tl.program_id(0)
    r = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: offsets may exceed 2**31
    rmask = r < R
    tgt = tl.load(t_ptr + r, mask=rmask, other=0).to(tl.int64)
    active = rmask & (tgt != ignore_index)
    in_range = (tgt >= 0) & (tgt < C)
    ok = active & in_range
    n = r // D
    d = r % D
    x = tl.load(x_ptr + n * stride_n + tgt * stride_c + d * stride_d, mask=ok, other=0.0).to(tl.float32)
    if HAS_WEIGHT:
        w = tl.load(w_ptr + tgt, mask=ok, other=0.0).to(tl.float32)
    else:
        w = tl.where(ok, 1.0, 0.0)
    loss = -w * x
    # PyTorch raises on a class index outside [0, C); a kernel cannot, so it yields NaN there
    # instead of reading out of bounds. Ignored targets give loss 0 and weight 0.
    loss = tl.where(active & ~in_range, float("nan"), loss)
    if REDUCE:
        tl.store(part_loss_ptr + pid, tl.sum(loss, axis=0))
        tl.store(part_w_ptr + pid, tl.sum(w, axis=0))
    else:
        tl.store(out_ptr + r, loss.to(out_ptr.dtype.element_ty), mask=rmask)


@triton.jit
def _finalize_kernel(part_loss_ptr, part_w_ptr, out_ptr, num_partials, MEAN: tl.constexpr,
                     BLOCK: tl.constexpr):
    # One program adds the per-block partials in a fixed order: deterministic, no atomics.
    acc_l = tl.zeros([BLOCK], dtype=tl.float32)
    acc_w = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < num_partials
        acc_l += tl.load(part_loss_ptr + offs, mask=mask, other=0.0)
        acc_w += tl.load(part_w_ptr + offs, mask=mask, other=0.0)
    total = tl.sum(acc_l, axis=0)
    if MEAN:
        # Weighted mean: divide by the total weight of the non-ignored targets (NaN when all are
        # ignored, as in PyTorch).
        total = total / tl.sum(acc_w, axis=0)
    tl.store(out_ptr, total.to(out_ptr.dtype.element_ty))


def nll_loss(input: torch.Tensor, target: torch.Tensor, weight: torch.Tensor = None,
             ignore_index: int = -100, reduction: str = "mean") -> torch.Tensor:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input.dim() == 1:  # unbatched: (C,) scores, 0-dim target
        x3 = input.view(1, -1, 1)
    elif input.dim() == 2:
        x3 = input.unsqueeze(-1)  # a view: strided/transposed inputs are read in place
    else:
        x3 = input.reshape(input.shape[0], input.shape[1], -1)
    N, C, D = x3.shape
    if target.numel() != N * D:
        raise ValueError(f"target shape {list(target.shape)} does not match input shape {list(input.shape)}")
    t = target.contiguous().view(-1)
    R = t.numel()
    has_weight = weight is not None
    w = weight.contiguous() if has_weight else t  # dummy pointer when unused
    device = input.device
    if reduction == "none":
        out = torch.empty(target.shape, dtype=input.dtype, device=device)
        if R:
            _nll_kernel[(triton.cdiv(R, _BLOCK),)](
                x3, t, w, out, out, out, R, C, D, x3.stride(0), x3.stride(1), x3.stride(2), ignore_index,
                HAS_WEIGHT=has_weight, REDUCE=False, BLOCK=_BLOCK)
        return out
    num_partials = triton.cdiv(R, _BLOCK)
    part_loss = torch.empty(max(num_partials, 1), dtype=torch.float32, device=device)
    part_w = torch.empty(max(num_partials, 1), dtype=torch.float32, device=device)
    out = torch.empty((), dtype=input.dtype, device=device)
    if R:
        _nll_kernel[(num_partials,)](
            x3, t, w, out, part_loss, part_w, R, C, D, x3.stride(0), x3.stride(1), x3.stride(2), ignore_index,
            HAS_WEIGHT=has_weight, REDUCE=True, BLOCK=_BLOCK)
    _finalize_kernel[(1,)](part_loss, part_w, out, num_partials, MEAN=reduction == "mean", BLOCK=_BLOCK_FINAL)
    return out
