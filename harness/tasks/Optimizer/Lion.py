"""One Lion optimizer step (sign of an interpolated momentum, decoupled decay) on float32 tensors, in place."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "lion_step"
SIGNATURE = "lion_step(param, grad, exp_avg, lr=0.0001, beta1=0.9, beta2=0.99, weight_decay=0.0)"
# The published test draws float32 tensors only.
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["beta1", "beta2", "lr", "weight_decay"]
DIFFICULTY = 3
DESCRIPTION = """
Perform one step of the Lion optimizer on a parameter tensor, updating the parameter and its
momentum IN PLACE. `param`, `grad` and `exp_avg` are float32 tensors of one shape (any shape;
possibly non-contiguous, 0-dimensional or empty); `exp_avg` is the momentum left by earlier steps
(zeros before the first). `lr`, `beta1`, `beta2`, `weight_decay` are Python floats. The step is:
    u       = beta1 * exp_avg + (1 - beta1) * grad          (from the momentum BEFORE this step)
    param   <- param * (1 - lr * weight_decay)               (decoupled decay; skipped when it is 0)
    param   <- param - lr * sign(u)
    exp_avg <- beta2 * exp_avg + (1 - beta2) * grad
The direction uses beta1 and the momentum update uses beta2. sign is torch.sign: +1 or -1 for
nonzero u (also for an infinite u, from an infinite gradient) and 0 where u is exactly zero, where
that element of param is only decayed. (NaN inputs are not part of the contract: torch.sign maps
NaN to 0, numpy to NaN.) Write the results through the tensors'
own strides (a non-contiguous argument must be updated where it lives) and return the tuple
(param, exp_avg) of those same tensor objects; `grad` must not be modified. Nothing is
bias-corrected and there is no step counter.
"""


def reference(param, grad, exp_avg, lr=1e-4, beta1=0.9, beta2=0.99, weight_decay=0.0):
    direction = torch.sign(exp_avg.mul(beta1).add(grad, alpha=1 - beta1))
    if weight_decay != 0:
        param.mul_(1 - lr * weight_decay)
    param.add_(direction, alpha=-lr)
    exp_avg.mul_(beta2).add_(grad, alpha=1 - beta2)
    return param, exp_avg


# Per element: interpolation 3, sign 1, decay 1, update 2, momentum 3.
FLOPS_PER_ELEMENT = 10


def cost(case: Case, output) -> Cost:
    param, grad, exp_avg = case.args[:3]
    # Read param, grad and the momentum once; write param and the momentum once.
    moved = 2 * numel_bytes(param) + numel_bytes(grad) + 2 * numel_bytes(exp_avg)
    return Cost(flops=float(FLOPS_PER_ELEMENT * param.numel()), bytes=float(moved))


def _zeros(g: Inputs, *shape: int) -> torch.Tensor:
    return torch.zeros(shape, dtype=torch.float32, device=g.device)


def _trained(g: Inputs, *shape: int, steps: int, pstd: float = 1.0, **hyper):
    """(param, exp_avg) after `steps` reference steps from a zero momentum with N(0, 1) gradients."""
    param, exp_avg = g.randn(*shape, std=pstd), _zeros(g, *shape)
    for _ in range(steps):
        reference(param, g.randn(*shape), exp_avg, **hyper)
    return param, exp_avg


def cases(g: Inputs):
    # Every element moves by exactly lr (plus decay): a wrong sign moves it by 2 * lr. Parameters
    # are drawn with std of a few lr so that this is far above the tolerance (1e-4 of |param|).
    # -- as the published test: a first step, weight decay with other betas, a given momentum
    yield Case("first-step", g.randn(1003, std=0.01), g.randn(1003), _zeros(g, 1003), lr=1e-3, beta1=0.9, beta2=0.99)
    yield Case("weight-decay", g.randn(37, 53, std=0.01), g.randn(37, 53), _zeros(g, 37, 53), lr=1e-4, beta1=0.95,
               beta2=0.98, weight_decay=0.1)
    yield Case("given-momentum", g.randn(2049, std=0.01), g.randn(2049), g.randn(2049, std=0.1), lr=5e-4,
               beta1=0.9, beta2=0.99)
    yield Case("defaults", g.randn(40, 50, std=1e-3), g.randn(40, 50), g.randn(40, 50, std=0.1))
    # Embedding-like rows that got no gradient this step and have no momentum: u = 0, only decay.
    grad = g.randn(64, 33)
    grad[g.permutation(64)[:32]] = 0.0
    exp_avg = g.randn(64, 33, std=0.1)
    exp_avg[grad[:, 0] == 0] = 0.0
    yield Case("zero-grad-rows", g.randn(64, 33, std=0.01), grad, exp_avg, lr=1e-3, beta1=0.9, beta2=0.99,
               weight_decay=0.1)
    # -- consecutive steps of one run, each from the state the previous one leaves
    param, exp_avg = g.randn(3, 331, std=0.01), _zeros(g, 3, 331)
    for k in range(1, 5):
        grad = g.randn(3, 331)
        yield Case(f"run-step{k}", param.clone(), grad, exp_avg.clone(), lr=1e-3, weight_decay=0.1)
        reference(param, grad, exp_avg, lr=1e-3, weight_decay=0.1)
    yield Case("run-step21", *_reorder(_trained(g, 129, 17, steps=20, pstd=0.01, lr=3e-4, beta1=0.9, beta2=0.99,
                                                weight_decay=1.0), g.randn(129, 17)),
               lr=3e-4, beta1=0.9, beta2=0.99, weight_decay=1.0)
    # Momentum and gradient disagree in sign: beta1 and beta2 give different directions, so
    # swapping the betas or updating the momentum first flips many signs.
    exp_avg = g.randn(4099, std=1.0)
    yield Case("momentum-vs-grad", g.randn(4099, std=0.01), -exp_avg * g.uniform(4099, low=2.0, high=20.0),
               exp_avg, lr=1e-3, beta1=0.9, beta2=0.99)
    yield Case("large-lr-decay", g.randn(901, std=0.5), g.randn(901), g.randn(901, std=0.1), lr=0.1, beta1=0.5,
               beta2=0.9, weight_decay=2.0)
    # sign(0) = 0: u is exactly zero where grad and momentum are both zero (frozen entries), and
    # where beta1 = 0.5 and grad = -momentum (both products exact).
    grad, exp_avg = g.randn(20, 50), g.randn(20, 50, std=0.1)
    grad[::2] = 0.0
    exp_avg[::4] = 0.0
    exp_avg[1::4] = -grad[1::4]
    yield Case("sign-of-zero", g.randn(20, 50, std=0.01), grad, exp_avg, lr=1e-3, beta1=0.5, beta2=0.99,
               weight_decay=0.1)
    # -- special values and layouts
    grad = g.randn(8, 125)
    grad[0, :4] = g.tensor([float("inf"), float("-inf"), float("inf"), float("-inf")])
    yield Case("infinite-grad", g.randn(8, 125, std=0.01), grad, g.randn(8, 125, std=0.1), lr=1e-3)
    yield Case("huge-values", g.heavy_tailed(2000, scale=1e5), g.heavy_tailed(2000, scale=1e7),
               g.randn(2000, std=1e6), lr=1e4, weight_decay=1e-6)
    yield Case("strided-transposed", g.transposed(g.randn(48, 70, std=0.01)), g.strided(g.randn(48, 70)),
               g.transposed(g.randn(48, 70, std=0.1)), lr=1e-3, weight_decay=0.1)
    yield Case("zero-dim", g.randn(std=0.01), g.randn(), g.randn(std=0.1), lr=1e-3)
    yield Case("empty", g.randn(0, 7), g.randn(0, 7), _zeros(g, 0, 7), lr=1e-3)


def _reorder(state, grad):
    param, exp_avg = state
    return param, grad, exp_avg


def perf_cases(g: Inputs):
    for label, n in (("8M", 1 << 23), ("32M", 1 << 25), ("128M", 1 << 27)):
        yield Case(label, g.randn(n, std=0.02), g.randn(n), g.randn(n, std=0.1), lr=1e-4, weight_decay=0.1)
