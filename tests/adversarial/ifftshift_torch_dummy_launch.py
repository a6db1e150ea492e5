# ifftshift done by PyTorch's allowed ops (narrow + cat) with one do-nothing Triton launch.
import torch
import triton
import triton.language as tl


@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)


def ifftshift(input, dim=None):
    if dim is None:
        dims = list(range(input.dim()))
    elif isinstance(dim, int):
        dims = [dim]
    else:
        dims = list(dim)
    out = input
    for d in dims:
        d = d % input.dim()
        n = input.shape[d]
        if n == 0:
            continue
        s = n // 2
        out = torch.cat([out.narrow(d, s, n - s), out.narrow(d, 0, s)], dim=d)
    out = out.clone(memory_format=torch.contiguous_format)
    _noop[(1,)](out, 0, BLOCK=16)
    return out
