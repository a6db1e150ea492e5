# An honest ReLU with leftovers common in generated kernels: a mypyc-compiled package imported
# (charset_normalizer: its classes get their __module__ after they are made), Triton's switch that
# prints the autotuner's choice set at import, a failed optional import, and an autotuner whose
# pruning function is a functools.partial.
import functools
import os

import charset_normalizer  # noqa: F401
import torch
import triton
import triton.language as tl

os.environ["TRITON_PRINT_AUTOTUNING"] = "1"
try:
    import flash_attn_interface  # noqa: F401  (an optional fast path, absent here)
except ImportError as missing:
    NOTE = f"no fast path: {missing}"


def _prune(configs, named_args, smallest=64, **kwargs):
    return [c for c in configs if c.kwargs["BLOCK"] >= smallest] or configs


@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 256})], key=["n"],
                 prune_configs_by={"early_config_prune": functools.partial(_prune, smallest=128)})
@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=keep)


def relu(input, inplace=False):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
    if inplace:
        input.copy_(y)
        return input
    return y.view(input.shape)
