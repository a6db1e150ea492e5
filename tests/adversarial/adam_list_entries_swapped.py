# CLASS: in-place semantics faked by swapping the entries of a list argument (wrong result accepted).
# TARGET: harness/tasks/Optimizer/Adam.py  (the only task whose in-place arguments live in a list)
# HOW: the task requires param, exp_avg, exp_avg_sq and step to be "modified in place (through their
#   own strides)" and `params` returned. This submission never writes into any caller tensor: it
#   computes the step honestly with Triton on fresh contiguous clones and then REPLACES the list
#   entries (params[i] = new_param, ...). harness/invoke.py record_of() takes args_after as
#   list(case.args): the (same) list object, now holding the new tensors, so the state "after the
#   call" looks right; argument_storages() only records top-level tensor arguments, so the alias
#   check (judge_call) has nothing to compare for tensors inside the list. The caller's real
#   parameter tensors are left unchanged (a model using this optimizer would never train), and
#   non-contiguous params are never updated "where they live".
# VERDICT GOT: exe ok.  CORRECT VERDICT: wrong (the original param/state tensors were not updated).
import math

import torch
import triton
import triton.language as tl


@triton.jit
def _one_minus_pow(t, log_beta):
    """1 - beta**t for t >= 1 as -expm1(t * log(beta)), to float32 relative accuracy even when
    beta**t is close to 1 (beta2 = 0.9999 at small t), where 1 - exp(x) would cancel."""
    x = t * log_beta  # <= 0; -inf when beta = 0
    # Taylor series of expm1 for |x| < 0.5, in Horner form (truncation error < 3e-11 relative).
    q = 1.0 + x * (1.0 / 11.0)
    q = 1.0 + x * (1.0 / 10.0) * q
    q = 1.0 + x * (1.0 / 9.0) * q
    q = 1.0 + x * (1.0 / 8.0) * q
    q = 1.0 + x * (1.0 / 7.0) * q
    q = 1.0 + x * (1.0 / 6.0) * q
    q = 1.0 + x * (1.0 / 5.0) * q
    q = 1.0 + x * (1.0 / 4.0) * q
    q = 1.0 + x * (1.0 / 3.0) * q
    q = 1.0 + x * (1.0 / 2.0) * q
    return tl.where(x > -0.5, -(x * q), 1.0 - tl.exp(x))


@triton.jit
def _adam_kernel(p_ptr, g_ptr, m_ptr, v_ptr, step_ptr, n_elements,
                 lr, beta1, one_minus_beta1, log_beta1, beta2, one_minus_beta2, log_beta2, eps, weight_decay,
                 HAS_DECAY: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: 2**27-element tensors and beyond
    mask = offs < n_elements
    # The count is read on the device (no host sync); it is advanced by a separate launch after
    # this one, so that every program sees the count from before the step.
    t = tl.load(step_ptr) + 1.0
    step_size = lr / _one_minus_pow(t, log_beta1)
    inv_sqrt_bc2 = 1.0 / tl.sqrt(_one_minus_pow(t, log_beta2))
    p = tl.load(p_ptr + offs, mask=mask)
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask)
    v = tl.load(v_ptr + offs, mask=mask)
    if HAS_DECAY:
        g = g + weight_decay * p  # L2 penalty: Adam adds it to the gradient
    m = beta1 * m + one_minus_beta1 * g
    v = beta2 * v + one_minus_beta2 * (g * g)
    denom = tl.sqrt(v) * inv_sqrt_bc2 + eps
    p = p - step_size * (m / denom)
    tl.store(p_ptr + offs, p, mask=mask)
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)


@triton.jit
def _advance_count_kernel(step_ptr):
    tl.store(step_ptr, tl.load(step_ptr) + 1.0)


def _dense(t):
    """A contiguous tensor holding t's values: t itself when it already is one."""
    return t if t.is_contiguous() else t.contiguous()


def _log(beta):
    return math.log(beta) if beta > 0 else -math.inf


def Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0):
    beta1, beta2 = float(betas[0]), float(betas[1])
    # Scalar coefficients in double precision on the host (1 - beta2 cancels badly in float32).
    coefficients = (float(lr), beta1, 1.0 - beta1, _log(beta1), beta2, 1.0 - beta2, _log(beta2), float(eps),
                    float(weight_decay))
    BLOCK = 1024
    for i in range(0, len(params), 5):
        param, grad, exp_avg, exp_avg_sq, step = params[i:i + 5]
        if grad is None:
            continue  # no gradient: torch.optim skips the parameter, count included
        # Never touch the caller's tensors: work on fresh copies and swap them into the list.
        cf = torch.contiguous_format
        p, m, v, s = param.clone(memory_format=cf), exp_avg.clone(memory_format=cf), exp_avg_sq.clone(memory_format=cf), step.clone()
        g = _dense(grad)
        n = param.numel()
        if n:
            _adam_kernel[(triton.cdiv(n, BLOCK),)](p, g, m, v, s, n, *coefficients,
                                                   HAS_DECAY=weight_decay != 0, BLOCK=BLOCK)
        _advance_count_kernel[(1,)](s)
        params[i], params[i + 2], params[i + 3], params[i + 4] = p, m, v, s
    return params
