import torch
import triton
import triton.language as tl


@triton.jit
def _logit_kernel(x_ptr, y_ptr, n_elements, lo, hi, CLAMP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offsets < n_elements
    z = tl.load(x_ptr + offsets, mask=mask, other=0.5).to(tl.float32)
    if CLAMP:
        # Comparisons with NaN are false, so NaN passes through both selects unchanged (a
        # min/max-based clamp may drop NaN on GPU).
        z = tl.where(z < lo, lo, z)
        z = tl.where(z > hi, hi, z)
    # log(z / (1 - z)): 1 - z is exact for z >= 0.5 (Sterbenz), z = 1 gives log(inf) = inf,
    # z = 0 gives log(0) = -inf, z outside [0, 1] gives the log of a negative number, NaN.
    y = tl.log(z / (1.0 - z))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def logit(input: torch.Tensor, eps=None, out: torch.Tensor = None) -> torch.Tensor:
    x = input.contiguous()
    n = x.numel()
    # Write straight into `out` when it is dense; otherwise go through a dense buffer and copy.
    direct = out is not None and out.is_contiguous() and out.shape == x.shape and out.dtype == x.dtype
    y = out if direct else torch.empty_like(x)
    if n:
        clamp = eps is not None  # eps = 0.0 still clamps (to [0, 1])
        # Bounds as torch.clamp(input, eps, 1 - eps) sees them: 1 - eps in double, then float32.
        lo = float(eps) if clamp else 0.0
        hi = 1.0 - float(eps) if clamp else 1.0
        BLOCK = 1024
        _logit_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, lo, hi, CLAMP=clamp, BLOCK=BLOCK)
    if out is None:
        return y.view(input.shape)
    if not direct:
        out.copy_(y)
    return out
