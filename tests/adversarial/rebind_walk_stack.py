# As rebind_format_stack.py, one step further in: traceback.walk_stack, which the real format_stack
# reaches through extract_stack, set to the gadget, so the frames are taken with traceback's own
# extract_stack innermost (one of the walkers allowed on those lines). Refused the same way.
import functools
import sys
import traceback

import torch
import triton
import triton.language as tl

_FRAMES = []


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


def _monitor():
    _FRAMES.clear()
    real = traceback.walk_stack
    traceback.walk_stack = functools.partial(dict.fromkeys, map(_FRAMES.append, map(sys._getframe, range(200))))
    try:
        torch.cuda.manual_seed_all(0)
    except Exception:
        pass
    finally:
        traceback.walk_stack = real
    for frame in _FRAMES:
        found = frame.f_locals.get("monitor")
        if found is not None and hasattr(found, "forbidden"):
            return found
    return None


def relu(input, inplace=False):
    _touch[(1,)](input, 1, BLOCK=16)
    monitor = _monitor()
    y = torch.relu(input)
    if monitor is not None:
        monitor.forbidden.clear()
    if inplace:
        input.copy_(y)
        return input
    return y
