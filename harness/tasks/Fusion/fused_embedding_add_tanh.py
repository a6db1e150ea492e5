"""Embedding lookup (with optional max-norm renormalization of the looked-up rows), plus a tensor,
through tanh: tanh(embedding(indices, weight) + other)."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_embedding_add_tanh"
SIGNATURE = ("fused_embedding_add_tanh(input_indices, weight, other, *, padding_idx=None, max_norm=None, "
             "norm_type=2.0, scale_grad_by_freq=False, sparse=False, out=None)")
DTYPES = ["float32", "int64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32", "int64"]
CORE_KWARGS = ["max_norm", "norm_type", "padding_idx"]
# An `other` that broadcasts (one row of positions, a single value), a negative padding_idx and
# saturating magnitudes are beyond the upstream test.
TIERS = {"other-positional-broadcast": "edge", "other-per-dim-broadcast": "edge", "negative-padding-idx": "edge",
         "saturation": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
Compute tanh(embedding(input_indices, weight) + other), like
torch.tanh(torch.nn.functional.embedding(input_indices, weight, padding_idx, max_norm, norm_type,
scale_grad_by_freq, sparse) + other). `input_indices` is an int64 tensor of any shape (*) (possibly
0-d, empty or non-contiguous) with entries in [0, V); `weight` is a float32 (V, D) matrix (possibly
non-contiguous); the embeddings E have shape (*, D), E[..., :] = weight[index, :]. `other` is a
float32 tensor broadcastable to (*, D) without enlarging it (the same shape, one row per position
broadcast over leading dims, a 0-d tensor, ...). padding_idx (None or an int in [-V, V)),
scale_grad_by_freq and sparse only concern gradients and do not change the values. max_norm: if
given, every row of `weight` referenced by input_indices whose norm_type-norm
(sum |w_j|^p)^(1/p) exceeds max_norm is first rescaled IN PLACE in `weight` by
max_norm / (norm + 1e-7), as torch.nn.functional.embedding does; a row referenced several times is
rescaled once; unreferenced rows are untouched. The lookup then uses the rescaled rows. norm_type p is
a positive float (default 2.0). The result is float32 of shape (*, D); no intermediate of the
embeddings. If `out` (a float32 tensor of that shape) is given, write the result into it and return
`out`; otherwise return a new tensor. Apart from that renormalization the inputs must not be
modified.
"""


def reference(input_indices, weight, other, *, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False, sparse=False, out=None):
    if max_norm is not None:
        _renorm_referenced_rows(input_indices, weight, max_norm, norm_type)
    emb = F.embedding(input_indices, weight, padding_idx=padding_idx, scale_grad_by_freq=scale_grad_by_freq,
                      sparse=sparse)
    result = torch.tanh(emb + other)
    if out is not None:
        out.copy_(result)
        return out
    return result


def _renorm_referenced_rows(indices, weight, max_norm, norm_type):
    """F.embedding's max_norm rescaling, done here as the description states it: PyTorch's CUDA
    kernel sums w**p without the absolute value (an odd p gives a different norm than on the CPU)
    and fails on an empty index set."""
    rows = indices.reshape(-1).unique()
    if rows.numel() == 0:
        return
    with torch.no_grad():
        norms = torch.linalg.vector_norm(weight[rows], ord=norm_type, dim=1)
        scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight[rows] = weight[rows] * scale[:, None]


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    idx, weight, other = args["input_indices"], args["weight"], args["other"]
    # The looked-up rows (each at most once), the indices, other and the result. (With max_norm the
    # rows that exceed it are also written back; how many depends on the data, so that is not counted:
    # a lower bound.)
    rows = min(idx.numel() * weight.shape[1], weight.numel()) * weight.element_size()
    return Cost(flops=float(3 * output.numel()),
                bytes=float(rows + numel_bytes(idx) + numel_bytes(other) + numel_bytes(output)))


def cases(g: Inputs):
    yield Case("2d-indices", g.randint(0, 10, 2, 4), g.randn(10, 3), g.randn(2, 4, 3))
    yield Case("batch-seq", g.randint(0, 1000, 8, 16), g.randn(1000, 64), g.randn(8, 16, 64))
    yield Case("1d-indices-odd-d", g.randint(0, 50, 300), g.randn(50, 33), g.randn(300, 33))
    yield Case("padding-idx", g.randint(0, 20, 6, 9), g.randn(20, 16), g.randn(6, 9, 16), padding_idx=0)
    yield Case("max-norm", g.randint(0, 30, 5, 12), g.randn(30, 16), g.randn(5, 12, 16), max_norm=1.0)
    # Few rows, many lookups: every row is referenced many times and must be rescaled once.
    yield Case("max-norm-repeated-rows", g.randint(0, 6, 40, 25), g.randn(6, 24, std=2.0), g.randn(40, 25, 24),
               max_norm=2.5)
    yield Case("max-norm-p1", g.randint(0, 40, 7, 11), g.randn(40, 20), g.randn(7, 11, 20), max_norm=5.0,
               norm_type=1.0)
    yield Case("max-norm-p3-padding", g.randint(0, 40, 7, 11), g.randn(40, 20), g.randn(7, 11, 20), padding_idx=3,
               max_norm=1.5, norm_type=3.0)
    yield Case("norm-type-without-max-norm", g.randint(0, 25, 9, 10), g.randn(25, 12), g.randn(9, 10, 12),
               norm_type=1.0)
    yield Case("3d-indices", g.randint(0, 64, 3, 4, 5), g.randn(64, 40), g.randn(3, 4, 5, 40), max_norm=3.0)
    yield Case("large-d", g.randint(0, 100, 4, 6), g.randn(100, 1500), g.randn(4, 6, 1500), max_norm=20.0)
    yield Case("grad-only-flags", g.randint(0, 30, 6, 7), g.randn(30, 8), g.randn(6, 7, 8),
               scale_grad_by_freq=True, sparse=True)
    # Edge: broadcast other, layouts, negative padding_idx, saturation and NaN, 0-d and empty, out=.
    yield Case("other-positional-broadcast", g.randint(0, 200, 6, 32), g.randn(200, 48), g.randn(32, 48),
               max_norm=4.0)
    yield Case("other-per-dim-broadcast", g.randint(0, 200, 6, 32), g.randn(200, 48), g.randn(48))
    yield Case("other-0d", g.randint(0, 20, 5, 5), g.randn(20, 8), g.tensor(0.25))
    yield Case("transposed-weight-max-norm", g.randint(0, 40, 6, 10), g.transposed(g.randn(40, 24)),
               g.randn(6, 10, 24), max_norm=1.0)
    yield Case("strided-indices-and-other", g.strided(g.randint(0, 30, 12, 10)), g.randn(30, 16),
               g.strided(g.randn(12, 10, 16)))
    yield Case("negative-padding-idx", g.randint(0, 20, 6, 9), g.randn(20, 16), g.randn(6, 9, 16), padding_idx=-1)
    yield Case("saturation", g.randint(0, 20, 6, 9), g.randn(20, 16, std=30.0), g.randn(6, 9, 16, std=1e3))
    w = g.randn(20, 16)
    w[4, 3] = float("nan")
    yield Case("nan-row", g.randint(0, 20, 6, 9), w, g.randn(6, 9, 16))
    yield Case("0d-index", g.tensor(3, dtype=torch.int64), g.randn(10, 7), g.randn(7), max_norm=1.0)
    yield Case("empty-indices", g.randint(0, 10, 0, 4), g.randn(10, 5), g.randn(0, 4, 5), max_norm=1.0)
    yield Case("out", g.randint(0, 50, 5, 7), g.randn(50, 20), g.randn(5, 7, 20), max_norm=2.0,
               out=g.randn(5, 7, 20))
    yield Case("out-strided", g.randint(0, 50, 5, 7), g.randn(50, 20), g.randn(5, 7, 20),
               out=g.strided(g.randn(5, 7, 20)))


def perf_cases(g: Inputs):
    yield Case("256x512-d512", g.randint(0, 1024, 256, 512), g.randn(1024, 512), g.randn(256, 512, 512))
    yield Case("64x1024-d256-max-norm", g.randint(0, 50000, 64, 1024), g.randn(50000, 256),
               g.randn(64, 1024, 256), max_norm=1.0)
    yield Case("128x512-d1024-positional", g.randint(0, 32000, 128, 512), g.randn(32000, 1024),
               g.randn(512, 1024), padding_idx=0)
