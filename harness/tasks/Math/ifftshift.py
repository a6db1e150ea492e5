"""Inverse FFT shift: roll chosen dimensions of a float32 tensor back by half their length."""

import torch

from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "ifftshift"
SIGNATURE = "ifftshift(input, dim=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim"]
DIFFICULTY = 4
# The rearrangement is the work: the wrapper may copy an argument only as it is given (to make it
# dense), not from a view that rearranges it, and may not join tensors (sandbox/integrity.py).
DATA_MOVEMENT = True
DESCRIPTION = """
Undo an FFT shift, like torch.fft.ifftshift(input, dim): move the zero-frequency entry from the
centre back to index 0 along the chosen dimensions. Along each chosen dimension of length n the
tensor is rolled by -(n // 2): output[..., i, ...] = input[..., (i + n // 2) mod n, ...]; for odd n
this is NOT the same as the forward fftshift (which rolls by +(n // 2)). `dim` is None (roll every
dimension), an int, or a tuple/list of distinct ints (negative values count from the end); other
dimensions keep their order. `input` is a float32 tensor with at least one dimension, of any shape,
possibly non-contiguous or empty. Return a new float32 tensor of the input's shape; the input is
never modified.
"""


def cost(case: Case, output) -> Cost:
    # Pure data movement: every element is read once and written once.
    x = case.args[0]
    return Cost(flops=0.0, bytes=float(numel_bytes(x) + numel_bytes(output)))


def reference(input, dim=None):
    return torch.fft.ifftshift(input, dim=dim)


def cases(g: Inputs):
    # Odd lengths make ifftshift differ from fftshift; lengths 1 and 2 are the smallest rolls.
    yield Case("1d-odd", g.randn(1003))
    yield Case("1d-even", g.randn(1000))
    yield Case("1d-len-2", g.randn(2))
    yield Case("single", g.randn(1))
    yield Case("2d-all", g.randn(45, 77))
    yield Case("2d-dim-0", g.uniform(33, 65, low=-5.0, high=5.0), dim=0)
    yield Case("2d-dim-neg", g.randn(64, 129), dim=-1)
    yield Case("3d-all", g.heavy_tailed(7, 9, 31))
    yield Case("3d-tuple", g.randn(6, 11, 35), dim=(0, 2))
    yield Case("3d-tuple-neg", g.randn(5, 8, 13), dim=(-2, -3))
    yield Case("3d-list", g.randn(4, 17, 10), dim=[1])
    yield Case("4d-middle", g.randn(3, 5, 7, 9), dim=(1, 2))
    yield Case("size-1-dims", g.randn(1, 9, 1, 15), dim=(0, 1, 2))
    yield Case("6d-all", g.randn(2, 3, 3, 4, 5, 3))
    yield Case("9d-all", g.randn(2, 3, 2, 3, 2, 3, 2, 3, 3))  # more dimensions than one pass holds
    yield Case("empty", g.randn(0, 5), dim=1)
    yield Case("strided", g.strided(g.randn(33, 65)))
    yield Case("strided-dim-0", g.strided(g.randn(20, 7, 30)), dim=0)
    yield Case("transposed", g.transposed(g.randn(97, 48)))
    yield Case("transposed-dim-1", g.transposed(g.randn(3, 40, 21)), dim=1)


def perf_cases(g: Inputs):
    yield Case("1d-64M", g.randn(1 << 26))
    yield Case("2d-8192x8192", g.randn(8192, 8192))
    yield Case("3d-512x512x512-last-two", g.randn(512, 512, 512), dim=(-2, -1))
    yield Case("1d-128M", g.randn(1 << 27))
