"""One AdamW step (decoupled weight decay, bias-corrected moments) on float32 tensors, in place."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "adamw_step"
SIGNATURE = ("adamw_step(param, grad, exp_avg, exp_avg_sq, step, lr=0.001, beta1=0.9, beta2=0.999, "
             "eps=1e-08, weight_decay=0.01)")
# The published test draws float32 tensors only; optimizer state in other dtypes (bf16 moments,
# fp32 master weights) is a different contract, not exercised here.
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["step", "weight_decay"]
DIFFICULTY = 4
DESCRIPTION = """
Perform one step of the AdamW optimizer (Adam with decoupled weight decay) on a parameter tensor,
updating the parameter and its two moment buffers IN PLACE. `param`, `grad`, `exp_avg` and
`exp_avg_sq` are float32 tensors of one shape (any shape; possibly non-contiguous, 0-dimensional or
empty). `exp_avg` and `exp_avg_sq` hold the running first and second moments left by earlier steps
(zeros before the first step; exp_avg_sq >= 0). `step` is a Python int >= 1, the number of the
step being taken, counting it (1 for the first step); it only enters the bias corrections and is not
returned. `lr`, `beta1`, `beta2`, `eps`, `weight_decay` are Python floats. With the updated moments
used in the last line, the step is:
    param      <- param * (1 - lr * weight_decay)
    exp_avg    <- beta1 * exp_avg + (1 - beta1) * grad
    exp_avg_sq <- beta2 * exp_avg_sq + (1 - beta2) * grad * grad
    bc1 = 1 - beta1**step,  bc2 = 1 - beta2**step
    param      <- param - (lr / bc1) * exp_avg / (sqrt(exp_avg_sq) / sqrt(bc2) + eps)
The weight decay is decoupled: it scales the parameter before the Adam update and is NOT added to
the gradient (the moments see the raw grad). `eps` is added to the bias-corrected root, outside the
square root. Write the results through the tensors' own strides (a non-contiguous argument must be
updated where it lives) and return the tuple (param, exp_avg, exp_avg_sq) of those same tensor
objects; `grad` must not be modified. NaN and infinity propagate as in IEEE arithmetic (an infinite
gradient gives inf moments and a NaN parameter). Compute the scalar coefficients (1 - beta1,
1 - beta2, the bias corrections, lr / bc1) in double precision on the host, not from float32 copies
of the betas: with beta2 = 0.9999, 1 - float32(beta2) is off by 1.7e-4 relative, more than the
float32 tolerance on the results.
"""


def reference(param, grad, exp_avg, exp_avg_sq, step, lr=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
              weight_decay=0.01):
    param.mul_(1 - lr * weight_decay)
    exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
    correction1 = 1 - beta1 ** step
    correction2 = 1 - beta2 ** step
    denom = (exp_avg_sq.sqrt() / correction2 ** 0.5).add_(eps)
    param.addcdiv_(exp_avg, denom, value=-lr / correction1)
    return param, exp_avg, exp_avg_sq


# Per element: decay 1 multiply, first moment 3, second moment 4, sqrt/scale/eps 3, update 3.
FLOPS_PER_ELEMENT = 14


def cost(case: Case, output) -> Cost:
    param, grad, exp_avg, exp_avg_sq = case.args[:4]
    # Read param, grad and both moments once; write param and both moments once.
    moved = 2 * numel_bytes(param) + numel_bytes(grad) + 2 * numel_bytes(exp_avg) + 2 * numel_bytes(exp_avg_sq)
    return Cost(flops=float(FLOPS_PER_ELEMENT * param.numel()), bytes=float(moved))


def _zeros(g: Inputs, *shape: int) -> torch.Tensor:
    return torch.zeros(shape, dtype=torch.float32, device=g.device)


def _trained(g: Inputs, *shape: int, steps: int, pstd: float = 1.0, gstd: float = 1.0, **hyper):
    """(param, exp_avg, exp_avg_sq) after `steps` reference steps from zero moments, each with a
    fresh N(0, gstd) gradient: consistent state of a run in progress (non-zero moments, step > 1)."""
    param, exp_avg, exp_avg_sq = g.randn(*shape, std=pstd), _zeros(g, *shape), _zeros(g, *shape)
    for k in range(1, steps + 1):
        reference(param, g.randn(*shape, std=gstd), exp_avg, exp_avg_sq, k, **hyper)
    return param, exp_avg, exp_avg_sq


def _reorder(state, grad):
    """(param, exp_avg, exp_avg_sq) and a gradient, in the argument order of the entry."""
    param, exp_avg, exp_avg_sq = state
    return param, grad, exp_avg, exp_avg_sq


def cases(g: Inputs):
    # The update moves param by about lr per element. Parameters drawn N(0, 1) hide an update error
    # of up to ~10% under the float32 tolerance (1e-4 of |param|), so most cases draw small
    # parameters (std 0.01-0.05, like initialised weights) where the update is a large share of the
    # result and a wrong bias correction, eps placement or decay shows.
    # -- as the published test: first steps from zero moments, and a late step with given moments
    yield Case("first-step", g.randn(37, 53), g.randn(37, 53), _zeros(g, 37, 53), _zeros(g, 37, 53), step=1)
    yield Case("first-step-wd", g.randn(1003, std=0.01), g.randn(1003), _zeros(g, 1003), _zeros(g, 1003),
               step=1, weight_decay=0.1)
    yield Case("step100-given-moments", g.randn(40, 50, std=0.02), g.randn(40, 50), g.randn(40, 50, std=0.1),
               g.randn(40, 50).abs() * 0.01, step=100)
    yield Case("no-weight-decay", g.randn(2049, std=0.01), g.randn(2049), g.randn(2049, std=0.1),
               g.uniform(2049, low=0.0, high=0.02), step=7, weight_decay=0.0)
    # -- consecutive steps of one run: each case starts from the state the previous one leaves
    # (computed by the reference), so bias corrections at steps 1..5 and the state hand-over show.
    param, exp_avg, exp_avg_sq = g.randn(3, 331, std=0.01), _zeros(g, 3, 331), _zeros(g, 3, 331)
    for k in range(1, 6):
        grad = g.randn(3, 331)
        yield Case(f"run-step{k}", param.clone(), grad, exp_avg.clone(), exp_avg_sq.clone(), step=k,
                   weight_decay=0.05)
        reference(param, grad, exp_avg, exp_avg_sq, k, weight_decay=0.05)
    # Mid-run state: 30 earlier steps.
    yield Case("run-step31", *_reorder(_trained(g, 129, 17, steps=30, pstd=0.02, weight_decay=0.02), g.randn(129, 17)),
               step=31, weight_decay=0.02)
    yield Case("step-1e6", g.randn(4099, std=0.05), g.randn(4099), g.randn(4099, std=0.1),
               g.uniform(4099, low=0.001, high=0.01), step=1_000_000)
    # -- every other keyword, one at a time and together
    yield Case("all-hyper", *_reorder(_trained(g, 513, steps=5, pstd=0.05, lr=0.01, beta1=0.8, beta2=0.95,
                                               eps=1e-6, weight_decay=0.05), g.randn(513)),
               step=6, lr=0.01, beta1=0.8, beta2=0.95, eps=1e-6, weight_decay=0.05)
    # beta2 near 1: the bias correction 1 - beta2**step is 1e-4 at step 1 (float32 coefficients fail).
    yield Case("beta2-0.9999-first-step", g.randn(777, std=0.01), g.randn(777), _zeros(g, 777), _zeros(g, 777),
               step=1, lr=0.01, beta2=0.9999)
    yield Case("beta2-0.9999-step2", *_reorder(_trained(g, 777, steps=1, pstd=0.01, lr=0.01, beta2=0.9999),
                                               g.randn(777)), step=2, lr=0.01, beta2=0.9999)
    # eps comparable to the root: sqrt(v_hat) + eps and sqrt(v_hat + eps) differ by ~5%.
    yield Case("eps-large", *_reorder(_trained(g, 1500, steps=2, pstd=0.05, lr=0.01, eps=0.1), g.randn(1500)),
               step=3, lr=0.01, eps=0.1)
    # Tiny gradients: the root (~1e-7) is within 10x of eps.
    yield Case("tiny-grads", g.randn(1200, std=1e-3), g.randn(1200, std=1e-7), _zeros(g, 1200), _zeros(g, 1200),
               step=1, lr=1e-3)
    # Large lr * weight_decay: decaying before vs after the update, or coupling, differ visibly.
    yield Case("large-lr-decay", *_reorder(_trained(g, 901, steps=3, pstd=0.1, lr=0.1, weight_decay=0.5),
                                           g.randn(901)), step=4, lr=0.1, weight_decay=0.5)
    yield Case("beta1-zero", g.randn(600, std=0.01), g.randn(600), g.randn(600, std=0.1),
               g.uniform(600, low=0.0, high=0.01), step=3, beta1=0.0)
    # -- special values and layouts
    grad = g.randn(8, 125)
    grad[0, :4] = g.tensor([float("inf"), float("-inf"), float("nan"), 0.0])
    yield Case("nonfinite-grad", g.randn(8, 125, std=0.01), grad, g.randn(8, 125, std=0.1),
               g.uniform(8, 125, low=0.0, high=0.01), step=2)
    yield Case("huge-values", g.heavy_tailed(2000, scale=1e4), g.heavy_tailed(2000, scale=1e5),
               g.randn(2000, std=1e5), g.uniform(2000, low=0.0, high=1e10), step=12, lr=10.0, weight_decay=1e-3)
    yield Case("strided-transposed", g.transposed(g.randn(48, 70, std=0.02)), g.strided(g.randn(48, 70)),
               g.transposed(g.randn(48, 70, std=0.1)), g.uniform(48, 70, low=0.0, high=0.01), step=9)
    yield Case("zero-dim", g.randn(std=0.01), g.randn(), g.randn(std=0.1), g.uniform(low=0.0, high=0.01), step=4)
    yield Case("empty", g.randn(0, 7), g.randn(0, 7), _zeros(g, 0, 7), _zeros(g, 0, 7), step=1)
    # exp_avg_sq read or written as dense (stride 1), or through param's strides, meets the NaN gaps
    yield Case("strided-exp-avg-sq", g.randn(32, 45, std=0.02), g.randn(32, 45), g.randn(32, 45, std=0.1),
               g.strided(g.uniform(32, 45, low=0.0, high=0.01)), step=5)


def perf_cases(g: Inputs):
    for label, n in (("8M", 1 << 23), ("32M", 1 << 25), ("128M", 1 << 27)):
        yield Case(label, g.randn(n, std=0.02), g.randn(n), g.randn(n, std=0.1), g.uniform(n, low=0.0, high=0.01),
                   step=1000, weight_decay=0.1)
