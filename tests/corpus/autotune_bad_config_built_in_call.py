# Right under its first autotune config only, and the autotuner exists only while a call runs: the
# wrapper builds a fresh one on every call and drops it. No walk of the module after the import can
# find it; it is pinned at its first launch in each config pass (harness/sandbox/autotune.py
# AutotunePins), so its second config is checked too.
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


def gelu(input, approximate="none"):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    tuned = triton.autotune(configs=[triton.Config({"BLOCK": 1024}, num_warps=8),
                                     triton.Config({"BLOCK": 256}, num_warps=4)], key=["n"])(_gelu)
    tuned[lambda meta: (triton.cdiv(n, 1024),)](x, y, n, TANH=approximate == "tanh")
    return y.view(input.shape)
