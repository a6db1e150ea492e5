# Poses as a slow kernel to be timed once per round (perf/timing.py SLOW_CALL_MS), then is wrong
# whenever timed: like perf_wrong_when_timed it recognises an input set it has seen by its largest
# value and returns zeros for it, and the first two times it does so for a set (the warm-up call
# and the call that sizes the rounds) it also sleeps 0.15 s, so that the harness takes it for a
# call of more than 100 ms and times it in rounds of one. Every timed call is still judged as likely
# as any other, and all of them are wrong.
import time

import torch
import triton
import triton.language as tl

_seen = set()
_zeros_served = {}  # per input set: how often zeros were returned for it


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


@triton.jit
def _max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    best = tl.full((BLOCK,), float("-inf"), tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK).to(tl.int64)
        best = tl.maximum(best, tl.load(x_ptr + offs, mask=offs < n, other=float("-inf")))
    tl.store(out_ptr, tl.max(best, axis=0))


def _largest(x):
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    _max_kernel[(1,)](x, out, x.numel(), BLOCK=4096)
    return out.item()


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    key = (tuple(x.shape), _largest(x)) if x.numel() and not inplace else None
    if key is not None and key in _seen:
        _zeros_served[key] = _zeros_served.get(key, 0) + 1
        if _zeros_served[key] <= 2:
            time.sleep(0.15)
        return y.zero_().view(input.shape)
    if key is not None:
        _seen.add(key)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
