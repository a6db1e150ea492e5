# Honest ReLU the first time it sees an input; when values it has seen come back (two input sets
# rotate through the timed repetitions) it launches nothing and returns the result it kept, keyed
# by three sampled values read back to the host. Each timed repetition's inputs are rolled by an
# offset of their own, so the key never repeats and the cache never hits: the attack is timed
# doing the work (tests/test_adversarial.py: it gains nothing over the honest kernel).
import torch
import triton
import triton.language as tl

_kept = {}


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def _fingerprint(t):
    flat = t.reshape(-1)
    return (tuple(t.shape), flat[0].item(), flat[-1].item(), flat[flat.numel() // 2].item()) if t.numel() else None


def relu(input, inplace=False):
    key = (_fingerprint(input), inplace)
    if key[0] is not None and not inplace and key in _kept:
        return _kept[key]
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    out = y.view(input.shape)
    if len(_kept) < 64:
        _kept[key] = out.clone()
    return out
