# An honest logspace (the bundled solution, changed): float results computed by the Triton kernel in
# float64 and cast to the requested dtype at the end, a cast of memory the call made, which the
# rule for tasks whose outputs copies could make once refused.
import math

import torch
import triton
import triton.language as tl

_POSITIVE, _NEGATIVE, _ZERO = 0, 1, 2  # kinds of base


@triton.jit
def _logspace_kernel(out_ptr, p_ptr, steps, halfway,
                     BASE_KIND: tl.constexpr, ACC: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: steps can exceed 2**31
    mask = offs < steps
    # start, end, step and ln|base| come in a float64 buffer: float kernel arguments would be
    # rounded to float32, too coarse for a float64 result.
    start = tl.load(p_ptr).to(ACC)
    end = tl.load(p_ptr + 1).to(ACC)
    step = tl.load(p_ptr + 2).to(ACC)
    log_b = tl.load(p_ptr + 3).to(ACC)
    # As PyTorch does: the first half counts up from start and the second half down from end,
    # so both endpoints are exact and the rounding error stays symmetric.
    up = start + step * offs.to(ACC)
    down = end - step * (steps - 1 - offs).to(ACC)
    x = tl.where(offs < halfway, up, down)
    mag = tl.exp(x * log_b)  # |base| ** x
    if BASE_KIND == 1:
        # Negative base: real only for integer exponents, with the sign of (-1) ** x.
        is_int = tl.floor(x) == x
        half = x * 0.5
        odd = is_int & (tl.floor(half) != half)
        nan = (x - x) / (x - x)
        y = tl.where(is_int, tl.where(odd, -mag, mag), nan)
    elif BASE_KIND == 2:
        # 0 ** x: 0 for x > 0, 1 for x == 0, +inf for x < 0.
        one = tl.full(x.shape, 1.0, ACC)
        inf = one / 0.0
        y = tl.where(x > 0, 0.0 * one, tl.where(x == 0, one, inf))
    else:
        y = mag
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


def logspace(start, end, steps, base=10.0, dtype=None, layout=torch.strided, device=None, requires_grad=False):
    if layout != torch.strided:
        raise ValueError("logspace: only torch.strided is supported")
    steps = int(steps)
    if steps < 0:
        raise ValueError("logspace: steps must be non-negative")
    if isinstance(start, torch.Tensor):
        start = start.item()
    if isinstance(end, torch.Tensor):
        end = end.item()
    start, end, base = float(start), float(end), float(base)
    dtype = dtype if dtype is not None else torch.get_default_dtype()
    device = torch.device(device) if device is not None else torch.empty(0).device
    # float results are computed in float64 and cast once at the end
    wide = torch.float64 if dtype.is_floating_point else dtype
    out = torch.empty(steps, dtype=wide, device=device)
    if steps > 0:
        step = (end - start) / (steps - 1) if steps > 1 else 0.0
        halfway = steps // 2 if steps > 1 else 1  # a single point is base ** start
        kind = _POSITIVE if base > 0 else (_NEGATIVE if base < 0 else _ZERO)
        log_b = math.log(abs(base)) if base != 0 else 0.0
        params = torch.empty(4, dtype=torch.float64, device=device)
        for i, v in enumerate((start, end, step, log_b)):
            params[i].fill_(v)  # a fill on the device, not a host-to-device copy
        acc = tl.float64 if wide == torch.float64 else tl.float32
        BLOCK = 1024
        _logspace_kernel[(triton.cdiv(steps, BLOCK),)](out, params, steps, halfway,
                                                       BASE_KIND=kind, ACC=acc, BLOCK=BLOCK)
    if out.dtype != dtype:
        out = out.to(dtype)
    if requires_grad:
        out.requires_grad_(True)
    return out
