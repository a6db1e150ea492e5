"""Select the elements of a float32 tensor where a mask is True, add a scaled tensor or number, and
apply GELU (masked_select, add with alpha, gelu)."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_masked_select_add_gelu"
SIGNATURE = "fused_masked_select_add_gelu(input, mask, other, *, alpha=1, approximate='none', out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["alpha", "approximate", "out"]
# A mask or input that broadcasts the other is beyond the upstream test (same-shape operands).
# The upstream example's 0-d `other` is core; an empty selection (all False) is edge.
TIERS = {"mask-row-broadcast": "edge", "input-broadcast": "edge", "example-ge0-scalar-tensor": "core",
         "all-false": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute gelu(masked_select(input, mask) + alpha * other): gather the elements of `input` where the
bool tensor `mask` is True into a 1-D tensor z (like torch.masked_select: input and mask broadcast
against each other, elements taken in row-major order of the broadcast shape; the length n depends
on the data and may be 0), add `alpha * other` (like torch.add(z, other, alpha=alpha)), then apply
GELU (like torch.nn.functional.gelu(s, approximate=approximate)). `input` is float32 of any shape,
possibly non-contiguous; `other` is a Python number, a 0-d or 1-element tensor, or a float32 tensor
of shape (n,) matched with z position by position; `alpha` is a number (default 1).
approximate='none' (default) is x * 0.5 * (1 + erf(x / sqrt(2))); approximate='tanh' is
0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))). The result is a float32 tensor of shape
(n,). Fuse the addition and GELU into the compaction: no intermediate of the selected values. If
`out` (a float32 tensor of shape (n,)) is given, write the result into it and return `out`;
otherwise return a new tensor. The inputs must not be modified.
"""


def reference(input, mask, other, *, alpha=1, approximate="none", out=None):
    selected = torch.masked_select(input, mask)
    result = F.gelu(torch.add(selected, other, alpha=alpha), approximate=approximate)
    if out is not None:
        out.copy_(result)
        return out
    return result


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, mask, other = args["input"], args["mask"], args["other"]
    other_bytes = numel_bytes(other) if isinstance(other, torch.Tensor) else 0
    # Input and mask read once (each at its own size), other once, the result written once;
    # gelu ~10 operations per selected element plus the add.
    moved = numel_bytes(x) + numel_bytes(mask) + other_bytes + numel_bytes(output)
    return Cost(flops=float(max(x.numel(), mask.numel()) + 11 * output.numel()), bytes=float(moved))


def _mask(g: Inputs, *shape: int, p: float = 0.5):
    return g.uniform(*shape) < p


def _per_selected(g: Inputs, mask: torch.Tensor, **kw):
    """An `other` with one value per selected element."""
    return g.randn(int(mask.sum().item()), **kw)


def cases(g: Inputs):
    x = g.randn(3, 4)
    yield Case("example-ge0-scalar-tensor", x, x.ge(0), g.tensor(1.0))
    m = _mask(g, 4099)
    yield Case("1d-tensor-other", g.randn(4099), m, _per_selected(g, m))
    m = _mask(g, 37, 129, p=0.3)
    yield Case("2d-alpha", g.randn(37, 129), m, _per_selected(g, m), alpha=0.5)
    m = _mask(g, 20000, p=0.7)
    yield Case("1d-long-tanh", g.randn(20000, std=2.0), m, _per_selected(g, m), approximate="tanh")
    m = _mask(g, 5, 40, 33)
    yield Case("3d-scalar-other-alpha-tanh", g.heavy_tailed(5, 40, 33, scale=2.0), m, 0.25, alpha=-2.0,
               approximate="tanh")
    yield Case("scalar-other", g.uniform(64, 130, low=-5.0, high=5.0), _mask(g, 64, 130, p=0.9), -1.5)
    yield Case("int-alpha-zero", g.randn(300), _mask(g, 300), g.tensor(100.0), alpha=0)
    m = _mask(g, 50, 60, p=0.05)
    yield Case("sparse-mask-none", g.randn(50, 60), m, _per_selected(g, m), approximate="none")
    yield Case("all-true", g.randn(9000), g.tensor([True] * 9000, dtype=torch.bool), 0.5)
    m = _mask(g, 25, 40)
    yield Case("out", g.randn(25, 40), m, _per_selected(g, m), alpha=2.0, out=_per_selected(g, m))
    m = _mask(g, 1000)
    yield Case("out-tanh", g.randn(1000), m, 1.0, approximate="tanh", out=_per_selected(g, m))
    # Edge: broadcasting, layouts, empty selections, special values, 1-element other.
    yield Case("mask-row-broadcast", g.randn(20, 300), _mask(g, 1, 300), 0.5)
    yield Case("input-broadcast", g.randn(20, 1), _mask(g, 20, 300), 0.5)
    m = _mask(g, 33, 65)
    yield Case("strided-input-and-other", g.strided(g.randn(33, 65)), m, g.strided(_per_selected(g, m)))
    yield Case("transposed-input", g.transposed(g.randn(40, 50)), _mask(g, 40, 50), 1.0)
    yield Case("strided-mask", g.randn(30, 41), g.strided(_mask(g, 30, 41)), 1.0, approximate="tanh")
    yield Case("all-false", g.randn(50, 60), g.tensor([False] * 60, dtype=torch.bool), 1.0)
    yield Case("one-element-other", g.randn(500), _mask(g, 500), g.tensor([0.75]), alpha=3.0)
    # No +-inf: PyTorch's own CPU and CUDA gelu disagree there (NaN vs inf).
    special = [float("nan"), 0.0, -0.0, 30.0, -30.0, 1e-6, 5.0, -5.0, 1e4, -1e4]
    yield Case("special-values", g.tensor(special), g.tensor([True] * 10, dtype=torch.bool), 0.0)
    m = _mask(g, 700)
    yield Case("out-strided", g.randn(700), m, -0.5, out=g.strided(_per_selected(g, m)))
    yield Case("single", g.randn(1), g.tensor([True], dtype=torch.bool), 0.1)


def _half_mask(g: Inputs, n: int):
    """Exactly n // 2 random positions selected: every perf input set (one per seed) then has an
    `other` of the same length, as timing the same case over rotating input sets requires."""
    mask = torch.zeros(n, dtype=torch.bool, device=g.device)
    mask[g.permutation(n)[: n // 2]] = True
    return mask


def perf_cases(g: Inputs):
    for n in (1 << 24, 1 << 26):
        yield Case(f"1d-{n >> 20}M-tensor-other", g.randn(n), _half_mask(g, n), g.randn(n // 2), alpha=0.5)
    m = _half_mask(g, 1 << 26)
    yield Case("1d-64M-scalar-tanh", g.randn(1 << 26), m, 1.0, approximate="tanh")
