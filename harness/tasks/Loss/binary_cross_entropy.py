"""Binary cross-entropy between float32 probabilities and targets, with optional weight and reduction."""


import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "binary_cross_entropy"
SIGNATURE = "binary_cross_entropy(input, target, weight=None, reduction='mean')"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["reduction", "weight"]
DIFFICULTY = 2
DESCRIPTION = """
Compute the binary cross-entropy between `input`, a float32 tensor of probabilities in [0, 1] (any
shape, possibly non-contiguous), and `target`, a float32 tensor of the same shape with values in
[0, 1] (hard 0/1 labels or soft targets). The elementwise loss is
-weight * (target * log(input) + (1 - target) * log(1 - input)), where each logarithm is clamped from
below at -100 (so input = 0 or 1 gives a finite loss; log(1 - input) should be evaluated accurately
for tiny inputs, as log1p(-input)). `weight` (default None, meaning 1) is an optional float32 tensor
broadcastable to the input's shape, e.g. one weight per element or per class along the last
dimension. `reduction` selects the result: 'none' returns the elementwise losses as a new tensor of
the input's shape; 'sum' returns their sum and 'mean' (the default) their average over all elements
(not weighted by `weight`), each as a 0-dimensional float32 tensor. The inputs must not be modified.
"""


def reference(input, target, weight=None, reduction="mean"):
    return F.binary_cross_entropy(input, target, weight=weight, reduction=reduction)


def cost(case: Case, output) -> Cost:
    args = list(case.args) + list(case.kwargs.values())
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    n = tensors[0].numel()
    # two logs (about 8 flops each with the log1p correction) and a few multiply-adds
    return Cost(flops=25.0 * n, bytes=float(sum(numel_bytes(t) for t in tensors) + numel_bytes(output)))


# -- checking reduced (0-dim) results ------------------------------------------------------------
# A 'mean'/'sum' result adds n terms in an order that differs between PyTorch and any kernel, so the
# candidate is compared with the loss evaluated in float64 on the same inputs (exact for our
# purposes), allowing:
#   _RTOL * |exact|                  the default float32 bound for a scalar (atol + rtol of taskdef);
#   _C * sqrt(n) * eps32 * S         float32 rounding of the n terms and of their accumulation, where
#                                    S is the same reduction applied to |term| (S = |exact| here,
#                                    since every term is nonnegative for weights >= 0).
# Rounding errors of an fp32 running sum behave like a random walk: a plain sequential sum errs by
# about 0.3 * sqrt(n) * eps32 * S, tree/blocked sums far less; _C = 8 leaves a wide margin while
# still being ~1e-5 relative at n = 20000, far below the effect of any real bug (a dropped or
# duplicated element, a missing clamp or weight, a wrong denominator, fp16 accumulation).
_RTOL = 1.1e-4
_C = 8.0


def _exact(args):
    x = args["input"].double()
    y = args["target"].double()
    w = args["weight"]
    w = None if w is None else w.double()
    exact = F.binary_cross_entropy(x, y, weight=w, reduction=args["reduction"])
    s = F.binary_cross_entropy(x, y, weight=None if w is None else w.abs(), reduction=args["reduction"])
    return exact, s.abs().item(), x.numel()


CHECK_NOTE = (
    "'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude of the terms, since the kernel may sum in another order than PyTorch."
)

def check(case, output, expected):
    args = bind_arguments(reference, case)
    if expected.dim() != 0:
        return compare_outputs(output, expected)
    exact, s, n = _exact(args)
    return check_summed_scalar(output, expected, exact.item(), s, n, c=_C, rtol=_RTOL)


def _probs(g: Inputs, *shape: int, scale: float = 2.0):
    """Probabilities sigmoid(N(0, scale)): mostly well inside (0, 1), some close to either end."""
    return torch.sigmoid(g.randn(*shape, std=scale))


def _hard(g: Inputs, *shape: int):
    return g.randint(0, 2, *shape).to(torch.float32)


def cases(g: Inputs):
    # Inputs outside [0, 1] (and NaN) are not tested: PyTorch raises on the CPU and asserts on the GPU.
    for reduction in ("none", "mean", "sum"):
        yield Case("hard-odd-1d", _probs(g, 1003), _hard(g, 1003), reduction=reduction)
        yield Case("soft-3d-weight", _probs(g, 3, 37, 129), g.uniform(3, 37, 129),
                   weight=g.uniform(3, 37, 129, low=0.1, high=3.0), reduction=reduction)
        yield Case("class-weight-2d", _probs(g, 57, 33, scale=4.0), _hard(g, 57, 33),
                   weight=g.uniform(33, low=0.0, high=2.0), reduction=reduction)
    # Exactly 0 and 1 (clamped logs give 100), values within a few ulp of either end, and the tiny
    # inputs where log(1 - x) must not round to 0 (log1p).
    edges_x = [0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1e-30, 1e-8, 1.0 - 2.0 ** -24, 1.0 - 2.0 ** -24, 0.5, 1e-3, 0.999]
    edges_y = [0.0, 1.0, 1.0, 0.0, 0.25, 0.75, 1.0, 0.0, 1.0, 0.0, 0.5, 0.3, 0.9]
    yield Case("edge-values-none", g.tensor(edges_x), g.tensor(edges_y), reduction="none")
    yield Case("edge-values-sum", g.tensor(edges_x), g.tensor(edges_y), reduction="sum")
    # Confident negatives: tiny probabilities with zero targets, where the loss -log(1 - x) is about
    # x and log(1 - x) evaluated naively in float32 (1 - x rounds to a multiple of 2**-24) loses
    # most of its digits.
    yield Case("tiny-probs-none", g.uniform(500, low=1e-8, high=1e-5), torch.zeros(500, device=g.device),
               reduction="none")
    yield Case("tiny-probs-mean", g.uniform(30, 50, low=1e-9, high=1e-7), torch.zeros(30, 50, device=g.device),
               reduction="mean")
    yield Case("row-weight-mean", g.uniform(40, 70, low=0.0, high=1.0), g.uniform(40, 70),
               weight=g.uniform(40, 1, low=0.5, high=1.5), reduction="mean")
    yield Case("strided", g.strided(_probs(g, 33, 65)), g.strided(_hard(g, 33, 65)), reduction="mean")
    yield Case("transposed-weight-none", g.transposed(_probs(g, 40, 70)), g.uniform(40, 70),
               weight=g.transposed(g.uniform(40, 70, low=0.0, high=2.0)), reduction="none")
    yield Case("large-sum", _probs(g, 20011, scale=6.0), _hard(g, 20011), reduction="sum")
    yield Case("single", _probs(g, 1), g.uniform(1))
    yield Case("default-args", g.uniform(64, 300, low=0.001, high=0.999), _hard(g, 64, 300))


def perf_cases(g: Inputs):
    yield Case("1M-mean", g.uniform(1 << 20), _hard(g, 1 << 20))
    yield Case("16M-weight-sum", g.uniform(1 << 24), g.uniform(1 << 24), weight=g.uniform(1 << 24), reduction="sum")
    yield Case("64M-mean", g.uniform(1 << 26), g.uniform(1 << 26))
    yield Case("64M-none", g.uniform(1 << 26), _hard(g, 1 << 26), reduction="none")
