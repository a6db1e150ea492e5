# class: calibration hole (task-specific statistical check)
# mechanism: honest Triton Philox generator, but only the first 64 values of each call use a fresh
#   seed; every value from position 64 on comes from ONE constant seed, so all calls of a shape return
#   identical numbers there (deterministic output, not "different from call to call"). The across-call
#   test in harness/tasks/Random/rand.py::check only remembers PREFIX=64 leading values per call.
# target: Random/rand.py
# verdict got: ok      correct verdict: wrong (repeats an earlier call's numbers)
import os
import torch
import triton
import triton.language as tl

_BITS = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}
FIXED_SEED = 0x1234567


@triton.jit(do_not_specialize=["seed", "seed2"])
def _rand_kernel(out_ptr, n, seed, seed2, BITS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    # positions < 64 draw from the fresh seed, the rest from the fixed one
    s = tl.where(offs < 64, seed, seed2)
    r0, r1, r2, r3 = tl.randint4x(s, offs)
    if BITS == 53:
        u = ((r0 >> 5).to(tl.float64) * 67108864.0 + (r1 >> 6).to(tl.float64)) * 1.1102230246251565e-16
    else:
        scale = 1.0 / (1 << BITS)
        u = (r0 >> (32 - BITS)).to(tl.float32) * scale
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
        seed = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        BLOCK = 1024
        _rand_kernel[(triton.cdiv(n, BLOCK),)](result, n, seed, FIXED_SEED, BITS=_BITS[dtype], BLOCK=BLOCK)
    if requires_grad:
        result.requires_grad_(True)
    return result
