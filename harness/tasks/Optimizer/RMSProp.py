"""One RMSProp step (running mean of squared gradients, L2 weight decay) on float32 tensors, in place."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "rmsprop_step"
SIGNATURE = "rmsprop_step(param, grad, square_avg, lr=0.01, alpha=0.99, eps=1e-08, weight_decay=0.0)"
# The published test draws float32 tensors only.
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "eps", "lr", "weight_decay"]
DIFFICULTY = 3
DESCRIPTION = """
Perform one step of the RMSProp optimizer (no momentum, not centered) on a parameter tensor,
updating the parameter and its running average of squared gradients IN PLACE. `param`, `grad` and
`square_avg` are float32 tensors of one shape (any shape; possibly non-contiguous, 0-dimensional or
empty); `square_avg` >= 0 is the average left by earlier steps (zeros before the first). `lr`,
`alpha`, `eps`, `weight_decay` are Python floats. The step is:
    g          = grad + weight_decay * param        (L2 penalty; just grad when weight_decay is 0)
    square_avg <- alpha * square_avg + (1 - alpha) * g * g
    param      <- param - lr * g / (sqrt(square_avg) + eps)
The penalized g enters both the average and the update, and the update uses the updated average.
`eps` is added outside the square root. Write the results through the tensors' own strides (a
non-contiguous argument must be updated where it lives) and return the tuple (param, square_avg) of
those same tensor objects; `grad` must not be modified. There is no bias correction and no step
counter. NaN and infinity propagate as in IEEE arithmetic (an infinite gradient gives an infinite
average and a NaN parameter).
"""


def reference(param, grad, square_avg, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0):
    if weight_decay != 0:
        grad = grad.add(param, alpha=weight_decay)
    square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
    param.addcdiv_(grad, square_avg.sqrt().add(eps), value=-lr)
    return param, square_avg


# Per element: penalty 2, average 4, sqrt and eps 2, update 3.
FLOPS_PER_ELEMENT = 11


def cost(case: Case, output) -> Cost:
    param, grad, square_avg = case.args[:3]
    # Read param, grad and the average once; write param and the average once.
    moved = 2 * numel_bytes(param) + numel_bytes(grad) + 2 * numel_bytes(square_avg)
    return Cost(flops=float(FLOPS_PER_ELEMENT * param.numel()), bytes=float(moved))


def _zeros(g: Inputs, *shape: int) -> torch.Tensor:
    return torch.zeros(shape, dtype=torch.float32, device=g.device)


def _trained(g: Inputs, *shape: int, steps: int, pstd: float = 1.0, **hyper):
    """(param, square_avg) after `steps` reference steps from a zero average with N(0, 1) gradients."""
    param, square_avg = g.randn(*shape, std=pstd), _zeros(g, *shape)
    for _ in range(steps):
        reference(param, g.randn(*shape), square_avg, **hyper)
    return param, square_avg


def _reorder(state, grad):
    param, square_avg = state
    return param, grad, square_avg


def cases(g: Inputs):
    # From a zero average the first update is lr / sqrt(1 - alpha) per element (0.1 at the
    # defaults), later ones about lr; parameters drawn with std of a few lr keep a wrong update far
    # above the tolerance (1e-4 of |param|).
    # -- as the published test: a first step, weight decay with other alpha/eps, a given average
    yield Case("first-step", g.randn(1003, std=0.1), g.randn(1003), _zeros(g, 1003), lr=1e-2, alpha=0.99, eps=1e-8)
    yield Case("weight-decay", g.randn(37, 53, std=0.01), g.randn(37, 53), _zeros(g, 37, 53), lr=1e-3, alpha=0.95,
               eps=1e-6, weight_decay=0.1)
    yield Case("given-average", g.randn(2049, std=0.01), g.randn(2049), g.uniform(2049, low=0.0, high=0.01),
               lr=5e-3, alpha=0.9, eps=1e-8)
    yield Case("defaults", g.randn(40, 50, std=0.1), g.randn(40, 50), g.uniform(40, 50, low=0.5, high=2.0))
    # -- consecutive steps of one run, each from the state the previous one leaves
    param, square_avg = g.randn(3, 331, std=0.05), _zeros(g, 3, 331)
    for k in range(1, 5):
        grad = g.randn(3, 331)
        yield Case(f"run-step{k}", param.clone(), grad, square_avg.clone(), lr=1e-2, weight_decay=0.5)
        reference(param, grad, square_avg, lr=1e-2, weight_decay=0.5)
    yield Case("run-step31", *_reorder(_trained(g, 129, 17, steps=30, pstd=0.01, lr=1e-3, alpha=0.9,
                                                weight_decay=0.1), g.randn(129, 17)),
               lr=1e-3, alpha=0.9, weight_decay=0.1)
    # eps comparable to the root: sqrt(v) + eps and sqrt(v + eps) differ by ~2x here.
    yield Case("eps-large", g.randn(1500, std=0.01), g.randn(1500), g.uniform(1500, low=0.0, high=0.02), lr=1e-3,
               alpha=0.99, eps=0.1)
    # Large weight decay on large parameters: the penalty dominates g (in the average and the update).
    yield Case("decay-dominates", g.randn(901, std=1.0), g.randn(901, std=0.01), g.uniform(901, low=0.0, high=0.1),
               lr=1e-2, alpha=0.9, eps=1e-8, weight_decay=1.0)
    # Tiny gradients and average: the root (~1e-7) is within 10x of eps.
    yield Case("tiny-grads", g.randn(1200, std=1e-4), g.randn(1200, std=1e-7), g.uniform(1200, low=0.0, high=1e-14),
               lr=1e-3)
    # -- special values and layouts
    grad = g.randn(8, 125)
    grad[0, :4] = g.tensor([float("inf"), float("-inf"), float("nan"), 0.0])
    yield Case("nonfinite-grad", g.randn(8, 125, std=0.01), grad, g.uniform(8, 125, low=0.0, high=0.01), lr=1e-3)
    yield Case("huge-values", g.heavy_tailed(2000, scale=1e6), g.heavy_tailed(2000, scale=1e8),
               g.uniform(2000, low=0.0, high=1e16), lr=1e5, alpha=0.9, weight_decay=1e-3)
    yield Case("strided-transposed", g.transposed(g.randn(48, 70, std=0.01)), g.strided(g.randn(48, 70)),
               g.transposed(g.uniform(48, 70, low=0.0, high=0.01)), lr=1e-3, weight_decay=0.1)
    yield Case("zero-dim", g.randn(std=0.1), g.randn(), g.uniform(low=0.0, high=0.01))
    yield Case("empty", g.randn(0, 7), g.randn(0, 7), _zeros(g, 0, 7))


def perf_cases(g: Inputs):
    for label, n in (("8M", 1 << 23), ("32M", 1 << 25), ("128M", 1 << 27)):
        yield Case(label, g.randn(n, std=0.02), g.randn(n), g.uniform(n, low=0.0, high=0.01), lr=1e-3,
                   weight_decay=0.01)
