# Generated code the submission runs counts as its own, and functions generated for it may be
# rebound (namedtuple sets its __new__'s defaults). The harness's CallRecord dataclass has a
# generated __init__ ("<string>"), found through object.__subclasses__(): the submission ran its code
# object with exec, so it was counted as the submission's, and then gave that __init__ the code of a
# function of its own, which the harness ran on every call's result. Only code compiled from text
# just now by the frame that runs it may be rebound as the submission's: refused.
import torch
import triton
import triton.language as tl

_STATE = {"done": False, "ran": 0}


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


def _fake_init(self, output, args_after, kwargs_after, aliases, *, _state=None):
    _state["ran"] += 1
    self.output = output
    self.args_after = args_after
    self.kwargs_after = kwargs_after
    self.aliases = aliases


def _hijack():
    if _STATE["done"]:
        return
    cls = next(c for c in object.__subclasses__() if c.__name__ == "CallRecord")
    init = cls.__dict__["__init__"]
    try:
        exec(init.__code__)  # the audit event comes first: own(code)
    except TypeError:
        pass
    init.__code__ = _fake_init.__code__  # a harness function's code rebound
    init.__kwdefaults__ = {"_state": _STATE}
    _STATE["done"] = True


def relu(input, inplace=False):
    _hijack()
    if _STATE["ran"] >= 1:
        raise RuntimeError(f"harness CallRecord.__init__ now runs the submission's code ({_STATE['ran']} calls)")
    return _honest(input, inplace)


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, tl.where(x < 0.0, 0.0, x), mask=mask)


def _honest(input, inplace):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
