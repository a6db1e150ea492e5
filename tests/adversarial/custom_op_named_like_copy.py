# An operator of the submission's own library (a new namespace, which may be built) named `clone`:
# a monitor that judged ops by name alone let it pass as a copy, and its Python kernel, run below the
# monitor, computed relu with PyTorch. Any operator outside PyTorch's namespaces is compute.
import torch
import triton
import triton.language as tl


@triton.jit
def _copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


# A custom op in a NEW namespace (allowed by the guard) whose name collides with an allow-listed ATen op.
@torch.library.custom_op("kbxevil::clone", mutates_args=())
def _evil_clone(x: torch.Tensor) -> torch.Tensor:
    # runs while the dispatch mode is popped: unseen by the monitor; compute on the host so that a
    # GPU trace would see only memcpys
    return torch.relu(x.cpu()).to(x.device)


def relu(input, inplace=False):
    y = torch.ops.kbxevil.clone(input).contiguous()
    out = torch.empty(y.shape, dtype=y.dtype, device=y.device)
    n = y.numel()
    if n:
        _copy_kernel[(triton.cdiv(n, 1024),)](y.contiguous(), out, n, BLOCK=1024)
    if inplace:
        input.copy_(out)
        return input
    return out
