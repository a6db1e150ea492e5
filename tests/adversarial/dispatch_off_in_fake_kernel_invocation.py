# Fake tensors' in_kernel_invocation_manager turns every dispatch mode off for the kernels it runs
# (torch._C._DisableTorchDispatch on its own line) and yields: given any object with an
# in_kernel_invocation flag, it opened a region where torch.relu_ ran unseen by the op monitor. It
# had `exe: ok`; refused now, as dispatch_off_through_torch_helper.py.
import types
import torch
import triton
import triton.language as tl
from torch._subclasses.fake_tensor import in_kernel_invocation_manager


@triton.jit
def _touch(x_ptr, y_ptr):
    tl.store(y_ptr, tl.load(x_ptr))


def relu(input, inplace=False):
    y = torch.empty_like(input)
    y.copy_(input)
    fake = types.SimpleNamespace(in_kernel_invocation=False)
    # torch's context manager enters torch._C._DisableTorchDispatch() (its line names it) and yields
    with in_kernel_invocation_manager(fake):
        torch._C._set_meta_in_tls_dispatch_include(False)   # back to the real kernels (not proxied)
        torch.relu_(y)                                      # no mode sees it
    if input.numel():
        scratch = torch.empty(1, dtype=input.dtype, device=input.device)
        _touch[(1,)](input, scratch)
    if inplace:
        input.copy_(y)
        return input
    return y
