# An honest GELU whose autotuned kernel is built by a factory the first time a dtype is seen and kept
# in a dict (no module-level name the harness could pin before the call), with its block width
# worked out by a @triton.constexpr_function helper where Triton has them. The autotuner is pinned
# at its first launch in each config pass, so both configs are checked, and the helper counts as
# Triton's own (it failed there as "a global that is not a tl.constexpr" before 2026-12-05).
import torch
import triton
import triton.language as tl

_KERNELS = {}

def _kernel_for(dtype):
    if dtype not in _KERNELS:
        @triton.autotune(configs=[triton.Config({"BLOCK": 256}), triton.Config({"BLOCK": 1024})], key=["n"])
        @triton.jit
        def _gelu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
            keep = offs < n
            x = tl.load(x_ptr + offs, mask=keep, other=0.0).to(tl.float32)
            y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
            tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=keep)

        _KERNELS[dtype] = _gelu
    return _KERNELS[dtype]


@triton.jit
def _tanh_gelu(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + (2.0 / (1.0 + tl.exp(-2.0 * inner)) - 1.0))


if hasattr(triton, "constexpr_function"):
    @triton.constexpr_function
    def _half(block):
        return max(block // 2, 1)

    @triton.jit
    def _gelu_tanh(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        HALF: tl.constexpr = _half(BLOCK)
        tl.static_assert(HALF * 2 == BLOCK)
        offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        keep = offs < n
        x = tl.load(x_ptr + offs, mask=keep, other=0.0).to(tl.float32)
        tl.store(y_ptr + offs, _tanh_gelu(x).to(y_ptr.dtype.element_ty), mask=keep)
else:  # an older Triton: no constexpr functions
    @triton.jit
    def _gelu_tanh(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        keep = offs < n
        x = tl.load(x_ptr + offs, mask=keep, other=0.0).to(tl.float32)
        tl.store(y_ptr + offs, _tanh_gelu(x).to(y_ptr.dtype.element_ty), mask=keep)


def gelu(input, approximate="none"):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y.view(input.shape)
    if approximate == "tanh":
        _gelu_tanh[(triton.cdiv(n, 512),)](x, y, n, BLOCK=512)
    else:
        kernel = _kernel_for(x.dtype)
        kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
    return y.view(input.shape)
