# torch.sparse_coo_tensor converts the Python values of its indices (and values, and lists given
# to the nested constructors) with PyTorch's Python dispatch key excluded, as torch.tensor does: an
# index object's __index__ runs torch.relu there, unseen by any dispatch mode, then raises so that
# no sparse op is ever dispatched, and a Triton kernel that does nothing is launched. It had
# `exe: ok` on Python 3.11 (3.12's watch of the dispatch keys sees it): the sparse and nested
# constructors' stand-ins take plain data only, as the dense ones do.
import torch, triton, triton.language as tl

@triton.jit
def _noop(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)

class _Done(Exception):
    pass


class _Blind:
    def __init__(self, fn):
        self.fn, self.out = fn, None
    def __index__(self):              # called by torch's sparse constructor with the Python key excluded
        self.out = self.fn()
        raise _Done()      # abort the constructor: no sparse op is dispatched

def _unseen(fn):
    b = _Blind(fn)
    try:
        torch.sparse_coo_tensor([[b]], [1.0], (1,))
    except _Done:
        pass
    return b.out

def relu(input, inplace=False):
    if inplace:
        _unseen(lambda: torch.relu_(input))
        y = input
    else:
        y = torch.empty_like(input)            # allocated where the monitor sees it
        _unseen(lambda: y.copy_(torch.relu(input)))
    _noop[(1,)](y, 1, BLOCK=16)
    return y
