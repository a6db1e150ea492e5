import torch
import triton
import triton.language as tl


@triton.jit
def _avg_pool1d_kernel(x_ptr, y_ptr, R, L, L_out, K, stride, pad,
                       BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    # x is (R, L) row-major, y is (R, L_out). One program computes a [BLOCK_R, BLOCK_L] tile of
    # outputs; consecutive outputs read neighbouring inputs, so each window tap is one coalesced
    # (strided by `stride`) vector load per row.
    pid = tl.program_id(0)
    n_l = tl.cdiv(L_out, BLOCK_L)
    pid_r = pid // n_l
    pid_l = pid % n_l
    rows = pid_r.to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)  # int64: R * L may exceed 2**31
    cols = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    row_mask = rows < R
    col_mask = cols < L_out
    start = cols * stride - pad  # first (padded) input index of each window
    acc = tl.zeros([BLOCK_R, BLOCK_L], dtype=tl.float32)
    for m in range(0, K):
        idx = start + m
        # Padding positions (idx < 0 or idx >= L) read as zero but still count in the divisor.
        ok = (idx >= 0) & (idx < L)
        mask = row_mask[:, None] & (col_mask & ok)[None, :]
        v = tl.load(x_ptr + rows[:, None] * L + idx[None, :], mask=mask, other=0.0)
        acc += v.to(tl.float32)
    y = acc / K  # count_include_pad=True: always divide by the full window
    out_mask = row_mask[:, None] & col_mask[None, :]
    tl.store(y_ptr + rows[:, None] * L_out + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=out_mask)


def _single(v, name):
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise ValueError(f"avg_pool1d: {name} must be an int or a 1-tuple, got {v!r}")
        v = v[0]
    return int(v)


def avg_pool1d(input, kernel_size, stride=None, padding=0):
    if input.dim() not in (2, 3):
        raise ValueError(f"avg_pool1d expects a 2-D or 3-D input, got {input.dim()}-D")
    k = _single(kernel_size, "kernel_size")
    s = k if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0) else _single(stride, "stride")
    p = _single(padding, "padding")
    if k <= 0 or s <= 0:
        raise ValueError("avg_pool1d: kernel_size and stride must be positive")
    if p < 0 or 2 * p > k:
        raise ValueError("avg_pool1d: padding must be between 0 and kernel_size / 2")
    L = input.shape[-1]
    L_out = (L + 2 * p - k) // s + 1
    if L_out <= 0:
        raise ValueError(f"avg_pool1d: output length {L_out} is not positive")
    x = input.contiguous()
    R = x.numel() // L if L else 0
    out_shape = tuple(input.shape[:-1]) + (L_out,)
    y = torch.empty(out_shape, dtype=input.dtype, device=input.device)
    if y.numel() == 0:
        return y
    BLOCK_L = min(256, triton.next_power_of_2(L_out))
    BLOCK_R = max(1, 1024 // BLOCK_L)
    grid = (triton.cdiv(R, BLOCK_R) * triton.cdiv(L_out, BLOCK_L),)
    _avg_pool1d_kernel[grid](x, y, R, L, L_out, k, s, p, BLOCK_R=BLOCK_R, BLOCK_L=BLOCK_L)
    return y
