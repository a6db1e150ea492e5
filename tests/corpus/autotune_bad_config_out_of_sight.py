# Right under its first autotune config only, and out of the module's names: the autotuner sits in a
# dict held by an object of the submission's class, reached by the wrapper through a closure. Each
# config must still be pinned in turn (harness/sandbox/autotune.py walks the module's objects; its
# unit test covers each hiding place on its own).
import torch
import triton
import triton.language as tl


@triton.jit
def _gelu(x_ptr, y_ptr, n, TANH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * 1024 + tl.arange(0, BLOCK)  # bug: right only when BLOCK == 1024
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    if TANH:
        y = 0.5 * x * (1.0 + (2.0 * tl.sigmoid(2.0 * 0.7978845608028654 * (x + 0.044715 * x * x * x)) - 1.0))
    else:
        y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


_CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=8), triton.Config({"BLOCK": 256}, num_warps=4)]


class _Ops:
    def __init__(self):
        self.table = {"gelu": [triton.autotune(configs=_CONFIGS, key=["n"])(_gelu)]}


def _launcher(ops):
    def launch(x, y, n, tanh):
        ops.table["gelu"][0][lambda meta: (triton.cdiv(n, 1024),)](x, y, n, TANH=tanh)
    return launch


_launch = _launcher(_Ops())


def gelu(input, approximate="none"):
    x = input.contiguous()
    y = torch.empty_like(x)
    _launch(x, y, x.numel(), approximate == "tanh")
    return y.view(input.shape)
