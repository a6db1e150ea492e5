# FINDING rand_seed_period5: a rand whose seed cycles through 5 fixed values (call k repeats
# exactly the numbers of call k-5). Task Random/rand.py says the seed must be fresh per call; the
# across-calls test compares a call only with the last ACROSS_CALLS=4 earlier calls, so a period of 5
# (or more) is never seen. Expected: fail ("the seed is not fresh per call").
# Got: ok (call ok, exe ok). At 11c3246 (history compared with every earlier call): exe wrong, "repeats the numbers of an earlier call".
# Control: the same with % 4 is caught today.
# Run as: {"file": "Random/rand.py", "predict": <this file>, "sample_id": 0}
import os

import torch
import triton
import triton.language as tl

_MASK64 = (1 << 64) - 1
_CALLS = 0
# Random bits per value: the significand width of each dtype, so k * 2**-bits is exact in the
# output dtype and never rounds up to 1.0.
_BITS = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}


@triton.jit(do_not_specialize=["seed"])
def _rand_kernel(out_ptr, n, seed, BITS: tl.constexpr, BLOCK: tl.constexpr):
    # Counter-based Philox: one randint4x call yields four independent 32-bit words for counter c.
    # float64 takes two words per value (53 bits), the narrower dtypes one word per value.
    pid = tl.program_id(0)
    if BITS == 53:
        HALF: tl.constexpr = BLOCK // 2
        c = pid.to(tl.int64) * HALF + tl.arange(0, HALF)  # int64 counters: n can exceed 2**32
        r0, r1, r2, r3 = tl.randint4x(seed, c)
        # 27 high bits of one word and 26 of the next make a 53-bit integer k; k * 2**-53 is exact.
        a = (r0 >> 5).to(tl.float64) * 67108864.0 + (r1 >> 6).to(tl.float64)
        b = (r2 >> 5).to(tl.float64) * 67108864.0 + (r3 >> 6).to(tl.float64)
        u = tl.reshape(tl.join(a, b), [BLOCK]) * 1.1102230246251565e-16  # 2**-53
    else:
        QUARTER: tl.constexpr = BLOCK // 4
        c = pid.to(tl.int64) * QUARTER + tl.arange(0, QUARTER)
        r0, r1, r2, r3 = tl.randint4x(seed, c)
        # Top BITS bits of each word; the scale 2**-BITS keeps the largest value below 1.
        scale = 1.0 / (1 << BITS)
        u0 = (r0 >> (32 - BITS)).to(tl.float32) * scale
        u1 = (r1 >> (32 - BITS)).to(tl.float32) * scale
        u2 = (r2 >> (32 - BITS)).to(tl.float32) * scale
        u3 = (r3 >> (32 - BITS)).to(tl.float32) * scale
        u = tl.reshape(tl.join(tl.join(u0, u1), tl.join(u2, u3)), [BLOCK])
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, u.to(out_ptr.dtype.element_ty), mask=offs < n)


def _mix64(z: int) -> int:
    """splitmix64 finaliser: spreads a seed over all 64 bits."""
    z = (z + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def _draw_seed(generator) -> int:
    if generator is not None:
        # Derive the seed from the generator and move the generator on, so equally seeded
        # generators give equal results and successive calls differ. (PyTorch's own random
        # stream is not reproduced: only the distribution matters.)
        nxt = _mix64(generator.initial_seed())
        generator.manual_seed(nxt)
        seed = nxt
    else:
        global _CALLS
        _CALLS += 1
        seed = _mix64(1234567 + _CALLS % 5)  # only FIVE seeds, reused in turn: call k repeats call k-5
    return seed & ((1 << 63) - 1)  # passed as a signed int64 kernel argument


def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if layout != torch.strided:
        raise ValueError("rand: only torch.strided is supported")
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    if out is not None:
        dtype = dtype if dtype is not None else out.dtype
        device = out.device
    dtype = dtype if dtype is not None else torch.get_default_dtype()
    if dtype not in _BITS:
        raise TypeError(f"rand: unsupported dtype {dtype}")
    device = torch.device(device) if device is not None else torch.empty(0).device
    result = torch.empty(size, dtype=dtype, device=device)
    n = result.numel()
    if n:
        BLOCK = 1024
        _rand_kernel[(triton.cdiv(n, BLOCK),)](result, n, _draw_seed(generator), BITS=_BITS[dtype], BLOCK=BLOCK)
    if out is not None:
        if out.shape != result.shape:
            out.resize_(size)
        out.copy_(result)
        result = out
    if requires_grad:
        result.requires_grad_(True)
    return result
