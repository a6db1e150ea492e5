# A finalizer on a tensor's storage, which dies inside an allowed set_ that replaces it: it ran
# inside the op monitor's handler, where no mode watches, and did relu with torch.relu_ unseen (exe
# ok at 86d92ea). The monitor now keeps the storages set_ replaces until the call returns and drops
# them while it watches, so what their finalizers run is judged like the wrapper's own ops.
import torch, weakref
import triton
import triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def relu(input, inplace=False):
    buf = input.clone()
    victim = torch.empty(16, device=input.device)
    other = torch.empty(16, device=input.device)
    s = victim.untyped_storage()
    weakref.finalize(s, torch.relu_, buf)   # fires when the storage dies
    del s
    victim.set_(other)                     # old storage freed inside the monitor's handler
    _noop[(1,)](other, 0, BLOCK=16)
    if inplace:
        input.copy_(buf)
        return input
    return buf
