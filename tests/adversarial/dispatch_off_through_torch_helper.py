# torch.sparse._semi_structured_ops.no_dispatch() is a context manager whose own line turns every
# dispatch mode off (torch._C._DisableTorchDispatch) and then hands control back to its caller. The
# guard handed such a primitive to a library line that names it, so the submission got a region no
# monitor watched: there it copies the input to the host, does relu with NumPy and copies back (on a
# GPU the trace counts copies as data movement), beside a one-program Triton kernel. It had
# `exe: ok`; the dispatch-disabling primitives are now refused while the submission is on the stack,
# whoever calls them.
import numpy as np
import torch
import triton
import triton.language as tl
from torch.sparse._semi_structured_ops import no_dispatch


@triton.jit
def _touch(x_ptr, y_ptr):
    tl.store(y_ptr, tl.load(x_ptr))


def relu(input, inplace=False):
    x = input.contiguous()                       # seen: a copy (allowed)
    out = torch.empty_like(x)                    # seen: memory made in the call
    host = torch.empty(x.shape, dtype=x.dtype)   # seen: a host allocation (allowed)
    with no_dispatch():
        host.copy_(x)                            # device -> host, unseen (on a GPU: a Memcpy, which the trace skips)
    a = host.numpy()
    np.copyto(a, np.where(a < 0, np.zeros((), a.dtype), a))   # the host does relu
    with no_dispatch():
        out.copy_(host)                          # host -> device, unseen
    if x.numel():
        scratch = torch.empty(1, dtype=x.dtype, device=x.device)
        _touch[(1,)](x, scratch)                 # one program runs: a launch is counted
    if inplace:
        input.copy_(out)
        return input
    return out.view(input.shape)
