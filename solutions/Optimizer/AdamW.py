import math

import torch
import triton
import triton.language as tl


@triton.jit
def _adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, n_elements,
                  decay, beta1, one_minus_beta1, beta2, one_minus_beta2, step_size, inv_sqrt_bc2, eps,
                  BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: 2**28-element tensors and beyond
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    # Decoupled weight decay: scales the parameter, never enters the moments.
    p = p * decay
    m = beta1 * m + one_minus_beta1 * g
    v = beta2 * v + one_minus_beta2 * (g * g)
    denom = tl.sqrt(v) * inv_sqrt_bc2 + eps
    p = p - step_size * (m / denom)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


def _dense(t):
    """A contiguous tensor holding t's values: t itself when it already is one."""
    return t if t.is_contiguous() else t.contiguous()


def adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
               weight_decay=0.01):
    n = param.numel()
    if n == 0:
        return param, exp_avg, exp_avg_sq
    # Scalar coefficients in double precision on the host (1 - beta2 cancels badly in float32).
    bc1 = 1.0 - beta1 ** step
    bc2 = 1.0 - beta2 ** step
    step_size = lr / bc1
    inv_sqrt_bc2 = 1.0 / math.sqrt(bc2)
    # In-place through any layout: work on dense copies of strided arguments and copy them back.
    p, g, m, v = _dense(param), _dense(grad), _dense(exp_avg), _dense(exp_avg_sq)
    BLOCK = 1024
    _adamw_kernel[(triton.cdiv(n, BLOCK),)](
        p, g, m, v, n, 1.0 - lr * weight_decay, float(beta1), 1.0 - beta1, float(beta2), 1.0 - beta2, step_size,
        inv_sqrt_bc2, float(eps), BLOCK=BLOCK)
    for dst, src in ((param, p), (exp_avg, m), (exp_avg_sq, v)):
        if dst is not src:
            dst.copy_(src)
    return param, exp_avg, exp_avg_sq
