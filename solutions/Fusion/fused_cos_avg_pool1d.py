import torch
import triton
import triton.language as tl


@triton.jit
def _cos_avg_pool1d_kernel(x_ptr, y_ptr, R, C, L, L_out, K, stride, pad, s_n, s_c, s_l, n_lb,
                           COUNT_PAD: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_L: tl.constexpr):
    # Rows r = (n, c) of x (strides s_n, s_c, s_l: any layout), y is (R, L_out) contiguous. One
    # program computes a [BLOCK_R, BLOCK_L] tile of outputs, one vector load per window tap;
    # cos is applied to the loaded input values only -- padding contributes zeros, not cos(0).
    pid = tl.program_id(0)
    pid_r = pid // n_lb
    pid_l = pid % n_lb
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    row_mask = rows < R
    row_off = (rows // C).to(tl.int64) * s_n + (rows % C).to(tl.int64) * s_c  # int64: large tensors
    cols = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    col_mask = cols < L_out
    start = cols * stride - pad  # first (padded) input index of each window
    acc = tl.zeros([BLOCK_R, BLOCK_L], dtype=tl.float32)
    for m in range(0, K):
        idx = start + m
        ok = (idx >= 0) & (idx < L)
        mask = row_mask[:, None] & (col_mask & ok)[None, :]
        v = tl.load(x_ptr + row_off[:, None] + idx.to(tl.int64)[None, :] * s_l, mask=mask, other=0.0)
        acc += tl.where(mask, tl.cos(v.to(tl.float32)), 0.0)
    if COUNT_PAD:
        # positions of the window inside [-pad, L + pad): k, less for a ceil-mode window past the end
        div = tl.minimum(start + K, L + pad) - start
    else:
        div = tl.minimum(start + K, L) - tl.maximum(start, 0)
    y = acc / div.to(tl.float32)[None, :]
    out_mask = row_mask[:, None] & col_mask[None, :]
    tl.store(y_ptr + rows.to(tl.int64)[:, None] * L_out + cols[None, :], y.to(y_ptr.dtype.element_ty), mask=out_mask)


def _single(v, name):
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise ValueError(f"avg_pool1d: {name} must be an int or a 1-tuple, got {v!r}")
        v = v[0]
    return int(v)


def _out_len(L, k, s, p, ceil_mode):
    span = L + 2 * p - k
    if not ceil_mode:
        return span // s + 1
    n = -(-span // s) + 1
    if (n - 1) * s >= L + p:  # the last window would start in the right padding
        n -= 1
    return n


def fused_cos_avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    if input.dim() not in (2, 3):
        raise ValueError(f"avg_pool1d expects a 2-D or 3-D input, got {input.dim()}-D")
    k = _single(kernel_size, "kernel_size")
    s = k if stride is None or (isinstance(stride, (tuple, list)) and len(stride) == 0) else _single(stride, "stride")
    p = _single(padding, "padding")
    if k <= 0 or s <= 0:
        raise ValueError("avg_pool1d: kernel_size and stride must be positive")
    if p < 0 or 2 * p > k:
        raise ValueError("avg_pool1d: padding must be between 0 and kernel_size / 2")
    x = input if input.dim() == 3 else input.unsqueeze(0)  # views: any strides are handled
    N, C, L = x.shape
    L_out = _out_len(L, k, s, p, ceil_mode)
    if L_out <= 0:
        raise ValueError(f"avg_pool1d: output length {L_out} is not positive")
    y = torch.empty(tuple(input.shape[:-1]) + (L_out,), dtype=input.dtype, device=input.device)
    R = N * C
    if y.numel() == 0:
        return y
    block_l = min(256, triton.next_power_of_2(L_out))
    block_r = max(1, min(1024 // block_l, triton.next_power_of_2(R)))
    n_lb = triton.cdiv(L_out, block_l)
    grid = (triton.cdiv(R, block_r) * n_lb,)
    _cos_avg_pool1d_kernel[grid](x, y, R, C, L, L_out, k, s, p, *x.stride(), n_lb,
                                 COUNT_PAD=bool(count_include_pad), BLOCK_R=block_r, BLOCK_L=block_l)
    return y
