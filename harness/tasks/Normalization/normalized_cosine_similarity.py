"""Cosine similarity of two float32 tensors after L_p-normalizing each along the same dimension."""

import math

import torch
import torch.nn.functional as F

from harness.checks import EPS32, bind_arguments, check_bounded
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "normalized_cosine_similarity"
SIGNATURE = "normalized_cosine_similarity(x1, x2, dim=1, eps_similarity=1e-08, p_norm=2, eps_norm=1e-12)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "eps_norm", "p_norm"]
# Broadcasting and all-zero vectors are beyond what the upstream test exercises.
TIERS = {"broadcast-x2": "edge", "zero-vectors": "edge"}
DIFFICULTY = 3
DESCRIPTION = """
`x1` and `x2` are float32 tensors of the same shape, or shapes that broadcast against each other in
every dimension except `dim` (both have the same size along `dim`); either may be non-contiguous.
`dim` is an int (negative values count from the end; default 1). Let L be the size along `dim`;
every operation below acts on the length-L vectors along `dim`, separately for each position of the
other dimensions. Step 1 normalizes each input: a = x1 / max(||x1||_p, eps_norm), b likewise from x2,
where ||v||_p = (sum |v_k|^p)^(1/p) for a positive p = p_norm (default 2) and max |v_k| for
p_norm = float('inf'). Step 2 takes the cosine similarity of a and b with eps = eps_similarity:
sum_k (a_k / max(||a||_2, eps_similarity)) * (b_k / max(||b||_2, eps_similarity)) (each factor
clamped separately, as torch.nn.functional.cosine_similarity does). Note that the clamps make eps_norm,
eps_similarity and p_norm matter for short vectors: e.g. with eps_similarity = 0.5 the result is
not the plain cosine. Return a new float32 tensor of the broadcast shape with `dim` removed. All-zero
vectors give 0; an empty `dim` (L = 0) gives 0; NaN in a vector gives NaN at its position. Values
are small enough that squares and their sums fit in float32. The inputs must not be modified.
"""


def reference(x1, x2, dim=1, eps_similarity=1e-08, p_norm=2, eps_norm=1e-12):
    x1_normalized = F.normalize(x1, p=p_norm, dim=dim, eps=eps_norm)
    x2_normalized = F.normalize(x2, p=p_norm, dim=dim, eps=eps_norm)
    return F.cosine_similarity(x1_normalized, x2_normalized, dim=dim, eps=eps_similarity)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x1, x2 = args["x1"], args["x2"]
    n = torch.broadcast_shapes(x1.shape, x2.shape).numel()
    # Per element pair, for p = 2: the dot product and both squared norms (three multiply-adds).
    return Cost(flops=6.0 * n, bytes=float(numel_bytes(x1) + numel_bytes(x2) + numel_bytes(output)))


# -- checking ---------------------------------------------------------------------------------------
# Each result is a sum of L products that may cancel (nearly orthogonal vectors give results near 0,
# far below 1e-5 of their RMS), so it is compared with the float64 evaluation of the same formula,
# elementwise within
#   _RTOL * |exact|                     the default relative bound: the norms and the divisions
#                                       err by a few ulp relative to the result;
#   _C * sqrt(L) * eps32 * S            rounding of the sum in any order, where S is the same sum
#                                       over |products| (S <= 1 without clamping).
# _C = 8 passes every reasonable summation order (a sequential fp32 sum stays near 0.3 sqrt(L) eps S);
# a wrong clamp, a wrong p or a missing normalization changes results by far more, and float16
# accumulation (eps 2^-10) errs by ~100x the bound.
_RTOL = 1e-4
_C = 8.0


def _exact_and_magnitude(args):
    x1, x2, dim = args["x1"].double(), args["x2"].double(), args["dim"]
    a = F.normalize(x1, p=args["p_norm"], dim=dim, eps=args["eps_norm"])
    b = F.normalize(x2, p=args["p_norm"], dim=dim, eps=args["eps_norm"])
    a, b = torch.broadcast_tensors(a, b)
    eps = args["eps_similarity"]
    terms = (a / a.norm(dim=dim, keepdim=True).clamp_min(eps)) * (b / b.norm(dim=dim, keepdim=True).clamp_min(eps))
    return terms.sum(dim), terms.abs().sum(dim), a.shape[dim]


CHECK_NOTE = (
    "compared with the float64 evaluation of the same formula, allowing 1e-4 relative plus 8 sqrt(L) "
    "eps32 times the sum of |products| per result, since nearly orthogonal vectors cancel to results "
    "far below the default absolute tolerance."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    exact, magnitude, length = _exact_and_magnitude(args)
    bound = _RTOL * exact.abs() + _C * math.sqrt(max(length, 1)) * EPS32 * magnitude
    return check_bounded(output, exact, bound.nan_to_num(nan=0.0), dtype=torch.float32)


def _orthogonalized(g: Inputs, rows: int, length: int):
    """x2 rows made orthogonal to x1's in float64, then rounded: results ~1e-8, not 0."""
    x1 = g.randn(rows, length, dtype=torch.float64)
    x2 = g.randn(rows, length, dtype=torch.float64)
    x2 = x2 - (x2 * x1).sum(1, keepdim=True) / (x1 * x1).sum(1, keepdim=True) * x1
    return x1.float(), x2.float()


def cases(g: Inputs):
    inf = float("inf")
    # The upstream test's small inputs.
    yield Case("example", g.tensor([[1.0, 2.0], [3.0, 4.0]]), g.tensor([[2.0, 3.0], [4.0, 5.0]]))
    yield Case("example-dim0", g.tensor([[1.0, 2.0, 3.0]]), g.tensor([[2.0, 3.0, 4.0]]), dim=0)
    yield Case("example-p1", g.tensor([[1.0, 0.0], [0.0, 1.0]]), g.tensor([[0.0, 1.0], [1.0, 0.0]]), p_norm=1)
    yield Case("example-tiny", g.tensor([[1e-10, 0.0], [0.0, 1e-10]]), g.tensor([[0.0, 1e-10], [1e-10, 0.0]]),
               eps_norm=1e-10)
    # Random rows (upstream style) and other layouts of the reduced dimension.
    yield Case("rows", g.randn(64, 128), g.randn(64, 128), dim=1)
    yield Case("rows-p1", g.randn(48, 256), g.randn(48, 256), dim=1, p_norm=1)
    yield Case("middle-dim", g.randn(33, 65, 17), g.randn(33, 65, 17), dim=1)
    yield Case("last-dim-p3", g.randn(9, 20, 31), g.uniform(9, 20, 31, low=-1.0, high=1.0), dim=2, p_norm=3)
    yield Case("dim0", g.randn(300, 7), g.randn(300, 7), dim=0)
    yield Case("outliers", g.heavy_tailed(48, 200, scale=2.0), g.heavy_tailed(48, 200), dim=1)
    yield Case("long-rows", g.randn(4, 3000), g.randn(4, 3000), dim=1, p_norm=inf)
    x1 = g.randn(40, 64)
    yield Case("nearly-parallel", x1, x1 + 1e-3 * g.randn(40, 64))
    yield Case("nearly-orthogonal", *_orthogonalized(g, 40, 96))
    # eps_norm = 1e6 clamps ||x|| ~ 2.4e-4, and then ||a|| ~ 2.4e-10 falls below eps_similarity.
    yield Case("eps-norm-clamps", g.randn(20, 64, std=3e-5), g.randn(20, 64, std=3e-5), eps_norm=1e6)
    # eps_similarity large enough to clamp ||a||_2 (so p_norm matters), with margin from the edge:
    # p=1: ||x||_2/||x||_1 ~ 0.16 < 0.3; p=3: ~1.7 < 3; inf: ~3.3 < 5; eps_norm=1 with ||x|| ~ 0.08.
    yield Case("eps-sim-p1", g.randn(24, 64), g.randn(24, 64), p_norm=1, eps_similarity=0.3)
    yield Case("eps-sim-p3", g.randn(24, 64), g.randn(24, 64), p_norm=3.0, eps_similarity=3.0)
    yield Case("eps-sim-pinf", g.randn(24, 64), g.randn(24, 64), p_norm=inf, eps_similarity=5.0)
    yield Case("both-eps", g.randn(24, 64, std=0.01), g.randn(24, 64, std=0.01), eps_norm=1.0, eps_similarity=0.5)
    x1 = g.randn(16, 50)
    x1[3] = 0.0
    x1[10] = 0.0
    yield Case("zero-vectors", x1, g.randn(16, 50))
    # Broadcasting and layouts.
    yield Case("broadcast-x2", g.randn(30, 40), g.randn(1, 40), dim=1)
    yield Case("broadcast-both", g.randn(4, 1, 16), g.randn(1, 5, 16), dim=-1)
    yield Case("strided", g.strided(g.randn(25, 61)), g.randn(25, 61), dim=1)
    yield Case("transposed", g.transposed(g.randn(70, 45)), g.transposed(g.randn(70, 45)), dim=0)
    yield Case("negative-dim", g.randn(6, 30, 11), g.randn(6, 30, 11), dim=-2)
    x1 = g.randn(10, 32)
    x1[4, 17] = float("nan")
    yield Case("nan", x1, g.randn(10, 32))
    yield Case("large-magnitude", g.randn(20, 32, std=1e12), g.randn(20, 32, std=1e12))
    yield Case("tiny-values", g.randn(20, 32, std=1e-9), g.randn(20, 32, std=1e-9))
    yield Case("empty-rows", g.randn(0, 8), g.randn(0, 8))
    yield Case("empty-dim", g.randn(5, 0), g.randn(5, 0))


def perf_cases(g: Inputs):
    # Upstream's (N, 1024) rows up to N = 32768: two 134 MB inputs.
    yield Case("4096x1024", g.randn(4096, 1024), g.randn(4096, 1024))
    yield Case("32768x1024", g.randn(32768, 1024), g.randn(32768, 1024))
    yield Case("32768x1024-p1", g.randn(32768, 1024), g.randn(32768, 1024), p_norm=1)
    yield Case("4096x16384-dim0", g.randn(4096, 16384), g.randn(4096, 16384), dim=0)
