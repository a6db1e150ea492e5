# An honest ReLU with a script's leftovers at import: a card picked and CUDA's connection count set
# in the environment (read when a CUDA context starts; the worker's is made before the import), the
# switch Triton's own error message recommends for a kernel that reads a module-level float, and
# the autotuner's choice printed through triton.knobs. None of them steers which program Triton's
# compiler runs.
import os

os.environ["CUDA_VISIBLE_DEVICES"] = os.environ.get("CUDA_VISIBLE_DEVICES") or "0"
os.environ["CUDA_DEVICE_MAX_CONNECTIONS"] = "1"
os.environ["TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"] = "1"

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

triton.knobs.autotuning.print = True
ZERO = 0.0  # read by the kernel as a plain global


@triton.autotune(configs=[triton.Config({"BLOCK": 512}), triton.Config({"BLOCK": 1024})], key=["n"])
@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < ZERO, ZERO, x), mask=keep)


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)
