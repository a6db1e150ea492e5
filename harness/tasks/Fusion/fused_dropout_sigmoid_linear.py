"""Linear layer, sigmoid and dropout fused (float32), judged by the structure of the random mask."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, product_bound, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_dropout_sigmoid_linear"
SIGNATURE = "fused_dropout_sigmoid_linear(input, weight, bias=None, p=0.5, training=True, inplace=False)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["inplace", "p", "training"]
DIFFICULTY = 3
DESCRIPTION = """
Compute out = F.dropout(torch.sigmoid(F.linear(input, weight, bias)), p=p, training=training,
inplace=inplace) in fused Triton code, in float32. `input` has shape (*, in_features) (one or more
leading dims), `weight` is (out_features, in_features), `bias` an optional (out_features,) vector
(None: no bias). The linear layer is z = input @ weight^T + bias over the last dim; the result has
shape (*, out_features). Dropout in training mode (training=True) zeroes each element
independently with probability `p` (0 <= p <= 1) and multiplies every kept element by 1/(1-p); p = 0
keeps everything, p = 1 zeroes everything; with training=False the result is exactly
sigmoid(z). `inplace` only says whether the dropout may overwrite the (internal) sigmoid result, so
it changes nothing visible: the inputs are never modified and a new contiguous float32 tensor is
returned. The random mask does not have to reproduce PyTorch's random numbers, but it must be
fresh on every call (draw the seed in Python, e.g. from os.urandom or the random module: PyTorch's
random functions count as PyTorch compute in the wrapper) and independent across positions.
Float32 accuracy is required: accumulate the product in float32 and do not round the inputs to
TF32 (with tl.dot use input_precision="ieee"). Inputs may be non-contiguous; the leading size may be
0. The check is statistical: every element must be 0 or its kept value sigmoid(z)/(1-p) to float32
accuracy, and the number of dropped elements and the mask's independence must be plausible for
independent draws.
"""

CHECK_NOTE = (
    "Each element must be exactly 0 or sigmoid(z) * 1/(1-p) with z the float64 linear layer, within "
    "1/(1-p) * (|sigmoid'| <= 1/4 times harness/checks.py's product bound for z plus 2 u32 |bias| for "
    "the bias add, plus 8 u32 sigmoid(z) for the sigmoid's own rounding); the mask (known wherever "
    "the kept value is nonzero) must drop Binomial(n, p) elements, agree across power-of-two and row "
    "distances as independent draws do, and differ between calls (Bernstein bounds, false-alarm rate "
    "1e-9 per test). training=False, p = 0 and p = 1 are the same check with every element kept or "
    "dropped. `inplace` has no visible effect and is only checked not to modify the inputs."
)

F32 = torch.float32
U32 = unit_roundoff(F32)
_HISTORY_ATTR = "dropout_history"


def reference(input, weight, bias=None, p=0.5, training=True, inplace=False):
    x = F.linear(input, weight, bias)
    x = torch.sigmoid(x)
    return F.dropout(x, p=p, training=training, inplace=inplace)


def check(case, output, expected):
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    p = float(args["p"]) if args["training"] else 0.0
    a = x.reshape(-1, x.shape[-1])
    z = a.double() @ w.double().T
    err = product_bound(a, w.T, out_dtype=F32, exact=z)
    if b is not None:
        z = z + b.double()
        err = err + 2 * U32 * b.double().abs()
    sig = torch.sigmoid(z)
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    kept = (scale * sig).reshape(*x.shape[:-1], w.shape[0])
    kept_bound = (scale * (0.25 * err + 8 * U32 * sig)).reshape(kept.shape)
    return check_dropout(output, kept, 0.0, p, kept_bound=kept_bound, dtype=F32,
                         history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x, w, b = args["input"], args["weight"], args["bias"]
    m, k, n = x.shape[:-1].numel(), x.shape[-1], w.shape[0]
    moved = numel_bytes(x) + numel_bytes(w) + (numel_bytes(b) if b is not None else 0) + numel_bytes(output)
    # the product's multiply-adds, then bias, sigmoid (exp, add, divide) and the dropout per output
    return Cost(flops=2.0 * m * n * k + 6.0 * m * n, bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: the published test's keywords (p, training, inplace), with and without bias
    yield case("p0.5-bias", r(64, 48), r(96, 48), r(96))
    yield case("p0.3-nobias", r(100, 40), r(70, 40), p=0.3)
    yield case("p0.8-3d", r(4, 30, 33), r(50, 33), r(50), p=0.8)
    yield case("p0.1-inplace", r(80, 64), r(64, 64), r(64), p=0.1, inplace=True)
    yield case("repeat-a", r(64, 32), r(64, 32), p=0.4)
    yield case("repeat-b", r(64, 32), r(64, 32), p=0.4)
    yield case("eval", r(37, 45), r(29, 45), r(29), training=False)
    yield case("eval-inplace", r(37, 45), r(29, 45), training=False, inplace=True)
    yield case("p0", r(33, 20), r(41, 20), r(41), p=0.0)
    yield case("p1", r(33, 20), r(41, 20), r(41), p=1.0)
    yield case("deep-k", r(40, 300), r(36, 300, std=0.1), r(36), p=0.5)
    # edge: layouts, tiny and empty sizes, large logits (sigmoid saturates to 0 and 1)
    yield case("transposed-weight", r(60, 50), g.transposed(r(70, 50)), r(70), p=0.25)
    yield case("strided-input", g.strided(r(50, 44)), r(30, 44), g.strided(r(30)), p=0.6)
    yield case("k1", r(70, 1), r(90, 1), r(90), p=0.5)
    yield case("empty-batch", r(0, 16), r(8, 16), r(8))
    yield case("saturating", r(64, 32, std=30.0), r(48, 32), r(48), p=0.5)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("1024x4096->256", r(1024, 4096), r(256, 4096), r(256))
    yield Case("1024x32768->256", r(1024, 32768), r(256, 32768), r(256))
    yield Case("8192x1024->1024", r(8192, 1024), r(1024, 1024), r(1024), p=0.1)
    yield Case("4x1024x4096->4096", r(4, 1024, 4096), r(4096, 4096), r(4096))
