"""Broadcast a float32 tensor to a target size, then select between it and another tensor by a bool mask."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "expand_where"
SIGNATURE = "expand_where(input, target_sizes, cond, other)"
DTYPES = ["bool", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bool", "float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Broadcast `input` to `target_sizes` and then pick, elementwise, between it and `other` under a
boolean condition: E = input.expand(*target_sizes); return torch.where(cond, E, other).
`input` is a float32 tensor; `target_sizes` is a tuple or list of ints following expand's rules
(a size-1 dim of `input` may grow, -1 keeps the input's size, extra leading dims may be added).
`cond` is a bool tensor and `other` a float32 tensor; E, cond and other are broadcast against each
other with the usual rules, so the result's shape is the broadcast of all three (it can have more
dims than `target_sizes`). Where cond is True the result holds E's value, elsewhere other's value,
copied exactly: a NaN or infinity in the unselected operand must not affect the result. Any of the
tensors may be non-contiguous. The result is a new contiguous float32 tensor; the arguments must not
be modified.
"""

def cost(case: Case, output) -> Cost:
    """A lower bound on the traffic: the result written once, the condition read once, and of each
    value operand only what the condition selects from it (where the condition is True, `other`
    need not be read at all, and the other way round)."""
    input, target_sizes, cond, other = case.args
    chosen = int(cond.expand(output.shape).sum())
    needed = (min(input.numel(), chosen) * input.element_size()
              + min(other.numel(), output.numel() - chosen) * other.element_size())
    return Cost(flops=float(output.numel()), bytes=float(numel_bytes(output) + numel_bytes(cond) + needed))


def reference(input, target_sizes, cond, other):
    expanded = input.expand(*target_sizes)
    return torch.where(cond, expanded, other)


def _mask(g: Inputs, *shape: int, p: float = 0.5) -> torch.Tensor:
    return g.uniform(*shape) < p


def cases(g: Inputs):
    # The upstream pattern: a row broadcast over rows, a per-row condition.
    yield Case("row-bcast-cond-col", g.randn(1, 257), (48, 257), _mask(g, 48, 1), g.randn(48, 257))
    yield Case("minus-one-keeps-size", g.randn(1, 129), (37, -1), _mask(g, 37, 1), g.uniform(37, 129, low=-4, high=4))
    yield Case("full-cond", g.randn(1, 300), [20, 300], _mask(g, 20, 300, p=0.3), g.randn(20, 300))
    yield Case("col-bcast", g.randn(37, 1), (37, 300), _mask(g, 1, 300), g.heavy_tailed(37, 300, scale=2.0))
    # New leading dims from target_sizes, and `other` broadcast too.
    yield Case("new-leading-dims", g.randn(129), (5, 7, 129), _mask(g, 5, 1, 1), g.randn(7, 129))
    # cond has more dims than target_sizes: the result grows to the broadcast shape.
    yield Case("cond-adds-dims", g.randn(1, 33), (17, 33), _mask(g, 3, 1, 1, p=0.6), g.randn(17, 33))
    yield Case("4d", g.uniform(2, 1, 5, 1, low=-2, high=2), (2, 3, 5, 7), _mask(g, 1, 3, 1, 7), g.randn(2, 3, 5, 7))
    yield Case("no-broadcast", g.randn(31, 65), (31, 65), _mask(g, 31, 65), g.randn(31, 65))
    # NaN and infinities on both sides: only an exact select passes (a c*x + (1-c)*y blend leaks NaN).
    special = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 2.5, -7.5, 1e-30]
    yield Case("special-values", g.tensor([special]), (8, 8), g.tensor([[True], [False]] * 4, dtype=torch.bool),
               g.tensor([special[::-1]] * 8))
    # Values near the float32 limit in a case of their own: beside ordinary ones they would widen the
    # tolerance's absolute part (scaled by the output's RMS) past the ordinary values.
    huge = [3e38, -1e38, 2.5e38, -3.3e38, 1e38, -2e38, 3.4e38, -5e37]
    yield Case("huge-values", g.tensor([huge]), (8, 8), g.tensor([[True], [False]] * 4, dtype=torch.bool),
               g.tensor([huge[::-1]] * 8))
    yield Case("strided-operands", g.strided(g.randn(1, 64)), (24, 64), g.strided(_mask(g, 24, 64)),
               g.strided(g.randn(24, 64)))
    yield Case("transposed-other", g.randn(40, 1), (40, 50), _mask(g, 40, 50), g.transposed(g.randn(40, 50)))
    yield Case("all-true", g.randn(1, 100), (10, 100), g.tensor([[True]] * 10, dtype=torch.bool), g.randn(10, 100))
    yield Case("all-false", g.randn(1, 100), (10, 100), g.tensor([False] * 100, dtype=torch.bool), g.randn(10, 100))
    yield Case("size-1", g.randn(1, 1), (1, 1), g.tensor([[True]], dtype=torch.bool), g.randn(1, 1))
    yield Case("long-rows", g.randn(1, 5000), (3, 5000), _mask(g, 3, 1), g.randn(3, 5000))


def perf_cases(g: Inputs):
    yield Case("256x16384", g.randn(1, 16384), (256, 16384), _mask(g, 256, 1), g.randn(256, 16384))
    yield Case("1024x32768", g.randn(1, 32768), (1024, 32768), _mask(g, 1024, 1), g.randn(1024, 32768))
    yield Case("1024x65536", g.randn(1, 65536), (1024, 65536), _mask(g, 1024, 1), g.randn(1024, 65536))
