import torch
import triton
import triton.language as tl


@triton.jit
def _lion_kernel(p_ptr, g_ptr, m_ptr, n_elements, lr, decay, beta1, one_minus_beta1, beta2, one_minus_beta2,
                 BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: 2**28-element tensors and beyond
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    # Direction from the momentum before this step (beta1), as torch.sign: 0 stays 0, NaN stays NaN.
    u = beta1 * m + one_minus_beta1 * g
    direction = tl.where(u > 0, 1.0, tl.where(u < 0, -1.0, u))
    p = p * decay - lr * direction
    m = beta2 * m + one_minus_beta2 * g
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)


def _dense(t):
    """A contiguous tensor holding t's values: t itself when it already is one."""
    return t if t.is_contiguous() else t.contiguous()


def lion_step(param, grad, exp_avg, lr=1e-4, beta1=0.9, beta2=0.99, weight_decay=0.0):
    n = param.numel()
    if n == 0:
        return param, exp_avg
    # In-place through any layout: work on dense copies of strided arguments and copy them back.
    p, g, m = _dense(param), _dense(grad), _dense(exp_avg)
    BLOCK = 1024
    _lion_kernel[(triton.cdiv(n, BLOCK),)](
        p, g, m, n, float(lr), 1.0 - lr * weight_decay, float(beta1), 1.0 - beta1, float(beta2), 1.0 - beta2,
        BLOCK=BLOCK)
    for dst, src in ((param, p), (exp_avg, m)):
        if dst is not src:
            dst.copy_(src)
    return param, exp_avg
