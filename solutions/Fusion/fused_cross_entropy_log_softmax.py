import torch
import triton
import triton.language as tl

_TILE = 4096           # elements of one [BLOCK_R, BLOCK_C] tile of logits
_MAX_BLOCK_C = 2048    # wider class dimensions are streamed in chunks (online log-sum-exp)
_BLOCK_FINAL = 1024    # partial sums combined per step by the finishing program


@triton.jit
def _ce_smooth_kernel(x_ptr, t_ptr, w_ptr, out_ptr, part_loss_ptr, part_w_ptr,
                      R, C, D, stride_n, stride_c, stride_d, ignore_index, smoothing,
                      HAS_WEIGHT: tl.constexpr, REDUCE: tl.constexpr,
                      BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    # log_softmax followed by cross_entropy's own log_softmax is one log_softmax, so each row
    # (position r = (n, d), classes input[n, :, d]) needs one streaming pass that gathers
    #   lse = logsumexp_c x_c                     (online: running max m, rescaled sum s)
    #   W = sum_c w_c,  A = sum_c w_c (x_c - x_0)  (the smoothing term; shifted by the row's first
    #                                              logit so large logits do not cancel)
    # and then loss = (1 - eps) w_y (lse - x_y) + eps / C (W (lse - x_0) - A).
    pid = tl.program_id(0)
    r = pid.to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)  # int64: offsets may exceed 2**31
    rmask = r < R
    n = r // D
    d = r % D
    row_off = n * stride_n + d * stride_d
    cols = tl.arange(0, BLOCK_C)
    x0 = tl.load(x_ptr + row_off, mask=rmask, other=0.0).to(tl.float32)

    m = tl.full([BLOCK_R], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_R], dtype=tl.float32)
    wsum = tl.zeros([BLOCK_R], dtype=tl.float32)
    acc = tl.zeros([BLOCK_R], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + cols
        cm = c < C
        mask = rmask[:, None] & cm[None, :]
        v = tl.load(x_ptr + row_off[:, None] + c.to(tl.int64)[None, :] * stride_c, mask=mask,
                    other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(v, axis=1))
        shift = tl.where(m_new == float("-inf"), 0.0, m_new)  # all -inf so far: avoid -inf - -inf
        s = s * tl.exp(m - shift) + tl.sum(tl.exp(v - shift[:, None]), axis=1)
        m = m_new
        if HAS_WEIGHT:
            wc = tl.load(w_ptr + c, mask=cm, other=0.0).to(tl.float32)
        else:
            wc = tl.where(cm, 1.0, 0.0)
        wsum += tl.sum(tl.where(mask, wc[None, :], 0.0), axis=1)
        acc += tl.sum(tl.where(mask, wc[None, :] * (v - x0[:, None]), 0.0), axis=1)
    lse_rel = (m - x0) + tl.log(s)  # lse - x_0
    lse = x0 + lse_rel

    tgt = tl.load(t_ptr + r, mask=rmask, other=0).to(tl.int64)
    active = rmask & (tgt != ignore_index)
    in_range = (tgt >= 0) & (tgt < C)
    ok = active & in_range
    x_t = tl.load(x_ptr + row_off + tgt * stride_c, mask=ok, other=0.0).to(tl.float32)
    if HAS_WEIGHT:
        w = tl.load(w_ptr + tgt, mask=ok, other=0.0).to(tl.float32)
    else:
        w = tl.where(ok, 1.0, 0.0)
    nll = w * (lse - x_t)
    smooth = wsum * lse_rel - acc
    loss = tl.where(ok, (1.0 - smoothing) * nll + (smoothing / C) * smooth, 0.0)
    # A class index outside [0, C) cannot raise inside a kernel: give NaN instead of reading out of bounds.
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
        # weighted mean over the non-ignored positions (NaN when all are ignored, as in PyTorch)
        total = total / tl.sum(acc_w, axis=0)
    tl.store(out_ptr, total.to(out_ptr.dtype.element_ty))


def fused_cross_entropy_log_softmax(input, target, dim=1, weight=None, ignore_index=-100, reduction="mean",
                                    label_smoothing=0.0):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if input.dim() < 2 or dim % input.dim() != 1:
        raise NotImplementedError("dim must name the class dimension (1)")
    if target.is_floating_point():
        raise NotImplementedError("only class-index targets are supported")
    x3 = input.unsqueeze(-1) if input.dim() == 2 else input.reshape(input.shape[0], input.shape[1], -1)
    N, C, D = x3.shape
    t = target.contiguous().view(-1)
    R = t.numel()
    if R != N * D:
        raise ValueError("target shape does not match input")
    has_weight = weight is not None
    w = weight.contiguous() if has_weight else t  # dummy pointer when unused
    device = input.device
    BLOCK_C = min(triton.next_power_of_2(max(C, 1)), _MAX_BLOCK_C)
    BLOCK_R = max(1, min(_TILE // BLOCK_C, triton.next_power_of_2(max(R, 1))))
    grid = (triton.cdiv(R, BLOCK_R),)
    strides = (x3.stride(0), x3.stride(1), x3.stride(2))
    smoothing = float(label_smoothing)
    if reduction == "none":
        out = torch.empty(target.shape, dtype=input.dtype, device=device)
        if R:
            _ce_smooth_kernel[grid](x3, t, w, out, out, out, R, C, D, *strides, ignore_index, smoothing,
                                    HAS_WEIGHT=has_weight, REDUCE=False, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C,
                                    num_warps=8)
        return out
    num_partials = grid[0]
    part_loss = torch.empty(max(num_partials, 1), dtype=torch.float32, device=device)
    part_w = torch.empty(max(num_partials, 1), dtype=torch.float32, device=device)
    out = torch.empty((), dtype=input.dtype, device=device)
    if R:
        _ce_smooth_kernel[grid](x3, t, w, out, part_loss, part_w, R, C, D, *strides, ignore_index, smoothing,
                                HAS_WEIGHT=has_weight, REDUCE=True, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C,
                                num_warps=8)
    _finalize_kernel[(1,)](part_loss, part_w, out, num_partials, MEAN=reduction == "mean", BLOCK=_BLOCK_FINAL)
    return out
