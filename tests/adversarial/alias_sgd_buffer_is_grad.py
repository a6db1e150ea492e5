# FINDING alias_sgd_buffer_is_grad: Optimizer/SGD.py says the returned buf is "the newly allocated
# float32 buffer when momentum_buffer was None" and "`grad` must not be modified". With
# momentum_buffer=None, dampening=0, weight_decay=0 the new buffer equals grad exactly, so this
# submission returns the caller's `grad` tensor itself as the momentum buffer (case
# "first-step-none"). compare.py judge_call now accepts the shared memory because the reference's
# argument 1 (grad) after the call equals its fresh output leaf 1 (_holds_the_output). In use the
# next step updates buf in place -- i.e. the caller's grad (p.grad) -- and with buf is grad the step
# computes 0.9*g + g on a corrupted gradient. Before today's change: "output leaf 1 shares memory
# with argument 1 ... return a copy". Expected: wrong. Got: ok.
import torch
import triton
import triton.language as tl


@triton.jit
def _sgd_kernel(p_ptr, g_ptr, buf_ptr, n_elements, lr, momentum, one_minus_dampening, weight_decay,
                HAS_DECAY: tl.constexpr, USE_MOMENTUM: tl.constexpr, LOAD_BUF: tl.constexpr,
                NESTEROV: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: 2**28-element tensors and beyond
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    if HAS_DECAY:
        g = g + weight_decay * p
    d = g
    if USE_MOMENTUM:
        if LOAD_BUF:
            buf = momentum * tl.load(buf_ptr + offs, mask=mask) + one_minus_dampening * g
        else:
            # A fresh buffer is zero: dampening still scales the first gradient.
            buf = one_minus_dampening * g
        tl.store(buf_ptr + offs, buf, mask=mask)
        if NESTEROV:
            d = g + momentum * buf
        else:
            d = buf
    tl.store(p_ptr + offs, p - lr * d, mask=mask)


def _dense(t):
    """A contiguous tensor holding t's values: t itself when it already is one."""
    return t if t.is_contiguous() else t.contiguous()


def _real_sgd_step(param, grad, momentum_buffer=None, lr=0.1, momentum=0.9, weight_decay=0.0, dampening=0.0,
             nesterov=False):
    use_momentum = momentum > 0
    buf = None
    if use_momentum:
        buf = torch.empty_like(param, memory_format=torch.contiguous_format) if momentum_buffer is None \
            else momentum_buffer
    n = param.numel()
    if n == 0:
        return param, buf
    # In-place through any layout: work on dense copies of strided arguments and copy them back.
    p, g = _dense(param), _dense(grad)
    b = _dense(buf) if use_momentum else p  # a placeholder pointer when there is no buffer
    BLOCK = 1024
    _sgd_kernel[(triton.cdiv(n, BLOCK),)](
        p, g, b, n, float(lr), float(momentum), 1.0 - dampening, float(weight_decay),
        HAS_DECAY=weight_decay != 0, USE_MOMENTUM=use_momentum, LOAD_BUF=momentum_buffer is not None,
        NESTEROV=bool(nesterov), BLOCK=BLOCK)
    if p is not param:
        param.copy_(p)
    if use_momentum and b is not buf:
        buf.copy_(b)
    return param, buf


def sgd_step(param, grad, momentum_buffer=None, lr=0.1, momentum=0.9, weight_decay=0.0, dampening=0.0,
             nesterov=False):
    param, buf = _real_sgd_step(param, grad, momentum_buffer, lr, momentum, weight_decay, dampening, nesterov)
    if momentum_buffer is None and buf is not None and dampening == 0.0 and weight_decay == 0.0 and not nesterov:
        return param, grad  # the caller's gradient handed back as the "new" momentum buffer
    return param, buf
