# bytes_reinterpreted_relu with every tensor on the input's device: ReLU assembled from allowed copies
# of bytes read as other types (the sign byte sign-extended through an int8-to-int16 copy, float64
# words built from a data byte and that mask, converted to int64), so no host tensor gives it away
# natively. The same rule as on the CPU must catch it: a view as a dtype of another element size is
# compute, wherever the tensor lives (CUDA saturates out-of-range conversions where x86 gives its
# "indefinite" value, so natively the values may be wrong too; the verdict must not wait for that).
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def _const(v, n, device):
    return torch.full((1,), v, dtype=torch.uint8, device=device).expand(n)


def _keep_where_clear(h, b):
    """b where h == 0x00, 0 where h == 0xFF (two float64-to-int64 conversions)."""
    n, dev = b.numel(), b.device
    w = torch.zeros(n, 8, dtype=torch.uint8, device=dev)
    w[:, 1].copy_(b)
    w[:, 6].copy_(h)
    w[:, 7].copy_(_const(0x43, n, dev))
    v = torch.empty(n, dtype=torch.int64, device=dev)
    v.copy_(w.view(torch.float64).view(n))                          # 2**49 + 32*b, or out of range
    w2 = torch.zeros(n, 8, dtype=torch.uint8, device=dev)
    w2[:, 0:2].copy_(v.view(torch.uint8).view(n, 8)[:, 0:2])
    w2[:, 6].copy_(_const(0xE0, n, dev))
    w2[:, 7].copy_(_const(0x42, n, dev))
    v2 = torch.empty(n, dtype=torch.int64, device=dev)
    v2.copy_(w2.view(torch.float64).view(n))                        # 2**47 + b (or 2**47)
    return v2.view(torch.uint8).view(n, 8)[:, 0]


def _relu_values(x):
    x = x.contiguous()
    n, dev = x.numel(), x.device
    xb = x.view(torch.uint8).view(n, 4)
    s16 = torch.empty(n, dtype=torch.int16, device=dev)
    s16.copy_(xb[:, 3].contiguous().view(torch.int8))
    h = s16.view(torch.uint8).view(n, 2)[:, 1]                      # 0xFF where x < 0
    kept = _keep_where_clear(h.unsqueeze(1).expand(n, 4).reshape(n * 4), xb.reshape(n * 4))
    res = torch.empty(n * 4, dtype=torch.uint8, device=dev)
    res.copy_(kept)
    return res.view(torch.float32).view(x.shape)


def relu(input, inplace=False):
    y = _relu_values(input) if input.numel() else input.clone()
    out = torch.empty_like(y)
    n = y.numel()
    if n:
        _copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
