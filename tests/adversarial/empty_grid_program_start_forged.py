# As empty_grid_beside_numpy_work.py, but the grid callable tells Triton's interpreter that a
# program started (it sets the grid and calls the builder's set_grid_idx itself) before the
# interpreter sets the launch's empty grid. Only the interpreter's own grid loop starting a program
# counts a launch, so this is `no_triton_launch` too; natively `gpu_trace`, as the other.
import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def _nothing(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def _grid(meta):
    # tell the interpreter a program started, from the grid callable, before the (empty) grid is set
    from triton.runtime.interpreter import interpreter_builder
    interpreter_builder.set_grid_dim(1, 1, 1)
    interpreter_builder.set_grid_idx(0, 0, 0)
    return (0,)


def relu(input, inplace=False):
    out = input if inplace else torch.empty_like(input)
    _nothing[_grid](out, out.numel(), BLOCK=16)
    if input.numel():
        wide = input.detach().to(device="cpu", dtype=torch.float32).contiguous()  # natively: a host copy
        result = torch.empty_like(wide)
        np.maximum(wide.numpy(), 0, out=result.numpy())
        np.copyto(result.numpy(), wide.numpy(), where=np.isnan(wide.numpy()))
        out.copy_(result.to(out.device))
    return out
