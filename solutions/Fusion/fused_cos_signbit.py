import torch
import triton
import triton.language as tl


@triton.jit
def _cos_signbit_kernel(x_ptr, c_ptr, s_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    # tl.cos is the accurate device cosine (full-range argument reduction).
    c = tl.cos(x)
    # The sign bit of c itself: as int32 the sign bit is the integer's sign (catches -0.0 and
    # negative NaNs, which c < 0 would miss).
    s = c.to(tl.int32, bitcast=True) < 0
    tl.store(c_ptr + offsets, c, mask=mask)
    tl.store(s_ptr + offsets, s, mask=mask)


def fused_cos_signbit(input: torch.Tensor):
    x = input.contiguous()
    c = torch.empty_like(x)
    s = torch.empty(x.shape, dtype=torch.bool, device=x.device)
    n = x.numel()
    if n:
        BLOCK = 1024
        _cos_signbit_kernel[(triton.cdiv(n, BLOCK),)](x, c, s, n, BLOCK=BLOCK)
    return c.view(input.shape), s.view(input.shape)
