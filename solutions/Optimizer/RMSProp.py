import torch
import triton
import triton.language as tl


@triton.jit
def _rmsprop_kernel(p_ptr, g_ptr, v_ptr, n_elements, lr, alpha, one_minus_alpha, eps, weight_decay,
                    HAS_DECAY: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: 2**28-element tensors and beyond
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    if HAS_DECAY:
        g = g + weight_decay * p  # L2 penalty: enters both the average and the update
    v = alpha * v + one_minus_alpha * (g * g)
    p = p - lr * g / (tl.sqrt(v) + eps)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


def _dense(t):
    """A contiguous tensor holding t's values: t itself when it already is one."""
    return t if t.is_contiguous() else t.contiguous()


def rmsprop_step(param, grad, square_avg, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0):
    n = param.numel()
    if n == 0:
        return param, square_avg
    # In-place through any layout: work on dense copies of strided arguments and copy them back.
    p, g, v = _dense(param), _dense(grad), _dense(square_avg)
    BLOCK = 1024
    _rmsprop_kernel[(triton.cdiv(n, BLOCK),)](
        p, g, v, n, float(lr), float(alpha), 1.0 - alpha, float(eps), float(weight_decay),
        HAS_DECAY=weight_decay != 0, BLOCK=BLOCK)
    for dst, src in ((param, p), (square_avg, v)):
        if dst is not src:
            dst.copy_(src)
    return param, square_avg
