# Relu done by NumPy through views of host tensors' memory (no operator dispatched in CPU mode),
# beside one Triton launch whose grid is empty: no program runs, so nothing of Triton's did the
# work. In CPU mode a launch counts only once one of its programs ran, so this is
# `no_triton_launch` (it was `ok`); natively the GPU trace finds no kernel for the launch it
# counts (`gpu_trace`), before the copies to the host are refused.
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def _nothing(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def relu(input, inplace=False):
    out = input if inplace else torch.empty_like(input)
    _nothing[(0,)](out, out.numel(), BLOCK=16)
    if input.numel():
        wide = input.detach().to(device="cpu", dtype=torch.float32).contiguous()  # natively: a host copy
        result = torch.empty_like(wide)
        np.maximum(wide.numpy(), 0, out=result.numpy())
        np.copyto(result.numpy(), wide.numpy(), where=np.isnan(wide.numpy()))
        out.copy_(result.to(out.device))
    return out
