"""Matrix product of float32 tensors with torch.matmul semantics (dot, mat-vec, batched, broadcast)."""

import torch

from harness.checks import bind_arguments, check_bounded, product_bound
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "matmul"
SIGNATURE = "matmul(tensor1, tensor2)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = []
DIFFICULTY = 4
DESCRIPTION = """
Matrix product of two float32 tensors, like torch.matmul(tensor1, tensor2), in full float32
precision. The result depends on the number of dimensions:
- both 1-D (K,) and (K,): their dot product, a 0-d tensor;
- 2-D (M, K) times 2-D (K, N): the (M, N) matrix product;
- 1-D (K,) times 2-D (K, N): the vector is treated as a (1, K) matrix and the result is (N,);
- 2-D (M, K) times 1-D (K,): the matrix-vector product, (M,);
- at least one of them has more than 2 dimensions: a batched product. The last two dimensions are
  the matrices ((..., M, K) and (..., K, N)); all leading dimensions are batch dimensions and
  broadcast against each other under the usual rules (aligned from the right; a size-1 or missing
  dimension is repeated), so a (2, 1, M, K) tensor times a (3, K, N) tensor gives (2, 3, M, N). A 1-D
  first operand is treated as (1, K) and a 1-D second operand as (K, 1), and that added dimension
  is removed from the result (so (B, M, K) times (K,) gives (B, M) and (K,) times (B, K, N) gives
  (B, N)).
Any size may be 0 (an empty sum is 0). Either tensor may be non-contiguous (transposed, strided,
or with stride-0 broadcast batch dimensions). NaN and infinities propagate as in IEEE arithmetic.
Float32 accuracy is required: accumulate in float32 (or wider) and do not round the float32 inputs
to TF32 (with tl.dot use input_precision="ieee" or "tf32x3"; the default "tf32" fails the check,
because the cases include small K, where its 10-bit-mantissa rounding dominates). Return a new
float32 tensor; the inputs must not be modified.
"""

F32 = torch.float32


def reference(tensor1, tensor2):
    return torch.matmul(tensor1, tensor2)


# -- checking ----------------------------------------------------------------------------------------
# Each output element sums K products in an order that differs between implementations, so the
# result is compared with the float64 product of the same inputs under harness/checks.py's bound:
# 8 * sqrt(K) * u32 * (|A| @ |B|) + u32 * |exact| (u32 = 2^-24). Any float32 summation order (blocked
# tl.dot, split-K, sequential) stays far inside it on these inputs, while TF32 inputs (relative
# error 2^-11 per product, about 8000 u32) exceed it by more than 10x whenever K <= 256, and a
# missing, duplicated or misplaced term changes an element by about one product, far beyond it.
CHECK_NOTE = (
    "Compared with the float64 product of the same inputs, each element allowed 8*sqrt(K)*u32*(|A|@|B|) "
    "+ u32*|exact| (harness/checks.py product_bound), since a kernel may sum the K products in any "
    "order; TF32 rounding of the inputs exceeds that bound on the small-K cases."
)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, b = args["tensor1"], args["tensor2"]
    exact = torch.matmul(a.double(), b.double())
    return check_bounded(output, exact, product_bound(a, b, out_dtype=F32, exact=exact), dtype=F32)


def cost(case: Case, output) -> Cost:
    a, b = case.args[0], case.args[1]
    k = a.shape[-1]
    # one multiply-add per term of every output element; each operand read once (a broadcast
    # operand's batch copies are not re-read from memory), the result written once
    return Cost(flops=2.0 * output.numel() * k,
                bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    # The upstream dimension patterns, with odd sizes (tails in every tile).
    yield Case("dot-1d", r(77), r(77))
    yield Case("matrix-vector", r(45, 67), r(67))
    yield Case("vector-matrix", r(53), r(53, 70))
    yield Case("square-64", r(64, 64), r(64, 64))
    yield Case("odd-37x53x29", r(37, 53), r(53, 29))
    yield Case("multi-tile-130x70x140", r(130, 70), r(70, 140))
    yield Case("batched", r(3, 20, 33), r(3, 33, 17))
    yield Case("batched-times-matrix", r(4, 19, 24), r(24, 31))
    yield Case("matrix-times-batched", r(19, 24), r(2, 24, 13))
    yield Case("batched-times-vector", r(5, 12, 40), r(40))
    yield Case("vector-times-batched", r(40), r(3, 40, 22))
    yield Case("broadcast-batch-dims", r(2, 1, 9, 16), r(3, 16, 11))
    yield Case("4d-batched", r(2, 3, 10, 12), r(2, 3, 12, 14))
    yield Case("6d-broadcast", r(2, 2, 1, 3, 5, 6), r(4, 1, 6, 7))
    # Small K: the rounding of TF32 inputs (2^-11 relative) is far beyond float32 accumulation error.
    yield Case("K1-outer", r(33, 1), r(1, 47))
    yield Case("K16", r(96, 16), r(16, 80))
    yield Case("K5-batched", r(6, 20, 5), r(6, 5, 21))
    # Deep K (the accumulation spans many K tiles) and non-negative data (no cancellation).
    yield Case("deep-K-1000", r(24, 1000), r(1000, 40))
    yield Case("positive-uniform", g.uniform(50, 60), g.uniform(60, 40))
    yield Case("outliers", g.heavy_tailed(40, 64, scale=2.0), r(64, 36))
    yield Case("single-element", r(1, 1), r(1, 1))
    yield Case("dot-single", r(1), r(1))
    # Layouts: transposed, strided (NaN in the gaps), permuted batch, stride-0 batch.
    yield Case("transposed-a", g.transposed(r(40, 50)), r(50, 30))
    yield Case("transposed-both", g.transposed(r(33, 48)), g.transposed(r(48, 27)))
    yield Case("strided", g.strided(r(30, 41)), g.strided(r(41, 25)))
    yield Case("strided-vector", r(26, 35), g.strided(r(35)))
    yield Case("permuted-batch", r(20, 4, 30).permute(1, 0, 2), r(4, 30, 18))
    yield Case("expanded-batch", r(1, 16, 24).expand(3, 16, 24), g.transposed(r(3, 24, 20)))
    # Special values and magnitudes.
    a = r(20, 30)
    a[3, 7] = float("nan")
    a[11, 2] = float("inf")
    yield Case("nan-inf", a, r(30, 25))
    yield Case("large-magnitude", r(30, 40, std=1e15), r(40, 20, std=1e12))
    yield Case("tiny-magnitude", r(30, 40, std=1e-12), r(40, 20, std=1e-15))
    # Empty sizes.
    yield Case("empty-K", r(5, 0), r(0, 7))
    yield Case("empty-M", r(0, 8), r(8, 9))
    yield Case("empty-batch", r(0, 4, 5), r(5, 6))
    yield Case("empty-dot", r(0), r(0))


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("1024^3", r(1024, 1024), r(1024, 1024))
    yield Case("4096^3", r(4096, 4096), r(4096, 4096))
    yield Case("4096x4096x1024-rect", r(4096, 1024), r(1024, 4096))
    # A linear layer: batched activations times one shared weight matrix.
    yield Case("batched-8x1024x4096-times-4096x1024", r(8, 1024, 4096), r(4096, 1024))
    yield Case("bmm-32x512x512", r(32, 512, 512), r(32, 512, 512))
    # Memory-bound matrix-vector products (512 MB and 256 MB of matrix).
    yield Case("matvec-16384x8192", r(16384, 8192), r(8192))
    yield Case("vecmat-8192x8192", r(8192), r(8192, 8192))
