"""Bitwise AND of int32 or bool tensors, with broadcasting and out=."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes, tensor_leaves

ENTRY = "bitwise_and"
SIGNATURE = "bitwise_and(input, other, out=None)"
DTYPES = ["bool", "int32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["bool", "int32"]
CORE_KWARGS = []
DIFFICULTY = 2
# Timed perf inputs mix integer and bool tensors too (perf/server.py RotatingCase): here they are
# values drawn alike at every position (indices may repeat), so any mix of two sets is an input.
PERF_MIX_INTEGERS = True
DESCRIPTION = """
Compute the elementwise bitwise AND of `input` and `other`, as torch.bitwise_and(input, other,
out=out). `input` is an int32 or bool tensor of any shape (possibly non-contiguous, 0-dimensional
or empty); `other` is an int32 or bool tensor, or a Python int/bool. The two are broadcast against
each other with the usual rules. For bool tensors the result is the logical AND; for int32 it is
the AND of the two's-complement bit patterns (negative numbers included); mixing int32 with bool
promotes to int32 (True acts as 1). The result dtype is the promoted dtype (bool & bool -> bool,
otherwise int32). When `out` is None return a new tensor; when `out` is given (a tensor of the
result's shape and dtype, possibly non-contiguous) write the result into it and return `out`
itself. The inputs are never modified.
"""


def cost(case: Case, output) -> Cost:
    # One AND per output element; inputs read once, result written once (out= is only written).
    ins = [t for t in case.args if isinstance(t, torch.Tensor)]
    outs = tensor_leaves(output)
    return Cost(flops=float(outs[0].numel()),
                bytes=float(sum(numel_bytes(t) for t in ins + outs)))


def reference(input, other, out=None):
    return torch.bitwise_and(input, other, out=out)


def cases(g: Inputs):
    i32 = torch.int32
    big = 2**31

    def ints(*shape, low=-big, high=big):
        return g.randint(low, high, *shape, dtype=i32)

    def bools(*shape):
        return g.randint(0, 2, *shape, dtype=torch.bool)

    yield Case("int32-edge-values",
               g.tensor([0, -1, -1, 2**31 - 1, -2**31, 0x0F0F0F0F, -2, 255, 7, 12345678], dtype=i32),
               g.tensor([-1, -1, 0, -1, -1, -0x0F0F0F10, 3, -256, 5, -87654321], dtype=i32))
    yield Case("int32-full-range", ints(4099), ints(4099))
    yield Case("int32-small-3d", ints(3, 37, 129, low=-64, high=64), ints(3, 37, 129, low=0, high=128))
    yield Case("int32-broadcast-row", ints(40, 129), ints(129))
    yield Case("int32-broadcast-both", ints(37, 1, low=-1000, high=1000), ints(1, 65, low=-1000, high=1000))
    yield Case("int32-zero-dim-other", ints(31, 7), g.tensor(0x5A5A5A5A, dtype=i32))
    yield Case("int32-python-int-other", ints(2049), 0x00FF00FF)
    yield Case("int32-strided-transposed", g.strided(ints(48, 97)), g.transposed(ints(48, 97)))
    yield Case("int32-broadcast-5d", ints(2, 3, 1, 5, 7), ints(3, 4, 1, 7))
    yield Case("bool-all-combinations", g.tensor([True, True, False, False], dtype=torch.bool),
               g.tensor([True, False, True, False], dtype=torch.bool))
    yield Case("bool-random", bools(4099), bools(4099))
    yield Case("bool-broadcast", bools(33, 65), bools(65))
    yield Case("bool-strided", g.strided(bools(33, 65)), bools(33, 65))
    yield Case("bool-python-true", bools(1000), True)
    yield Case("int32-with-bool", ints(64, 65), bools(64, 65))
    yield Case("single", ints(1), ints(1))
    yield Case("empty", ints(0, 4, low=0, high=9), ints(0, 4, low=0, high=9))
    yield Case("int32-out", ints(64, 300), ints(64, 300), out=ints(64, 300))
    yield Case("int32-out-strided-broadcast", ints(17, 1), ints(129), out=g.strided(ints(17, 129)))
    yield Case("bool-out", bools(2049), bools(2049), out=bools(2049))


def perf_cases(g: Inputs):
    i32 = torch.int32
    big = 2**31
    yield Case("int32-16M", g.randint(-big, big, 1 << 24, dtype=i32), g.randint(-big, big, 1 << 24, dtype=i32))
    yield Case("int32-64M", g.randint(-big, big, 1 << 26, dtype=i32), g.randint(-big, big, 1 << 26, dtype=i32))
    yield Case("bool-128M", g.randint(0, 2, 1 << 27, dtype=torch.bool), g.randint(0, 2, 1 << 27, dtype=torch.bool))
    yield Case("int32-128M-out", g.randint(-big, big, 1 << 27, dtype=i32), g.randint(-big, big, 1 << 27, dtype=i32),
               out=g.randint(-big, big, 1 << 27, dtype=i32))
