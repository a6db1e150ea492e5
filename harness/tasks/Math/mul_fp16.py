"""Elementwise product of float16 tensors (broadcasting) or of a float16 tensor and a number."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "mul_fp16"
SIGNATURE = "mul_fp16(input, other)"
DTYPES = ["float16"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = []
# Edge although the tier rule cannot see it: products near float16's largest value (near-max).
TIERS = {"near-max": "edge"}
DIFFICULTY = None
DESCRIPTION = """
Multiply a float16 tensor `input` elementwise by `other` and return a new float16 tensor, like
torch.mul(input, other). `other` is either a float16 tensor whose shape broadcasts with input's
under the usual rules (align trailing dimensions; a dimension of size 1, or a missing leading
dimension, is repeated; `other` may have more dimensions than `input`, or be 0-d), or a Python
number (int or float). The result has the broadcast shape. Either tensor may be non-contiguous, and
may be empty. Compute each product in float32 and round it once to float16 (a Python number is used
at float32 precision). IEEE rules apply: 0 * inf is NaN, NaN propagates, products beyond the float16
range (65504) become ±inf, and products below the smallest float16 subnormal (about 6e-8)
round to zero. The inputs are never modified.
"""

DT = torch.float16


def cost(case: Case, output) -> Cost:
    # Each input tensor is read once and the result written once.
    ins = tensor_leaves(list(case.args[:2]))
    return Cost(flops=float(output.numel()),
                bytes=float(sum(numel_bytes(t) for t in ins) + numel_bytes(output)))


def reference(input, other):
    return torch.mul(input, other)


def cases(g: Inputs):
    # IEEE edges pairwise: 0 * inf, inf * -inf, NaN, signed zeros; products that overflow float16
    # (|p| > 65504), subnormal and underflowing products.
    a = [0.0, -0.0, 1.0, -2.5, float("inf"), float("-inf"), float("nan"), 3.0, 300.0, -300.0, 1e-3,
         0.5, 7.0, 1e-4, 6e-5]
    b = [float("inf"), 5.0, float("-inf"), float("-inf"), 2.0, -3.0, 1.0, float("nan"), 300.0, 250.0,
         1e-3, -0.0, -0.25, 1e-4, -0.5]
    yield Case("edge-values", g.tensor(a, dtype=DT), g.tensor(b, dtype=DT))
    # products near float16's largest value in a case of their own (the comparison's absolute
    # term scales with the RMS of the reference: 65280 beside 1.75 would hide any error there)
    yield Case("near-max", g.tensor([255.0, 200.0, 127.0], dtype=DT), g.tensor([256.0, 300.0, 500.0], dtype=DT))
    yield Case("large-magnitude", g.randn(1000, dtype=DT, std=200.0), g.randn(1000, dtype=DT, std=100.0))
    yield Case("single", g.randn(1, dtype=DT), g.randn(1, dtype=DT))
    yield Case("empty", g.randn(0, 4, dtype=DT), g.randn(0, 4, dtype=DT))
    yield Case("same-shape-odd", g.randn(1003, dtype=DT), g.randn(1003, dtype=DT))
    yield Case("same-shape-3d", g.uniform(3, 37, 129, low=-2.0, high=2.0, dtype=DT),
               g.heavy_tailed(3, 37, 129, dtype=DT))
    yield Case("same-shape-2d", g.randn(64, 300, dtype=DT), g.uniform(64, 300, low=-3, high=3, dtype=DT))
    # Broadcasting: row and column vectors, both sides expanding, more dims in other, 0-d other.
    yield Case("bcast-row", g.randn(64, 300, dtype=DT), g.randn(300, dtype=DT))
    yield Case("bcast-col", g.randn(64, 300, dtype=DT), g.randn(64, 1, dtype=DT))
    yield Case("bcast-outer", g.randn(45, 1, dtype=DT), g.randn(1, 77, dtype=DT))
    yield Case("bcast-other-more-dims", g.randn(129, dtype=DT), g.randn(3, 7, 129, dtype=DT))
    yield Case("zero-dim-other", g.randn(40, 50, dtype=DT), g.tensor(-1.75, dtype=DT))
    # Python numbers.
    yield Case("scalar-float", g.randn(2049, dtype=DT), 0.1)
    yield Case("scalar-int", g.heavy_tailed(37, 41, dtype=DT), -3)
    # Non-contiguous operands.
    yield Case("strided", g.strided(g.randn(33, 65, dtype=DT)), g.randn(33, 65, dtype=DT))
    yield Case("transposed", g.transposed(g.randn(97, 48, dtype=DT)),
               g.strided(g.randn(97, 48, dtype=DT)))
    yield Case("transposed-bcast", g.transposed(g.randn(40, 70, dtype=DT)), g.randn(40, 1, dtype=DT))


def perf_cases(g: Inputs):
    # Upstream's square shapes; 2-byte elements: 8192x8192 in, in and out move 384 MB.
    yield Case("1024x1024", g.randn(1024, 1024, dtype=DT), g.randn(1024, 1024, dtype=DT))
    yield Case("4096x4096", g.randn(4096, 4096, dtype=DT), g.randn(4096, 4096, dtype=DT))
    yield Case("8192x8192", g.randn(8192, 8192, dtype=DT), g.randn(8192, 8192, dtype=DT))
    yield Case("bcast-row-8192x8192", g.randn(8192, 8192, dtype=DT), g.randn(8192, dtype=DT))
