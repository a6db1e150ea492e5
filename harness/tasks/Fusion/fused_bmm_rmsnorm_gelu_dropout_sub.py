"""Batched matmul, RMS norm, GELU, dropout, then minus `other` (float32), judged by the mask's structure."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, product_bound, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_bmm_rmsnorm_gelu_dropout_sub"
SIGNATURE = ("fused_bmm_rmsnorm_gelu_dropout_sub(input1, input2, other, normalized_shape, dropout_p=0.5, "
             "training=True, approximate='none', eps=1e-05, *, out=None)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["approximate", "dropout_p", "normalized_shape", "training"]
DIFFICULTY = 4
DESCRIPTION = """
Compute, with fused Triton code in float32: z = torch.bmm(input1, input2), then zn = F.rms_norm(z,
normalized_shape, eps=eps) (no weight), g = F.gelu(zn, approximate=approximate), d = F.dropout(g,
p=dropout_p, training=training), and out = d - other. `input1` is a float32 (B, N, M) tensor and
`input2` a float32 (B, M, P) tensor; the result is (B, N, P). `other` is a float32 tensor
broadcastable to (B, N, P) (a full tensor, a (P,) row, a (B, 1, P) slab, a 0-d scalar, ...).
`normalized_shape` is the last dim's size P, given as an int, a one-element list/tuple or a
torch.Size: each row of P values is divided by sqrt(mean(z^2 over the row) + eps) (`eps` a Python
float, default 1e-5). `approximate` is 'none' (exact GELU, x/2 * (1 + erf(x/sqrt(2)))) or 'tanh'
(x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))). Dropout in training mode (training=True) zeroes
each element independently with probability `dropout_p` (0 <= dropout_p <= 1, default 0.5) and
multiplies every kept element by 1/(1-dropout_p); 0 keeps everything, 1 zeroes everything; with
training=False, d is exactly g. The subtraction comes after the dropout: a dropped element of the
result is exactly -other. Float32 accuracy is required: accumulate the product in float32 without
TF32 rounding (tl.dot with input_precision="ieee"). If `out` is None return a new contiguous float32
tensor; otherwise write the result into `out` (a float32 (B, N, P) tensor, possibly a strided view)
and return `out` itself. The inputs are never modified and may be non-contiguous; B or N may be 0.
The random mask does not have to reproduce PyTorch's random numbers, but it must be fresh on every
call (draw the seed in Python, e.g. from os.urandom or the random module: PyTorch's random functions
count as PyTorch compute in the wrapper) and independent across positions. The check is statistical:
every element must be exactly -other (dropped) or its kept value g/(1-dropout_p) - other to float32
accuracy, and the number of dropped elements and the mask's independence must be plausible for
independent draws.
"""

CHECK_NOTE = (
    "Each element must be exactly -other (dropped) or GELU(zn)/(1-p) - other, zn the float64 "
    "RMS-normalised float64 product, within 1/(1-p) * (1.13 (the largest |GELU'|) * err(zn) + "
    "4 u32 |GELU(zn)| + tiny) + u32 |result| (the subtraction's rounding), where err(zn) "
    "= e/r + |zn| (rms(e)/r + (8 sqrt(P) + 4) u32), e being harness/checks.py's product bound for z and "
    "r = sqrt(mean(z^2) + eps) (an error e in z moves the row's RMS by at most rms(e)); the mask (known "
    "wherever the two values are farther apart than that bound) must drop Binomial(n, p) elements, agree "
    "across power-of-two and row distances as independent draws do, and differ between calls "
    "(Bernstein bounds, false-alarm rate 1e-9 per test). training=False, p = 0 and p = 1 are the same "
    "check with every element kept or dropped; out= is exercised only there, since the harness "
    "compares the out buffer with the reference's, whose mask is random."
)

F32 = torch.float32
U32 = unit_roundoff(F32)
GELU_SLOPE = 1.13  # max |d/dx GELU(x)|
_HISTORY_ATTR = "dropout_history"


def reference(input1, input2, other, normalized_shape, dropout_p=0.5, training=True, approximate='none', eps=1e-05,
              *, out=None):
    z = torch.bmm(input1, input2)
    # an int names the last dim's size (this PyTorch's F.rms_norm takes only sequences)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    zn = F.rms_norm(z, shape, eps=eps)
    g = F.gelu(zn, approximate=approximate)
    d = F.dropout(g, p=dropout_p, training=training)
    y = torch.sub(d, other)
    if out is not None:
        out.copy_(y)
        return out
    return y


def normalised_exact(a, b, eps):
    """The float64 RMS-normalised product and its allowed float32 error (see CHECK_NOTE)."""
    z = a.double() @ b.double()
    e = product_bound(a, b, out_dtype=F32, exact=z)
    size = z.shape[-1]
    r = (z.square().mean(dim=-1, keepdim=True) + eps).sqrt()
    zn = z / r
    e_rms = e.square().mean(dim=-1, keepdim=True).sqrt()
    err = e / r + zn.abs() * (e_rms / r + (8 * math.sqrt(max(size, 1)) + 4) * U32)
    return zn, err


def check(case, output, expected):
    args = bind_arguments(reference, case)
    p = float(args["dropout_p"]) if args["training"] else 0.0
    zn, err = normalised_exact(args["input1"], args["input2"], float(args["eps"]))
    g = F.gelu(zn, approximate=args["approximate"])
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    minus_other = -args["other"].double().expand(g.shape)
    kept = scale * g + minus_other
    kept_bound = scale * (GELU_SLOPE * err + 4 * U32 * g.abs()) + U32 * kept.abs() + torch.finfo(F32).tiny
    return check_dropout(output, kept, minus_other, p, kept_bound=kept_bound, dtype=F32,
                         history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b, o = args["input1"], args["input2"], args["other"]
    bsz, n, m = a.shape
    p_ = b.shape[2]
    # the product's multiply-adds, then square-sum, scale, GELU, dropout and subtraction (about 15
    # flops) per element
    moved = numel_bytes(a) + numel_bytes(b) + numel_bytes(o) + numel_bytes(output)
    return Cost(flops=2.0 * bsz * n * m * p_ + 15.0 * bsz * n * p_, bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: the published test's keywords (normalized_shape, dropout_p, training, approximate)
    yield case("default-p0.5", r(4, 64, 32), r(4, 32, 48), r(4, 64, 48), 48)
    yield case("p0.1-tanh", r(3, 50, 40), r(3, 40, 70), r(3, 50, 70), 70, dropout_p=0.1, approximate="tanh")
    yield case("p0.3-list-shape", r(2, 96, 24), r(2, 24, 64), r(2, 96, 64), [64], dropout_p=0.3)
    yield case("p0.8-tuple-shape", r(2, 64, 40), r(2, 40, 100), r(2, 64, 100), (100,), dropout_p=0.8)
    yield case("repeat-a", r(2, 64, 16), r(2, 16, 64), r(2, 64, 64), 64, dropout_p=0.4)
    yield case("repeat-b", r(2, 64, 16), r(2, 16, 64), r(2, 64, 64), 64, dropout_p=0.4)
    yield case("eval", r(2, 33, 45), r(2, 45, 29), r(2, 33, 29), 29, training=False)
    yield case("eval-tanh-size", r(2, 33, 45), r(2, 45, 29), r(2, 33, 29), torch.Size([29]), training=False,
               approximate="tanh")
    yield case("p0", r(3, 20, 17), r(3, 17, 41), r(3, 20, 41), 41, dropout_p=0.0)
    yield case("p1", r(3, 20, 17), r(3, 17, 41), r(3, 20, 41), 41, dropout_p=1.0)
    yield case("wide-row", r(2, 16, 24), r(2, 24, 300), r(2, 16, 300), 300, dropout_p=0.5)
    yield case("deep-m", r(2, 40, 300), r(2, 300, 36, std=0.1), r(2, 40, 36), 36, dropout_p=0.2)
    # edge: broadcast `other`, eps, layouts, out=, tiny and empty sizes
    yield case("other-row", r(2, 64, 20), r(2, 20, 50), r(50), 50, dropout_p=0.5)
    yield case("other-slab", r(3, 40, 20), r(3, 20, 30), r(3, 1, 30), 30, dropout_p=0.25)
    yield case("other-scalar", r(2, 40, 20), r(2, 20, 30), g.tensor(0.75), 30, dropout_p=0.5)
    yield case("eps-large", r(2, 40, 20), r(2, 20, 50, std=0.01), r(2, 40, 50), 50, eps=0.5, dropout_p=0.5)
    yield case("transposed", g.transposed(r(2, 60, 40)), g.transposed(r(2, 40, 50)), g.transposed(r(2, 60, 50)), 50,
               dropout_p=0.25)
    yield case("strided", g.strided(r(3, 30, 20)), r(3, 20, 44), g.strided(r(3, 30, 44)), 44, dropout_p=0.6)
    yield case("out-eval", r(2, 25, 16), r(2, 16, 30), r(2, 25, 30), 30, training=False, out=r(2, 25, 30))
    yield case("out-p1-strided", r(2, 25, 16), r(2, 16, 30), r(30), 30, dropout_p=1.0, out=g.strided(r(2, 25, 30)))
    yield case("out-p0", r(2, 25, 16), r(2, 16, 30), r(2, 25, 30), 30, dropout_p=0.0, out=r(2, 25, 30))
    yield case("p-width-1", r(2, 70, 8), r(2, 8, 1), r(2, 70, 1), 1, training=False)
    yield case("m1", r(2, 70, 1), r(2, 1, 90), r(2, 70, 90), 90, dropout_p=0.5)
    yield case("empty-batch", r(0, 8, 16), r(0, 16, 8), r(0, 8, 8), 8)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("32x512^3", r(32, 512, 512), r(32, 512, 512), r(32, 512, 512), 512)
    yield Case("32x1024^3", r(32, 1024, 1024), r(32, 1024, 1024), r(32, 1024, 1024), 1024)
    yield Case("32x2048^3-tanh", r(32, 2048, 2048), r(32, 2048, 2048), r(32, 2048, 2048), 2048, approximate="tanh")
