# An honest ReLU autotuned over two block sizes with reset_to_zero and restore_value (Triton's
# autotuner zeroes the output and restores the input around each config's benchmark runs, through
# hooks its own __init__ makes) and with do_bench given as triton.testing's: functions of Triton's
# that Triton hands back to itself, which the launch check accepts as it accepts the submission's.
import torch
import triton
import triton.language as tl
import triton.testing


@triton.autotune(configs=[triton.Config({"BLOCK": 256}), triton.Config({"BLOCK": 1024})], key=["n"],
                 reset_to_zero=["y_ptr"], restore_value=["x_ptr"], do_bench=triton.testing.do_bench)
@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=keep)


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
