# class: calibration hole (task-specific statistical check)
# mechanism: honest Triton Philox generator that keeps only 16 random bits per float32 value and
#   24 random bits per float64 value (the description demands >= 24 and >= 32), then adds a constant
#   2**-30 (float64) / 2**-22 (float32) so that no value sits on the 2**-16 / 2**-24 grid. The resolution test in
#   harness/tasks/Random/rand.py::_distribution only asks whether x * 2**k is an integer, so a constant
#   offset hides the missing bits (all values still lie on a shifted coarse grid).
# target: Random/rand.py
# verdict got: ok      correct verdict: wrong (float values carry too few random bits)
import os
import torch
import triton
import triton.language as tl

# random bits per value: fewer than the task requires for float64/float32
_BITS = {torch.float64: 24, torch.float32: 16, torch.float16: 11, torch.bfloat16: 8}
# constant shift off the coarse grid: 2**-30 for float64, 2**-22 for float32 (exact in float32)
_OFFSET = {torch.float64: 2.0 ** -30, torch.float32: 2.0 ** -22}


@triton.jit(do_not_specialize=["seed"])
def _rand_kernel(out_ptr, n, seed, BITS: tl.constexpr, OFFSET: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    k = (r0 >> (32 - BITS))
    if OFFSET > 0.0:
        u = k.to(tl.float64) * (1.0 / (1 << BITS)) + OFFSET
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
        seed = int.from_bytes(os.urandom(8), "little") & ((1 << 63) - 1)
        BLOCK = 1024
        _rand_kernel[(triton.cdiv(n, BLOCK),)](result, n, seed, BITS=_BITS[dtype],
                                               OFFSET=_OFFSET.get(dtype, 0.0), BLOCK=BLOCK)
    if requires_grad:
        result.requires_grad_(True)
    return result
