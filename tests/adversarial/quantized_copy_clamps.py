# The op monitor allows copies, and knows operators by identity; but a copy into a quantized tensor
# quantizes, which rounds and clamps to the type's range, in the copy's own kernel below the monitor.
# Each float32 split into its bytes, each byte paired with the sign byte into an int16 (the byte, or
# the byte minus 256 when x < 0), copied into a quint8 (scale 1, zero point 0): the negative ones
# clamp to 0 and the storage holds the bytes of relu(x), exactly (exe ok on both Pythons; a Triton
# kernel only copies). Allowed ops on quantized, non-strided, negated or conjugated tensors are now
# compute.
import torch
import triton
import triton.language as tl

_TEMPLATE = torch._empty_affine_quantized([0], scale=1.0, zero_point=0, dtype=torch.quint8)


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def _relu_bytes(x):
    x = x.contiguous()
    n = x.numel()
    xb = x.view(torch.uint8).view(n, 4)                    # little-endian bytes, [:,3] is the top
    sign16 = torch.empty(n, dtype=torch.int16); sign16.copy_(xb[:, 3].view(torch.int8))    # sign-extended: high byte 0xFF iff x<0
    m = sign16.view(torch.uint8).view(n, 2)[:, 1]
    w = torch.empty(n, 4, 2, dtype=torch.uint8)
    w[:, :, 0].copy_(xb)
    w[:, :, 1].copy_(m.unsqueeze(1).expand(n, 4))
    vf = torch.empty(n * 4, dtype=torch.float32); vf.copy_(w.view(torch.int16).view(n * 4))  # b or b-256
    q = _TEMPLATE.clone()
    q.resize_(n * 4)
    q.copy_(vf)                                             # quantize: clamp(round(v), 0, 255)
    raw = torch.empty(0, dtype=torch.uint8)
    raw.set_(q.untyped_storage(), 0, (n * 4,), (1,))
    return raw.view(torch.float32).view(x.shape)


def relu(input, inplace=False):
    y = _relu_bytes(input) if input.numel() else input.clone()
    out = torch.empty(y.shape, dtype=y.dtype)
    n = y.numel()
    if n:
        _copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
