"""Batched matmul, dropout and GELU fused (float16 / float32), judged by the random mask's structure."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, product_bound, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_bmm_dropout_gelu"
SIGNATURE = ("fused_bmm_dropout_gelu(input1, input2, p=0.5, training=True, inplace=False, approximate='none', "
             "*, out=None)")
DTYPES = ["float16", "float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float16"]
CORE_KWARGS = ["approximate", "inplace", "p", "training"]
DIFFICULTY = 3
DESCRIPTION = """
Compute out = F.gelu(F.dropout(torch.bmm(input1, input2), p=p, training=training, inplace=inplace),
approximate=approximate) with fused Triton code. `input1` is a (B, N, M) and `input2` a (B, M, P)
tensor, both float16 (or both float32); the result is a (B, N, P) tensor of the same dtype. Note the
order: dropout acts on the product z, GELU on the dropout result, so a dropped element is
GELU(0) = 0 and a kept one is GELU(z / (1-p)). Dropout in training mode (training=True) zeroes each
element independently with probability `p` (0 <= p <= 1) and multiplies every kept element by
1/(1-p); p = 0 keeps everything, p = 1 zeroes everything; with training=False the result is exactly
GELU(z). `approximate` is 'none' (exact GELU, x/2 * (1 + erf(x/sqrt(2)))) or 'tanh' (x/2 * (1 +
tanh(sqrt(2/pi) * (x + 0.044715 x^3)))). Accumulate the product in float32 (float32 inputs: no TF32
rounding, use input_precision="ieee" with tl.dot) and round once to the output dtype at the end.
`inplace` only says whether the dropout may overwrite the internal product: it changes nothing
visible, and the inputs are never modified. If `out` is None return a new contiguous tensor;
otherwise write the result into `out` (a (B, N, P) tensor of the result's dtype, possibly a strided
view) and return `out` itself. The random mask does not have to reproduce PyTorch's random numbers,
but it must be fresh on every call (draw the seed in Python, e.g. from os.urandom or the random
module: PyTorch's random functions count as PyTorch compute in the wrapper) and independent across
positions. Inputs may be non-contiguous; B, N or P may be 0. The check is statistical: every
element must be 0 or its kept value to the dtype's accuracy, and the number of dropped elements and
the mask's independence must be plausible for independent draws.
"""

CHECK_NOTE = (
    "Each element must be exactly 0 (GELU of a dropped element) or GELU(z/(1-p)) with z the float64 "
    "product, within 1.13 (the largest |GELU'|) times (1/(1-p) times harness/checks.py's product "
    "bound for z rounded to the output dtype, plus 2 output-dtype roundings of z/(1-p) for PyTorch's "
    "low-precision intermediates) plus 2 roundings of the result and the dtype's subnormal spacing; "
    "the mask (known wherever that kept value is not within its bound of 0) must drop Binomial(n, p) "
    "elements, agree across power-of-two and row distances as independent draws do, and differ "
    "between calls (Bernstein bounds, false-alarm rate 1e-9 per test). training=False, p = 0 and "
    "p = 1 are the same check with every element kept or dropped; out= is exercised only there, "
    "since the harness compares the out buffer with the reference's, whose mask is random."
)

GELU_SLOPE = 1.13  # max |d/dx GELU(x)| (about 1.129, at x = sqrt(2)); the tanh form's is the same to 1e-3
_HISTORY_ATTR = "dropout_history"


def reference(input1, input2, p=0.5, training=True, inplace=False, approximate='none', *, out=None):
    z = torch.bmm(input1, input2)
    d = F.dropout(z, p=p, training=training, inplace=inplace)
    y = F.gelu(d, approximate=approximate)
    if out is not None:
        out.copy_(y)
        return out
    return y


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, b = args["input1"], args["input2"]
    dtype = a.dtype
    u = unit_roundoff(dtype)
    p = float(args["p"]) if args["training"] else 0.0
    z = a.double() @ b.double()
    e = product_bound(a, b, out_dtype=dtype, exact=z)
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    kept = F.gelu(scale * z, approximate=args["approximate"])
    spacing = torch.finfo(dtype).tiny * torch.finfo(dtype).eps  # subnormal spacing
    kept_bound = GELU_SLOPE * (scale * e + 2 * u * (scale * z).abs()) + 2 * u * kept.abs() + spacing
    return check_dropout(output, kept, 0.0, p, kept_bound=kept_bound, dtype=dtype,
                         history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["input1"], args["input2"]
    bsz, n, m = a.shape
    p_ = b.shape[2]
    # the product's multiply-adds, then dropout and GELU (about 10 flops) per output element
    moved = numel_bytes(a) + numel_bytes(b) + numel_bytes(output)
    return Cost(flops=2.0 * bsz * n * m * p_ + 10.0 * bsz * n * p_, bytes=float(moved))


def cases(g: Inputs):
    h, f = torch.float16, torch.float32
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: float16, the published test's keywords (p, training, inplace, approximate)
    yield case("p0.5", r(4, 64, 32, dtype=h), r(4, 32, 48, dtype=h))
    yield case("p0.2-tanh", r(3, 50, 40, dtype=h), r(3, 40, 70, dtype=h), p=0.2, approximate="tanh")
    yield case("p0.8-inplace", r(2, 96, 24, dtype=h), r(2, 24, 64, dtype=h), p=0.8, inplace=True)
    yield case("repeat-a", r(2, 64, 16, dtype=h), r(2, 16, 64, dtype=h), p=0.3)
    yield case("repeat-b", r(2, 64, 16, dtype=h), r(2, 16, 64, dtype=h), p=0.3)
    yield case("eval", r(2, 33, 45, dtype=h), r(2, 45, 29, dtype=h), training=False)
    yield case("eval-tanh", r(2, 33, 45, dtype=h), r(2, 45, 29, dtype=h), training=False, approximate="tanh")
    yield case("p0", r(3, 20, 17, dtype=h), r(3, 17, 41, dtype=h), p=0.0)
    yield case("p1", r(3, 20, 17, dtype=h), r(3, 17, 41, dtype=h), p=1.0)
    yield case("deep-m", r(2, 40, 300, dtype=h), r(2, 300, 36, std=0.1, dtype=h), p=0.4)
    # edge: float32 (TF32 rounding fails), layouts, out=, tiny and empty sizes
    yield case("f32-p0.5", r(2, 64, 16), r(2, 16, 80), p=0.5)
    yield case("f32-eval", r(2, 30, 20), r(2, 20, 40), training=False, approximate="tanh")
    yield case("transposed", g.transposed(r(2, 60, 40, dtype=h)), g.transposed(r(2, 40, 50, dtype=h)), p=0.25)
    yield case("strided", g.strided(r(3, 30, 20, dtype=h)), r(3, 20, 44, dtype=h), p=0.6)
    yield case("out-eval", r(2, 25, 16, dtype=h), r(2, 16, 30, dtype=h), training=False, out=r(2, 25, 30, dtype=h))
    yield case("out-p1-strided", r(2, 25, 16, dtype=h), r(2, 16, 30, dtype=h), p=1.0,
               out=g.strided(r(2, 25, 30, dtype=h)))
    yield case("out-p0", r(2, 25, 16, dtype=h), r(2, 16, 30, dtype=h), p=0.0, out=r(2, 25, 30, dtype=h))
    yield case("m1", r(2, 70, 1, dtype=h), r(2, 1, 90, dtype=h), p=0.5)
    yield case("empty-batch", r(0, 8, 16, dtype=h), r(0, 16, 8, dtype=h))
    yield case("empty-m", r(2, 8, 0, dtype=h), r(2, 0, 8, dtype=h), training=False)


def perf_cases(g: Inputs):
    h = torch.float16
    r = g.randn
    yield Case("32x512^3", r(32, 512, 512, dtype=h), r(32, 512, 512, dtype=h))
    yield Case("32x1024^3", r(32, 1024, 1024, dtype=h), r(32, 1024, 1024, dtype=h))
    yield Case("32x2048^3-tanh", r(32, 2048, 2048, dtype=h), r(32, 2048, 2048, dtype=h), approximate="tanh")
    yield Case("8x4096^3-p0.1", r(8, 4096, 4096, dtype=h), r(8, 4096, 4096, dtype=h), p=0.1)
