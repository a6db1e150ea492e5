"""(input1 * input2 + other) -> log-softmax -> dropout -> bmm with mat2, fused (float32).

Dropout feeds a matrix product here, so the mask cannot be read off the output directly; the
checker recovers it (see ``check``)."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, check_bounded, product_bound, unit_roundoff
from harness.dropout_checks import DROPOUT_ALPHA, check_dropout
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_mul_add_logsoftmax_dropout_bmm"
SIGNATURE = ("fused_mul_add_logsoftmax_dropout_bmm(input1, input2, other, mat2, p=0.5, training=True, "
             "inplace=False, dim=-1, *, out=None)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "inplace", "p", "training"]
DIFFICULTY = 3
DESCRIPTION = """
Compute, with Triton kernels in float32: s = input1 * input2 + other (elementwise, broadcasting),
l = F.log_softmax(s, dim=dim), d = F.dropout(l, p=p, training=training, inplace=inplace), and
out = torch.bmm(d, mat2). input1, input2 and other are float32 tensors that broadcast together to a
3-D shape (B, N, K) (each may be a full tensor, a (K,) row, a (B, 1, K) slab, a 0-d scalar, ...);
mat2 is a float32 (B, K, P) tensor; the result is a float32 (B, N, P) tensor. `dim` (default -1)
is the dim of the (B, N, K) tensor the log-softmax runs over: any of 0, 1, 2, -1, -2, -3. Compute
it stably (subtract the maximum before exponentiating: values may be large). Dropout in training
mode (training=True) zeroes each element of l independently with probability `p` (0 <= p <= 1) and
multiplies every kept element by 1/(1-p); p = 0 keeps everything, p = 1 zeroes everything (the
result is then all zeros); with training=False, d is exactly l. `inplace` only says whether the
dropout may overwrite the internal log-softmax result: it changes nothing visible, and the inputs
are never modified. Float32 accuracy is required: accumulate the product in float32 without TF32
rounding (tl.dot with input_precision="ieee"). If `out` is None return a new contiguous tensor;
otherwise write the result into `out` (a float32 (B, N, P) tensor, possibly a strided view) and
return `out` itself. Inputs may be non-contiguous; B or N may be 0. The random mask does not have to
reproduce PyTorch's random numbers, but it must be fresh on every call (draw the seed in Python, e.g.
from os.urandom or the random module: PyTorch's random functions count as PyTorch compute in the
wrapper) and independent across positions. The check is statistical: the dropout result is
recovered from the output (mat2 has full row rank in the random cases), every element of it must
be 0 or l/(1-p), the output must match that d @ mat2 to float32 accuracy, and the number of dropped
elements and the mask's independence must be plausible for independent draws.
"""

CHECK_NOTE = (
    "training with 0 < p < 1 and mat2 of full row rank (K <= P, the case here): the dropout result "
    "is recovered as d' = out @ pinv(mat2) (float64) and each element snapped to the nearer of 0 and "
    "l/(1-p) (l the float64 log-softmax); then out must equal d' @ mat2 within harness/checks.py's "
    "product bound plus 1/(1-p) * (err(l) @ |mat2|), err(l) = the float32 error of s carried through "
    "the log-softmax (its own and its dim's largest) plus 8 u32 (|s - max| + |logsumexp| + |l|); and "
    "the snapped mask must drop Binomial(n, p) elements, agree across power-of-two and row distances "
    "as independent draws do, and differ between calls (Bernstein bounds, false-alarm rate 1e-9 per "
    "test). A wrong mask structure, scale or log-softmax shows as a product mismatch or a skewed "
    "count. Where K > P (not recoverable) only the expected total is checked: sum(out) within a "
    "Bernstein bound of sum(l @ mat2). training=False, p = 0 and p = 1 are compared with l @ mat2 "
    "(or 0) under the same bound; out= is exercised only there, since the harness compares the out "
    "buffer with the reference's, whose mask is random."
)

F32 = torch.float32
U32 = unit_roundoff(F32)
_HISTORY_ATTR = "dropout_history"


def reference(input1, input2, other, mat2, p=0.5, training=True, inplace=False, dim=-1, *, out=None):
    z = torch.mul(input1, input2)
    s = torch.add(z, other)
    l = F.log_softmax(s, dim=dim)
    d = F.dropout(l, p=p, training=training, inplace=inplace)
    y = torch.bmm(d, mat2)
    if out is not None:
        out.copy_(y)
        return out
    return y


def _logsoftmax_exact(args):
    """The float64 log-softmax and its allowed float32 error (see CHECK_NOTE)."""
    x1, x2, o = args["input1"].double(), args["input2"].double(), args["other"].double()
    prod = x1 * x2
    s = prod + o
    dim = args["dim"]
    l = torch.log_softmax(s, dim=dim)
    err_s = 2 * U32 * (prod.abs() + o.abs()).expand(s.shape)  # the product's and the sum's rounding
    if s.numel() == 0:
        return l, err_s
    smax = s.amax(dim=dim, keepdim=True)
    lse = (s - l).abs()  # |logsumexp| along dim, broadcast
    err = err_s + err_s.amax(dim=dim, keepdim=True) + 8 * U32 * ((s - smax).abs() + lse + l.abs())
    return l, err


def _sum_test(output, l, mat2, p, err_bound):
    """Where the mask cannot be recovered: sum(out) = sum over (b, n, k) of d_bnk * c_bk with
    c_bk = sum_p mat2[b, k, p], a sum of independent terms with mean l_bnk c_bk and variance
    p/(1-p) (l_bnk c_bk)^2; Bernstein bounds its deviation at DROPOUT_ALPHA."""
    import math
    c = mat2.double().sum(dim=-1)  # (B, K)
    terms = l * c[:, None, :]
    mean = terms.sum().item()
    var = (p / (1 - p)) * terms.square().sum().item()
    big = max(1 / (1 - p) - 1, 1.0) * terms.abs().max().item() if terms.numel() else 0.0
    log_term = math.log(2 / DROPOUT_ALPHA)
    a = 2 * log_term * big / 3
    t = (a + math.sqrt(a * a + 8 * log_term * var)) / 2 + err_bound
    got = output.double().sum().item()
    if not abs(got - mean) <= t:
        return f"output: sum {got:.6g} differs from its expected value {mean:.6g} by more than {t:.3g}"
    return None


def check(case, output, expected):
    args = bind_arguments(reference, case)
    mat2 = args["mat2"]
    p = float(args["p"]) if args["training"] else 0.0
    l, err_l = _logsoftmax_exact(args)
    scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
    m64 = mat2.double()
    if p <= 0.0 or p >= 1.0 or l.numel() == 0 or output.numel() == 0:
        d = scale * l
        exact = d @ m64
        bound = product_bound(d, mat2, out_dtype=F32, exact=exact) + scale * (err_l @ m64.abs())
        return check_bounded(output, exact, bound, dtype=F32)
    if not isinstance(output, torch.Tensor) or output.shape != expected.shape or output.dtype != F32:
        return check_bounded(output, expected.double(), expected.double().abs(), dtype=F32)  # the message
    if not torch.isfinite(output).all():
        return "output: non-finite values where the reference is finite"
    k, n_cols = mat2.shape[-2], mat2.shape[-1]
    if k > n_cols:  # mat2 cannot be inverted from the right: the expected total only
        return _sum_test(output, l, mat2, p, (scale * (err_l @ m64.abs())).sum().item()
                         + product_bound(scale * l, mat2, out_dtype=F32).sum().item())
    kept = scale * l
    recovered = output.double() @ torch.linalg.pinv(m64)
    keep = (recovered - kept).abs() < recovered.abs()
    d = torch.where(keep, kept, torch.zeros_like(kept))
    exact = d @ m64
    bound = product_bound(d, mat2, out_dtype=F32, exact=exact) + scale * (err_l @ m64.abs())
    msg = check_bounded(output, exact, bound, dtype=F32)
    if msg:
        return msg + " (compared with d @ mat2, d the dropout result recovered from the output)"
    msg = check_dropout(d, kept, 0.0, p, kept_bound=0.0, dtype=torch.float64, where="recovered dropout result",
                        history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)
    return msg


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x1, x2, o, mat2 = args["input1"], args["input2"], args["other"], args["mat2"]
    bsz, k, n_cols = mat2.shape
    rows = output.shape[1] if output.dim() == 3 else 0
    # elementwise mul/add, the log-softmax (max, exp, sum, log, subtract) and dropout: ~8 flops per
    # element of s; then the product's multiply-adds
    n_s = bsz * rows * k
    moved = numel_bytes(x1) + numel_bytes(x2) + numel_bytes(o) + numel_bytes(mat2) + numel_bytes(output)
    return Cost(flops=8.0 * n_s + 2.0 * bsz * rows * k * n_cols, bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: full (B, N, K) inputs, the published test's keywords (p, training, inplace, dim)
    yield case("p0.5", r(2, 64, 32), r(2, 64, 32), r(2, 64, 32), r(2, 32, 64))
    yield case("p0.2-dim1", r(3, 40, 24), r(3, 40, 24), r(3, 40, 24), r(3, 24, 48), p=0.2, dim=1)
    yield case("p0.7-inplace", r(2, 50, 16), r(2, 50, 16), r(2, 50, 16), r(2, 16, 40), p=0.7, inplace=True)
    yield case("p0.4-dim0", r(4, 30, 20), r(4, 30, 20), r(4, 30, 20), r(4, 20, 40), p=0.4, dim=0)
    yield case("repeat-a", r(2, 64, 16), r(2, 64, 16), r(2, 64, 16), r(2, 16, 32), p=0.3)
    yield case("repeat-b", r(2, 64, 16), r(2, 64, 16), r(2, 64, 16), r(2, 16, 32), p=0.3)
    yield case("eval", r(2, 33, 45), r(2, 33, 45), r(2, 33, 45), r(2, 45, 29), training=False)
    yield case("eval-dim-2", r(2, 33, 45), r(2, 33, 45), r(2, 33, 45), r(2, 45, 29), training=False, dim=-2)
    # log-softmax dims longer than one block of a tiled reduction
    yield case("wide-k", r(2, 30, 100, std=2.0), r(2, 30, 100, std=2.0), r(2, 30, 100), r(2, 100, 200), p=0.5)
    yield case("eval-wide-k", r(2, 20, 150, std=3.0), r(2, 20, 150, std=3.0), r(2, 20, 150), r(2, 150, 24),
               training=False)
    yield case("eval-wide-n-dim1", r(2, 150, 20, std=3.0), r(2, 150, 20, std=3.0), r(2, 150, 20), r(2, 20, 24),
               training=False, dim=1)
    yield case("p0", r(3, 20, 17), r(3, 20, 17), r(3, 20, 17), r(3, 17, 41), p=0.0)
    yield case("p1", r(3, 20, 17), r(3, 20, 17), r(3, 20, 17), r(3, 17, 41), p=1.0)
    # a deep log-softmax dim (K > P: the mask is not recoverable, only the total is checked)
    yield case("deep-k-sum-test", r(2, 40, 300), r(2, 40, 300), r(2, 40, 300), r(2, 300, 36), p=0.5)
    # edge: broadcasting, large values (max subtraction), layouts, out=, tiny and empty sizes
    yield case("broadcast-row-scalar", r(2, 48, 20), r(20), g.tensor(0.5), r(2, 20, 60), p=0.5)
    yield case("broadcast-slab", r(2, 1, 24), r(2, 40, 24), r(2, 40, 1), r(2, 24, 50), p=0.25, dim=1)
    yield case("large-values", r(2, 40, 20, std=30.0), r(2, 40, 20, std=30.0), r(2, 40, 20), r(2, 20, 40), p=0.5)
    yield case("transposed", g.transposed(r(2, 40, 30)), r(2, 40, 30), g.strided(r(2, 40, 30)),
               g.transposed(r(2, 30, 64)), p=0.6)
    yield case("out-eval", r(2, 25, 16), r(2, 25, 16), r(2, 25, 16), r(2, 16, 30), training=False, out=r(2, 25, 30))
    yield case("out-p1-strided", r(2, 25, 16), r(2, 25, 16), r(2, 25, 16), r(2, 16, 30), p=1.0,
               out=g.strided(r(2, 25, 30)))
    yield case("out-p0", r(2, 25, 16), r(2, 25, 16), r(2, 25, 16), r(2, 16, 30), p=0.0, out=r(2, 25, 30))
    yield case("k1", r(2, 70, 1), r(2, 70, 1), r(2, 70, 1), r(2, 1, 20), training=False)
    yield case("empty-batch", r(0, 8, 16), r(0, 8, 16), r(0, 8, 16), r(0, 16, 8))
    # input2 read as dense (stride 1), or through input1's strides, picks up the NaN gaps
    yield case("strided-input2", r(2, 30, 20), g.strided(r(2, 30, 20)), r(2, 30, 20), r(2, 20, 40), p=0.5)


def perf_cases(g: Inputs):
    r = g.randn
    # K <= P keeps the mask recoverable by the checker at perf sizes too
    yield Case("32x512x512->1024", r(32, 512, 512), r(32, 512, 512), r(32, 512, 512), r(32, 512, 1024))
    yield Case("32x1024x1024->1024-eval", r(32, 1024, 1024), r(32, 1024, 1024), r(32, 1024, 1024),
               r(32, 1024, 1024), training=False)
    yield Case("32x2048x1024->2048", r(32, 2048, 1024), r(32, 2048, 1024), r(32, 2048, 1024), r(32, 1024, 2048))
