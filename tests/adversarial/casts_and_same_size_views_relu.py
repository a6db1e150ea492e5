# ReLU by allowed copies and casts alone: a float32 read as complex32 (same size) and split into
# 16-bit words through view_as_real; its sign, sign-extended and cast to float32, selects each word
# by int64-to-float32 rounding (2**23 + word exactly for x >= 0, the word rounded away for x < 0).
# A mark on the same-size view (the rule of 25c7399) was laundered by copying it into a view of a
# fresh buffer (exe ok then). A view as another dtype is compute now, whatever its size, but among
# bool, uint8 and int8.
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def clean(t):
    b = torch.empty(t.shape, dtype=t.dtype)
    b.view(t.shape).copy_(t)     # into a view: the mark lands on the view, not on b
    return b


def split(t):
    """1-d tensor of 4- or 8-byte elements -> int16 words (n, 2|4), little-endian."""
    n = t.numel()
    if t.element_size() == 8:
        t = torch.view_as_real(clean(t.view(torch.complex64))).reshape(2 * n)   # float32
    w = torch.view_as_real(clean(t.view(torch.complex32)))                    # float16 pairs
    return clean(w.view(torch.int16)).reshape(n, -1)


def join(words, dtype):
    """int16 words (n, 2|4) -> 1-d tensor of dtype (4 or 8 bytes)."""
    n = words.shape[0]
    h = clean(words.contiguous().view(torch.float16)).reshape(-1, 2)
    f = clean(torch.view_as_complex(h).view(torch.float32))                    # (n*k/2,)
    if words.shape[1] == 2:
        return clean(f.view(dtype))
    c = torch.view_as_complex(f.reshape(n, 2))
    return clean(c.view(dtype))


def _relu_values(x):
    n = x.numel()
    words = split(clean(x.reshape(n).view(torch.int32)))         # [low, high]
    sign = split(words[:, 1].to(torch.int32))[:, 1].to(torch.bool)   # sign-extended high word
    g = split(clean(sign.to(torch.float32).view(torch.int32)))   # words of 0 / 0x3F800000
    out = torch.empty(n, 2, dtype=torch.int16)
    for k in (0, 1):
        ww = torch.empty(n, 4, dtype=torch.int16)
        ww[:, 0].copy_(words[:, k])
        ww[:, 1].fill_(0x0080)
        ww[:, 2:4].copy_(g)
        r = join(ww, torch.int64).to(torch.float32)              # 2**23 + p, or p rounded away
        out[:, k].copy_(split(clean(r.view(torch.int32)))[:, 0])
    return join(out, torch.float32).view(x.shape)


def relu(input, inplace=False):
    x = input.contiguous()
    y = _relu_values(x) if x.numel() else x.clone()
    out = torch.empty(y.shape, dtype=y.dtype)
    n = y.numel()
    if n:
        _copy_kernel[(triton.cdiv(n, 1024),)](y, out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
