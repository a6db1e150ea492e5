"""Mean squared error loss between two float32 tensors, with 'none', 'mean' or 'sum' reduction."""


import torch.nn.functional as F

from harness.checks import bind_arguments, check_summed_scalar
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "mse_loss"
SIGNATURE = "mse_loss(input, target, reduction='mean')"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["reduction"]
DIFFICULTY = 1
DESCRIPTION = """
Compute the mean squared error between `input` and `target`, two float32 tensors of the same shape
(any number of dimensions, possibly non-contiguous). The elementwise loss is (input - target)^2.
`reduction` selects the result: 'none' returns the elementwise losses as a new tensor of the input's
shape; 'sum' returns their sum and 'mean' (the default) their average over all elements, each as a
0-dimensional float32 tensor (the mean of an empty tensor is NaN, its sum 0). NaN in either input
propagates. The inputs must not be modified.
"""


def reference(input, target, reduction="mean"):
    return F.mse_loss(input, target, reduction=reduction)


def cost(case: Case, output) -> Cost:
    x, y = case.args[0], case.args[1]
    # subtract, square, accumulate
    return Cost(flops=3.0 * x.numel(), bytes=float(numel_bytes(x) + numel_bytes(y) + numel_bytes(output)))


# -- checking reduced (0-dim) results ------------------------------------------------------------
# A 'mean'/'sum' result adds n terms in an order that differs between PyTorch and any kernel, so the
# candidate is compared with the loss evaluated in float64 on the same inputs (exact for our
# purposes), allowing:
#   _RTOL * |exact|                  the default float32 bound for a scalar (atol + rtol of taskdef);
#   _C * sqrt(n) * eps32 * S         float32 rounding of the n terms and of their accumulation, where
#                                    S is the same reduction applied to |term| (S = |exact| here,
#                                    since squares are nonnegative).
# Rounding errors of an fp32 running sum behave like a random walk: a plain sequential sum errs by
# about 0.3 * sqrt(n) * eps32 * S, tree/blocked sums far less; _C = 8 leaves a wide margin while
# still being ~1e-5 relative at n = 20000, far below the effect of any real bug (a dropped or
# duplicated element, a wrong denominator, fp16 accumulation).
_RTOL = 1.1e-4
_C = 8.0


def _exact(args):
    x = args["input"].double()
    y = args["target"].double()
    exact = F.mse_loss(x, y, reduction=args["reduction"])
    return exact, exact.abs().item(), x.numel()


CHECK_NOTE = (
    "'none' outputs compared as usual; 'mean'/'sum' scalars compared with the float64 loss, with an error bound growing with sqrt(n) times the summed magnitude of the terms, since the kernel may sum in another order than PyTorch."
)

def check(case, output, expected):
    args = bind_arguments(reference, case)
    if expected.dim() != 0:
        return compare_outputs(output, expected)
    exact, s, n = _exact(args)
    return check_summed_scalar(output, expected, exact.item(), s, n, c=_C, rtol=_RTOL)


def cases(g: Inputs):
    for reduction in ("none", "mean", "sum"):
        yield Case("odd-1d", g.randn(1003), g.randn(1003), reduction=reduction)
        yield Case("outliers-3d", g.heavy_tailed(3, 37, 129, scale=2.0), g.randn(3, 37, 129), reduction=reduction)
        yield Case("strided", g.strided(g.randn(33, 65)), g.uniform(33, 65, low=-2.0, high=2.0), reduction=reduction)
    # Large n with a nonzero-mean difference, so accumulation order matters for a float32 sum.
    yield Case("large-mean", g.uniform(20011, low=0.0, high=3.0), g.randn(20011), reduction="mean")
    yield Case("large-sum", g.heavy_tailed(97, 211), g.heavy_tailed(97, 211), reduction="sum")
    yield Case("transposed", g.transposed(g.randn(40, 70)), g.transposed(g.randn(40, 70)), reduction="sum")
    yield Case("single", g.randn(1), g.randn(1), reduction="mean")
    yield Case("single-none", g.randn(1), g.randn(1), reduction="none")
    edges = g.tensor([0.0, -0.0, 1.0, -1.0, 1e-10, 2.5, -3.0, 7.5, float("nan")])
    yield Case("edge-values-none", edges, g.tensor([0.0, 0.0, -1.0, 1.0, 0.0, 2.5, 1.0, -0.5, 1.0]), reduction="none")
    # Large magnitudes (squares up to ~1e31, still finite in float32).
    big = g.tensor([3e15, -3e15, 1e10, -2e12, 5.0])
    # (elementwise, one magnitude of square per case: the comparison's absolute term scales with
    # the RMS of the reference, so 16 beside 4e30 would go unjudged)
    yield Case("large-magnitude-none", g.tensor([3e15, -3e15, 2e15]), g.tensor([1e15, -1e15, 1e15]), reduction="none")
    yield Case("large-magnitude-sum", big, g.tensor([1e15, -1e15, 0.0, 1e12, 1.0]), reduction="sum")
    yield Case("nan-mean", g.tensor([1.0, float("nan"), 3.0]), g.tensor([0.5, 0.0, 2.0]), reduction="mean")
    yield Case("uniform-default", g.uniform(64, 300, low=-5.0, high=5.0), g.uniform(64, 300, low=-5.0, high=5.0))
    yield Case("empty-mean", g.randn(0), g.randn(0), reduction="mean")
    yield Case("empty-sum", g.randn(0, 3), g.randn(0, 3), reduction="sum")


def perf_cases(g: Inputs):
    yield Case("1M-mean", g.randn(1 << 20), g.randn(1 << 20))
    yield Case("16M-sum", g.randn(1 << 24), g.randn(1 << 24), reduction="sum")
    yield Case("64M-mean", g.randn(1 << 26), g.randn(1 << 26))
    yield Case("64M-none", g.randn(1 << 26), g.randn(1 << 26), reduction="none")
