# class: calibration hole (task-specific statistical check)
# mechanism: honest Triton generator whose numbers come from ONE fixed Philox stream (constant seed);
#   each call only adds a fresh random shift s modulo 1 (a Cranley-Patterson rotation, done on the
#   integer significand so values stay in [0, 1)). Every call is uniform and looks independent
#   within itself, and no value repeats between calls, but any two calls are a deterministic
#   function of each other (x2 = frac(x1 + s2 - s1) element by element): not independent between
#   calls. harness/tasks/Random/rand.py::check tests across calls only for EQUAL leading values
#   (PREFIX=64), so a shift passes; extending the prefix would not catch this either.
# target: Random/rand.py
# verdict got: ok      correct verdict: wrong (calls are not independent: one stream, shifted)
import os
import torch
import triton
import triton.language as tl

_BITS = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}
FIXED_SEED = 0x5EED


@triton.jit(do_not_specialize=["shift"])
def _rand_kernel(out_ptr, n, shift, BITS: tl.constexpr, SEED: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.randint4x(SEED, offs)          # the same numbers on every call
    if BITS == 53:
        k = (r0 >> 5).to(tl.int64) * 67108864 + (r1 >> 6).to(tl.int64)
    else:
        k = (r0 >> (32 - BITS)).to(tl.int64)
    k = (k + shift) & ((1 << BITS) - 1)                # per-call rotation modulo 1
    if BITS == 53:
        u = k.to(tl.float64) * 1.1102230246251565e-16
    else:
        u = k.to(tl.float32) * (1.0 / (1 << BITS))
    tl.store(out_ptr + offs, u.to(out_ptr.dtype.element_ty), mask=offs < n)


def rand(*size, generator=None, out=None, dtype=None, layout=torch.strided, device=None,
         requires_grad=False, pin_memory=False):
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    dtype = dtype if dtype is not None else torch.get_default_dtype()
    device = torch.device(device) if device is not None else torch.empty(0).device
    result = torch.empty(size, dtype=dtype, device=device)
    n = result.numel()
    if n:
        bits = _BITS[dtype]
        shift = int.from_bytes(os.urandom(8), "little") & ((1 << bits) - 1)
        BLOCK = 1024
        _rand_kernel[(triton.cdiv(n, BLOCK),)](result, n, shift, BITS=bits, SEED=FIXED_SEED, BLOCK=BLOCK)
    if requires_grad:
        result.requires_grad_(True)
    return result
