# A tensor's __dict__ replaced by an OrderedDict whose entry hides untyped_storage: the shadowing
# check read only an exact dict's keys, so the op monitor, asking the operand for its storage inside
# its handler (no mode watching there), ran a functools.partial of torch.relu_ (no Python frame, so
# no barrier sees it) and relu was done unseen (exe ok at 86d92ea). A __dict__ of any other type
# now counts as hiding.
import torch, functools, collections
import triton
import triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.load(x_ptr + offs, mask=offs < n)

def relu(input, inplace=False):
    buf = input.clone()
    carrier = torch.empty(16, device=input.device)
    carrier.__dict__ = collections.OrderedDict(untyped_storage=functools.partial(torch.relu_, buf))
    carrier.view(-1)
    carrier.__dict__ = {}
    _noop[(1,)](carrier, 0, BLOCK=16)
    if inplace:
        input.copy_(buf)
        return input
    return buf
