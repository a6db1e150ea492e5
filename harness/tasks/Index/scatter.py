"""Out-of-place scatter: write float32 `src` values into a copy of `input` at positions given by an index."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "scatter"
SIGNATURE = "scatter(input, dim, index, src)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 3
DESCRIPTION = """
Return a copy of `input` into which the values of `src` have been written at the positions given by
`index` along dimension `dim`, like input.scatter(dim, index, src) (the out-of-place form; there is no
reduction). `input` and `src` are float32 tensors and `index` is an int64 tensor, all with the same
number of dimensions, any of them possibly non-contiguous. `dim` is an int; negative values count from
the end. index.size(d) <= src.size(d) for every d and index.size(d) <= input.size(d) for every
d != dim. For every position c of `index` (only its own extent is used: the rest of `src` is ignored),
out[c with its `dim` coordinate replaced by index[c]] = src[c]; e.g. for a 2-D tensor and dim=0,
out[index[i][j]][j] = src[i][j]. Index values lie in [0, input.size(dim)). Positions no index entry
points to keep input's value. If two index entries sent different values to the same position the
result would be unspecified; the tests never do that (along `dim`, the index values of each line are
distinct). Values are copied exactly (NaN and infinities included). The result is a new tensor of
input's shape and dtype; the arguments must not be modified.
"""


def reference(input, dim, index, src):
    return input.scatter(dim, index, src)


def _distinct_index(g: Inputs, shape, dim: int, size: int) -> torch.Tensor:
    """An int64 index of `shape` whose values along `dim` are distinct in [0, size), so every
    output position receives at most one value and the result is unique."""
    full = list(shape)
    full[dim] = size
    keys = g.uniform(*full, dtype=torch.float64)
    return keys.argsort(dim=dim).narrow(dim, 0, shape[dim]).contiguous()


def cases(g: Inputs):
    yield Case("dim0", g.randn(64, 33), 0, _distinct_index(g, (32, 33), 0, 64), g.randn(32, 33))
    # src larger than index: only src's leading block is used.
    yield Case("dim1-src-larger", g.randn(20, 50), 1, _distinct_index(g, (20, 30), 1, 50), g.randn(25, 40))
    yield Case("dim0-index-narrower", g.uniform(30, 40, low=-2, high=2), 0, _distinct_index(g, (10, 17), 0, 30),
               g.randn(12, 20))
    yield Case("3d-last-dim-negative", g.randn(4, 6, 37), -1, _distinct_index(g, (3, 5, 20), 2, 37), g.randn(4, 5, 25))
    yield Case("3d-middle-full-permutation", g.randn(5, 16, 7), 1, _distinct_index(g, (5, 16, 7), 1, 16),
               g.heavy_tailed(5, 16, 7, scale=3.0))
    yield Case("4d-dim2", g.randn(3, 4, 9, 6), 2, _distinct_index(g, (2, 4, 5, 6), 2, 9), g.randn(3, 4, 5, 6))
    yield Case("4d-dim0-negative", g.randn(7, 3, 4, 5), -4, _distinct_index(g, (4, 3, 4, 5), 0, 7), g.randn(4, 3, 4, 5))
    yield Case("1d", g.randn(1000), 0, _distinct_index(g, (300,), 0, 1000), g.randn(500))
    yield Case("long-rows", g.randn(4, 3000), 1, _distinct_index(g, (4, 2500), 1, 3000), g.randn(4, 2500))
    special = [float("nan"), float("inf"), float("-inf"), -0.0, 2.5, 1e-30]
    yield Case("special-values", g.tensor([[float("nan")] * 6, [1.0] * 6, [-1.0] * 6]), 0,
               g.tensor([[2, 0, 1, 2, 0, 1]], dtype=torch.int64), g.tensor([special]))
    # Values near the float32 limit in a case of their own: beside ordinary ones they would widen the
    # tolerance's absolute part (scaled by the output's RMS) past the ordinary values.
    huge = [3e38, -1e38, 2.5e38, -3.3e38, 1e38, -2e38]
    yield Case("huge-values", g.tensor([[1e38] * 6, [-2e38] * 6, [3e38] * 6]), 0,
               g.tensor([[2, 0, 1, 2, 0, 1]], dtype=torch.int64), g.tensor([huge]))
    yield Case("strided-input", g.strided(g.randn(30, 20)), 0, _distinct_index(g, (12, 20), 0, 30), g.randn(12, 20))
    yield Case("transposed-src", g.randn(25, 40), 1, _distinct_index(g, (25, 16), 1, 40), g.transposed(g.randn(25, 16)))
    yield Case("strided-index", g.randn(16, 24), 1, g.strided(_distinct_index(g, (16, 10), 1, 24)), g.randn(16, 10))
    yield Case("size-1", g.randn(1, 5), 0, g.tensor([[0, 0, 0, 0, 0]], dtype=torch.int64), g.randn(1, 5))


def perf_cases(g: Inputs):
    def case(label, rows, cols, k):
        # Distinct targets per column (a shifted random permutation), cheap at this size, so the
        # result stays unique here too.
        perm = g.permutation(rows)
        i = torch.arange(k, device=perm.device)[:, None]
        j = torch.arange(cols, device=perm.device)[None, :]
        idx = perm[(i + 7 * j) % rows]
        return Case(label, g.randn(rows, cols), 0, idx, g.randn(k, cols))
    yield case("8192x128", 8192, 128, 4096)
    yield case("262144x256", 262144, 256, 131072)
    yield case("1048576x128", 1 << 20, 128, 1 << 19)


def cost(case: Case, output) -> Cost:
    index, src = case.args[2], case.args[3]
    # Write the output once; read the index, the src values it selects (at most all of src), and
    # the input where nothing is scattered (at least the positions the index cannot cover).
    size = output.element_size()
    moved = (numel_bytes(output) + numel_bytes(index) + min(src.numel(), index.numel()) * size
             + max(0, output.numel() - index.numel()) * size)
    return Cost(flops=0.0, bytes=float(moved))
