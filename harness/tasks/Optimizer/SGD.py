"""One SGD step with optional momentum (dampening, Nesterov) and L2 weight decay on float32 tensors."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "sgd_step"
SIGNATURE = ("sgd_step(param, grad, momentum_buffer=None, lr=0.1, momentum=0.9, weight_decay=0.0, "
             "dampening=0.0, nesterov=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dampening", "lr", "momentum", "nesterov", "weight_decay"]
DIFFICULTY = 3
DESCRIPTION = """
Perform one step of stochastic gradient descent with optional momentum on a parameter tensor,
updating it IN PLACE. `param` and `grad` are float32 tensors of one shape (any shape; possibly
non-contiguous, 0-dimensional or empty); `momentum_buffer` is None or a float32 tensor of that
shape holding the momentum left by earlier steps. `lr`, `momentum` (>= 0), `weight_decay`,
`dampening` are Python floats and `nesterov` a bool. The step is:
    g = grad + weight_decay * param                  (L2 penalty; just grad when weight_decay is 0)
    if momentum > 0:
        buf = momentum_buffer, or a new zero tensor of param's shape when momentum_buffer is None
        buf <- momentum * buf + (1 - dampening) * g
        d = g + momentum * buf   if nesterov   else   d = buf      (buf: the value just computed)
    else:
        d = g                    (momentum_buffer, dampening and nesterov play no part)
    param <- param - lr * d
Note that dampening applies on every step, the first included: with momentum_buffer=None the new
buffer is (1 - dampening) * g (not g itself, unlike torch.optim.SGD). Write param, and a given
momentum_buffer, through their own strides (a non-contiguous argument must be updated where it
lives); `grad` must not be modified. Return the tuple (param, buf): param is the argument itself;
buf is the given momentum_buffer itself, or the newly allocated float32 buffer when
momentum_buffer was None; it is None when momentum == 0 (a given momentum_buffer is then returned
as None and left unchanged). NaN and infinity propagate as in IEEE arithmetic.
"""


def reference(param, grad, momentum_buffer=None, lr=0.1, momentum=0.9, weight_decay=0.0, dampening=0.0,
              nesterov=False):
    if weight_decay != 0:
        grad = grad.add(param, alpha=weight_decay)
    buf = None
    if momentum > 0:
        buf = torch.zeros_like(grad) if momentum_buffer is None else momentum_buffer
        buf.mul_(momentum).add_(grad, alpha=1 - dampening)
        grad = grad.add(buf, alpha=momentum) if nesterov else buf
    param.add_(grad, alpha=-lr)
    return param, buf


# Per element: penalty 2, buffer 3, Nesterov 2, update 2.
FLOPS_PER_ELEMENT = 9


def cost(case: Case, output) -> Cost:
    param, grad = case.args[:2]
    buf = output[1]
    # Read param and grad once and write param once; with momentum also write the buffer, and read
    # it when one was given (a new buffer starts from zeros: nothing to read).
    moved = 2 * numel_bytes(param) + numel_bytes(grad)
    if buf is not None:
        given = case.args[2] if len(case.args) > 2 else case.kwargs.get("momentum_buffer")
        moved += numel_bytes(buf) * (2 if given is not None else 1)
    return Cost(flops=float(FLOPS_PER_ELEMENT * param.numel()), bytes=float(moved))


def cases(g: Inputs):
    # The update moves param by about lr * |d|; parameters drawn with std near that keep a wrong
    # direction far above the tolerance (1e-4 of |param|).
    # -- as the published test: plain SGD, momentum from a zero buffer, weight decay, Nesterov
    yield Case("no-momentum", g.randn(1003), g.randn(1003), momentum=0.0)
    yield Case("momentum-zero-buffer", g.randn(37, 53, std=0.1), g.randn(37, 53), torch.zeros(37, 53, device=g.device))
    yield Case("no-momentum-decay", g.randn(2049), g.randn(2049), momentum=0.0, weight_decay=0.01)
    yield Case("nesterov-zero-buffer", g.randn(40, 50, std=0.1), g.randn(40, 50), torch.zeros(40, 50, device=g.device),
               nesterov=True)
    yield Case("nesterov-decay", g.randn(512, std=0.05), g.randn(512), g.randn(512), lr=0.05, momentum=0.9,
               weight_decay=0.01, dampening=0.0, nesterov=True)
    # -- momentum buffers from earlier steps, with dampening, and the None (first step) buffer
    yield Case("given-buffer", g.randn(4099, std=0.1), g.randn(4099), g.randn(4099), lr=0.01, momentum=0.95)
    yield Case("dampening", g.randn(33, 65, std=0.1), g.randn(33, 65), g.randn(33, 65), lr=0.05, momentum=0.9,
               dampening=0.3, weight_decay=0.1)
    yield Case("nesterov-dampening", g.randn(700, std=0.1), g.randn(700), g.randn(700), lr=0.05, momentum=0.8,
               dampening=0.5, nesterov=True)
    # momentum_buffer=None: a new buffer, (1 - dampening) * g, is returned.
    yield Case("first-step-none", g.randn(1500, std=0.1), g.randn(1500), None, lr=0.05, momentum=0.9)
    yield Case("first-step-none-dampening", g.randn(1500, std=0.1), g.randn(1500), momentum_buffer=None, lr=0.05,
               momentum=0.9, dampening=0.5, weight_decay=0.1)
    yield Case("first-step-none-nesterov", g.randn(3, 500, std=0.1), g.randn(3, 500), None, lr=0.05,
               dampening=0.2, nesterov=True)
    # momentum 0 with a buffer given: plain SGD, the buffer untouched and not returned.
    yield Case("buffer-ignored-momentum0", g.randn(900, std=0.1), g.randn(900), g.randn(900), lr=0.05,
               momentum=0.0, dampening=0.5, nesterov=True)
    # -- consecutive steps of one run: the buffer each step leaves is the next step's input
    param, buf = g.randn(3, 331, std=0.05), None
    for k in range(1, 5):
        grad = g.randn(3, 331)
        yield Case(f"run-step{k}", param.clone(), grad, None if buf is None else buf.clone(), lr=0.02,
                   momentum=0.9, dampening=0.1, weight_decay=0.05, nesterov=True)
        param, buf = reference(param, grad, buf, lr=0.02, momentum=0.9, dampening=0.1, weight_decay=0.05,
                               nesterov=True)
    # -- special values and layouts
    grad = g.randn(8, 125)
    grad[0, :4] = g.tensor([float("inf"), float("-inf"), float("nan"), 0.0])
    yield Case("nonfinite-grad", g.randn(8, 125, std=0.1), grad, g.randn(8, 125), lr=0.01, momentum=0.9)
    yield Case("huge-values", g.heavy_tailed(2000, scale=1e8), g.heavy_tailed(2000, scale=1e9),
               g.randn(2000, std=1e9), lr=0.1, momentum=0.9, weight_decay=0.5, nesterov=True)
    yield Case("strided-transposed", g.transposed(g.randn(48, 70, std=0.1)), g.strided(g.randn(48, 70)),
               g.transposed(g.randn(48, 70)), lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.1)
    yield Case("strided-none-buffer", g.strided(g.randn(30, 41, std=0.1)), g.transposed(g.randn(30, 41)), None,
               lr=0.05, momentum=0.9, dampening=0.25)
    yield Case("zero-dim", g.randn(std=0.1), g.randn(), g.randn(), lr=0.05, momentum=0.9, nesterov=True)
    yield Case("empty", g.randn(0, 7), g.randn(0, 7), torch.zeros(0, 7, device=g.device))


def perf_cases(g: Inputs):
    for label, n in (("8M", 1 << 23), ("32M", 1 << 25), ("128M", 1 << 27)):
        yield Case(label, g.randn(n, std=0.02), g.randn(n), g.randn(n), lr=0.01, momentum=0.9, weight_decay=1e-4)
    yield Case("32M-nesterov-new-buffer", g.randn(1 << 25, std=0.02), g.randn(1 << 25), None, lr=0.01,
               momentum=0.9, dampening=0.1, nesterov=True)
