"""Boolean-mask selection (stream compaction) of a float32 tensor into a 1-D tensor."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "masked_select"
SIGNATURE = "masked_select(input, mask)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 4
DESCRIPTION = """
Gather the elements of `input` where `mask` is True into a new 1-D tensor, like
torch.masked_select(input, mask). `input` is a float32 tensor and `mask` a bool tensor; the two are
broadcast against each other (either may be the smaller one), and either may be non-contiguous.
The result has input's dtype and one element per True entry of the broadcast mask, in row-major
order of the broadcast shape (so a broadcast input contributes its values repeatedly); its length
depends on the data and may be 0. Values are copied exactly (NaN and infinities included). The
arguments must not be modified.
"""


def reference(input, mask):
    return torch.masked_select(input, mask)


def _mask(g: Inputs, *shape: int, p: float = 0.5) -> torch.Tensor:
    return g.uniform(*shape) < p


def cases(g: Inputs):
    yield Case("1d-half", g.randn(4099), _mask(g, 4099))
    # Many blocks: the position of every element depends on the counts of all blocks before it.
    yield Case("1d-long", g.randn(20000), _mask(g, 20000, p=0.7))
    yield Case("2d-sparse", g.randn(37, 129), _mask(g, 37, 129, p=0.05))
    yield Case("2d-dense", g.uniform(64, 130, low=-5, high=5), _mask(g, 64, 130, p=0.95))
    yield Case("3d-outliers", g.heavy_tailed(5, 40, 33, scale=2.0), _mask(g, 5, 40, 33))
    yield Case("mask-row-broadcast", g.randn(20, 300), _mask(g, 1, 300))
    yield Case("mask-col-broadcast", g.randn(20, 300), _mask(g, 20, 1))
    # Broadcast input: its values repeat in the output.
    yield Case("input-broadcast", g.randn(20, 1), _mask(g, 20, 300))
    yield Case("mask-adds-dims", g.randn(333), _mask(g, 4, 333))
    yield Case("all-true", g.randn(9000), g.tensor([True] * 9000, dtype=torch.bool))
    yield Case("all-false", g.randn(50, 60), g.tensor([False] * 60, dtype=torch.bool))
    yield Case("one-true-at-end", g.randn(8193), g.tensor([False] * 8192 + [True], dtype=torch.bool))
    special = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 2.5, -7.5, 1e-30]
    mask = g.tensor([[True, True, False, True, True, False, True, True],
                     [False, True, True, False, True, True, True, False]], dtype=torch.bool)
    yield Case("special-values", g.tensor([special, special[::-1]]), mask)
    # Values near the float32 limit in a case of their own: beside ordinary ones they would widen the
    # tolerance's absolute part (scaled by the output's RMS) past the ordinary values.
    huge = [3e38, -1e38, 2.5e38, -3.3e38, 1e38, -2e38, 3.4e38, -5e37]
    yield Case("huge-values", g.tensor([huge, huge[::-1]]), mask.clone())
    yield Case("strided-input", g.strided(g.randn(33, 65)), _mask(g, 33, 65))
    yield Case("transposed-input", g.transposed(g.randn(40, 50)), _mask(g, 40, 50))
    yield Case("strided-mask", g.randn(30, 41), g.strided(_mask(g, 30, 41)))
    yield Case("single", g.randn(1), g.tensor([True], dtype=torch.bool))


def perf_cases(g: Inputs):
    yield Case("1d-4M", g.randn(1 << 22), _mask(g, 1 << 22))
    yield Case("1d-16M", g.randn(1 << 24), _mask(g, 1 << 24))
    yield Case("1d-64M", g.randn(1 << 26), _mask(g, 1 << 26))


def cost(case: Case, output) -> Cost:
    x, m = case.args
    n = max(x.numel(), m.numel())
    # Read the input and the mask once each (a broadcast operand at its own size), write the output.
    moved = numel_bytes(x) + numel_bytes(m) + numel_bytes(output)
    return Cost(flops=float(n), bytes=float(moved))
