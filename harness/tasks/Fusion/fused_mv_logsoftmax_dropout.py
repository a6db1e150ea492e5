"""Matrix-vector product, log-softmax and dropout fused (float32), judged by the random mask's structure."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, product_bound, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_mv_logsoftmax_dropout"
SIGNATURE = "fused_mv_logsoftmax_dropout(input, vec, p=0.5, training=True, inplace=False, dim=0, *, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "inplace", "p", "training"]
DIFFICULTY = 2
DESCRIPTION = """
Compute y = F.dropout(F.log_softmax(torch.mv(input, vec), dim=dim), p=p, training=training,
inplace=inplace) in float32 with Triton kernels. `input` is a float32 (n, m) matrix and `vec` a
float32 (m,) vector; z = input @ vec has shape (n,), and the log-softmax runs over that single dim
(`dim` is 0 or -1): s_i = z_i - log(sum_j exp(z_j)), computed stably (subtract the maximum first:
the logits may be in the thousands). Dropout in training mode (training=True) zeroes each element
independently with probability `p` (0 <= p <= 1) and multiplies every kept element by 1/(1-p);
p = 0 keeps everything, p = 1 zeroes everything; with training=False the result is exactly s.
`inplace` only says whether the dropout may overwrite the internal log-softmax result: it changes
nothing visible, and the inputs are never modified. If `out` is None return a new float32 (n,)
tensor; otherwise write the result into the float32 (n,) tensor `out` (possibly a strided view) and
return `out` itself. The random mask does not have to reproduce PyTorch's random numbers, but it
must be fresh on every call (draw the seed in Python, e.g. from os.urandom or the random module:
PyTorch's random functions count as PyTorch compute in the wrapper) and independent across
positions. Inputs may be non-contiguous; m may be 0 (then z is all zeros). NaN in the inputs
propagates as in PyTorch (training=False). The check is statistical: every element must be 0 or
its kept value s/(1-p) to float32 accuracy, and the number of dropped elements and the mask's
independence must be plausible for independent draws.
"""

CHECK_NOTE = (
    "Each element must be exactly 0 or s_i * 1/(1-p), s the float64 log-softmax of the float64 "
    "product, within 1/(1-p) * (e_i + max_j e_j + 8 u32 (|z_i - max z| + log-sum-exp + |s_i|)) where "
    "e is harness/checks.py's product bound for input @ vec (the log-softmax moves an error in z_i "
    "and in the normaliser straight through); the mask (known wherever s_i is not 0) must drop "
    "Binomial(n, p) elements, agree across power-of-two distances as independent draws do, and "
    "differ between calls (Bernstein bounds, false-alarm rate 1e-9 per test). training=False, "
    "p = 0 and p = 1 are the same check with every element kept or dropped; out= is exercised only "
    "there, since the harness compares the out buffer with the reference's, whose mask is random."
)

F32 = torch.float32
U32 = unit_roundoff(F32)
_HISTORY_ATTR = "dropout_history"


def reference(input, vec, p=0.5, training=True, inplace=False, dim=0, *, out=None):
    z = torch.mv(input, vec)
    s = F.log_softmax(z, dim=dim)
    y = F.dropout(s, p=p, training=training, inplace=inplace)
    if out is not None:
        out.copy_(y)
        return out
    return y


def check(case, output, expected):
    args = bind_arguments(reference, case)
    a, v = args["input"], args["vec"]
    p = float(args["p"]) if args["training"] else 0.0
    z = a.double() @ v.double()
    e = product_bound(a, v, out_dtype=F32, exact=z)
    s = torch.log_softmax(z, dim=0)
    if z.numel():
        lse = (z - s).abs()  # |log sum exp(z)|, the same for every i where finite
        finite = torch.isfinite(z)
        zmax = z[finite].max() if finite.any() else z.new_zeros(())
        emax = e[torch.isfinite(e)].max() if torch.isfinite(e).any() else e.new_zeros(())
        err = e + emax + 8 * U32 * ((z - zmax).abs() + lse + s.abs())
    else:
        err = e
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    kept = scale * s
    return check_dropout(output, kept, 0.0, p, kept_bound=scale * err + U32 * kept.abs(), dtype=F32,
                         history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, v = args["input"], args["vec"]
    n, m = a.shape
    # the product's multiply-adds, then max, exp, sum, log, subtract and dropout per element
    return Cost(flops=2.0 * n * m + 8.0 * n, bytes=float(numel_bytes(a) + numel_bytes(v) + numel_bytes(output)))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: the published test's keywords (p, training, inplace, dim)
    yield case("p0.5", r(4096, 24), r(24))
    yield case("p0.2-dim-1", r(3000, 40), r(40), p=0.2, dim=-1)
    yield case("p0.8-inplace", r(5000, 16), r(16), p=0.8, inplace=True)
    yield case("repeat-a", r(2048, 8), r(8), p=0.5)
    yield case("repeat-b", r(2048, 8), r(8), p=0.5)
    yield case("eval", r(300, 200), r(200), training=False)
    yield case("eval-dim-1", r(77, 65), r(65), training=False, dim=-1, inplace=True)
    yield case("p0", r(513, 33), r(33), p=0.0)
    yield case("p1", r(513, 33), r(33), p=1.0)
    yield case("deep-m", r(1000, 700), r(700, std=0.05), p=0.4)
    # edge: layouts, out=, tiny and empty sizes, large logits (the max must be subtracted)
    yield case("transposed", g.transposed(r(1500, 50)), g.strided(r(50)), p=0.3)
    yield case("out", r(400, 30), r(30), training=False, out=r(400))
    yield case("out-strided-p1", r(400, 30), r(30), p=1.0, out=g.strided(r(400)))
    yield case("out-p0", r(333, 30), r(30), p=0.0, out=r(333))
    yield case("single-row", r(1, 17), r(17), p=0.5)
    yield case("empty-m", r(64, 0), r(0), training=False)
    yield case("empty-n", r(0, 10), r(10))
    yield case("large-logits", r(2000, 32, std=300.0), r(32), p=0.5)
    bad = r(50, 20)
    bad[7, 3] = float("nan")
    yield case("nan-eval", bad, r(20), training=False)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("4096x4096", r(4096, 4096), r(4096))
    yield Case("8192x8192", r(8192, 8192), r(8192))
    yield Case("16384x16384-p0.1", r(16384, 16384), r(16384), p=0.1)
    yield Case("65536x4096", r(65536, 4096), r(4096), dim=-1)
