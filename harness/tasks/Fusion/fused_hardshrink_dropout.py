"""Dropout then hard shrinkage of a float32 tensor, judged by the structure of the random mask."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments, unit_roundoff
from harness.dropout_checks import check_dropout
from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_hardshrink_dropout"
SIGNATURE = "fused_hardshrink_dropout(input, p=0.5, training=True, inplace=False, lambd=0.5)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["inplace", "lambd", "p", "training"]
DIFFICULTY = 3
DESCRIPTION = """
Apply dropout to the float32 tensor `input` (any shape) and then hard shrinkage to the result, in one
fused pass: d = F.dropout(input, p=p, training=training, inplace=inplace), then
out = F.hardshrink(d, lambd=lambd), i.e. out = d where |d| > lambd and 0 elsewhere.
Dropout in training mode (training=True) zeroes each element independently with probability `p`
(0 <= p <= 1) and multiplies every kept element by 1/(1-p); p = 0 keeps everything unchanged, p = 1
zeroes everything. With training=False dropout is the identity and the result is exactly
hardshrink(input). `lambd` is a non-negative Python float (default 0.5). The random mask does not
have to reproduce PyTorch's random numbers, but it must be fresh on every call (draw the seed in
Python, e.g. from os.urandom or the random module: PyTorch's random functions count as PyTorch
compute in the wrapper) and independent across positions. Return a new float32 tensor of input's
shape. With inplace=True the dropout result d is also written into `input` itself (input is
otherwise never modified); the returned tensor is still a new tensor. `input` may be
non-contiguous or empty. The check is statistical: every element must be 0 or its kept value
hardshrink(input/(1-p)) to float32 rounding, and the number of dropped elements and the mask's
independence must be plausible for independent draws.
"""

CHECK_NOTE = (
    "training mode with 0 < p < 1: every element is exactly 0 or hardshrink(input * 1/(1-p)) within "
    "4 float32 roundings; where the kept value is nonzero the mask is read off and its number of drops "
    "must follow Binomial(n, p), bits at power-of-two and row distances must agree as independent draws "
    "do, and masks of successive calls must differ (Bernstein bounds, false-alarm rate 1e-9 per test). "
    "Not verified: the mask where the kept value shrinks to 0 anyway, and the in-place write into "
    "input for 0 < p < 1 (the harness compares arguments after the call with the reference's, so "
    "in-place cases use p = 0, p = 1 or training=False, where the write is deterministic). "
    "training=False, p = 0 and p = 1 are compared exactly."
)

F32 = torch.float32
U32 = unit_roundoff(F32)


def reference(input, p=0.5, training=True, inplace=False, lambd=0.5):
    d = F.dropout(input, p=p, training=training, inplace=inplace)
    return F.hardshrink(d, lambd=lambd)


# Each run's cases share one list: a mask repeated from an earlier call (a constant seed) fails.
_HISTORY_ATTR = "dropout_history"


def check(case, output, expected):
    args = bind_arguments(reference, case)
    p, lambd = float(args["p"]), float(args["lambd"])
    if not args["training"] or p == 0.0 or p == 1.0:
        return compare_outputs(output, expected, None)  # deterministic: exact up to tolerance
    x = args["input"].double()
    v = x * (1.0 / (1.0 - p))  # the kept, scaled value before shrinkage
    kept = torch.where(v.abs() > lambd, v, torch.zeros_like(v))
    # x * (1/(1-p)) rounds twice in float32 (the reciprocal and the product, or one division): within
    # 4 u32 |v|. Where |v| lies that close to lambd either side of the threshold is right.
    slack = 4 * U32 * v.abs()
    kept_bound = torch.where((v.abs() - lambd).abs() <= slack, v.abs() + slack, slack)
    return check_dropout(output, kept, 0.0, p, kept_bound=kept_bound, dtype=F32,
                         history=getattr(case, _HISTORY_ATTR, None), label=case.label, call=case)


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    x = args["input"]
    # read input once, write the result once (the in-place write of d into input is not counted:
    # the fused minimum counts each argument once)
    moved = numel_bytes(x) + numel_bytes(output)
    return Cost(flops=4.0 * x.numel(), bytes=float(moved))


def cases(g: Inputs):
    r = g.randn
    history: list = []

    def case(label, *args, **kw):
        c = Case(label, *args, **kw)
        setattr(c, _HISTORY_ATTR, history)
        return c

    # core: what the published test exercises (p, lambd, training, inplace)
    yield case("p0.5-default", r(64, 257))
    yield case("p0.2-lambd0.3", r(129, 100), p=0.2, lambd=0.3)
    yield case("p0.7-lambd1", r(16, 33, 31), p=0.7, lambd=1.0)
    yield case("p0.1-lambd0", r(8000), p=0.1, lambd=0.0)
    yield case("p0.5-wide", r(3, 4099, std=2.0), p=0.5, lambd=0.75)
    yield case("repeat-a", r(48, 96), p=0.3)
    yield case("repeat-b", r(48, 96), p=0.3)
    yield case("eval", r(40, 70), training=False, lambd=0.4)
    yield case("eval-inplace", r(40, 70), p=0.3, training=False, inplace=True)
    yield case("p0", r(50, 61), p=0.0, lambd=0.25)
    yield case("p1", r(50, 61), p=1.0)
    # in-place with a deterministic mask: input becomes the dropout result (all zeros for p = 1)
    yield case("inplace-p1", r(33, 77), p=1.0, inplace=True)
    yield case("inplace-p0", r(33, 77), p=0.0, inplace=True, lambd=0.1)
    # edge: layouts, odd and empty sizes, special values (eval mode: dropout of NaN is unspecified)
    yield case("strided", g.strided(r(70, 90)), p=0.4, lambd=0.2)
    yield case("transposed", g.transposed(r(90, 70)), p=0.6)
    yield case("strided-inplace-p1", g.strided(r(20, 45)), p=1.0, inplace=True)
    yield case("odd-1", r(1), p=0.5, training=False)
    yield case("empty", r(0, 5), p=0.5)
    yield case("large-magnitude", r(64, 64, std=1e20), p=0.25, lambd=0.5)
    special = r(20, 30)
    special[::3, ::4] = float("nan")
    special[1, ::5] = float("inf")
    special[2, ::5] = float("-inf")
    special[4, :] = 0.5  # exactly at the threshold: shrunk to 0
    yield case("nan-inf-eval", special, training=False)


def perf_cases(g: Inputs):
    r = g.randn
    yield Case("16M", r(1 << 24))
    yield Case("64M-p0.1", r(1 << 26), p=0.1, lambd=0.25)
    yield Case("128M", r(1 << 27))
    # (no in-place training case: its random write into input cannot match the reference's)
    yield Case("8192x8192-p0.3", r(8192, 8192), p=0.3, lambd=0.1)
