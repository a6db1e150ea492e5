# A finalizer with no frame of its own (a class whose __del__ is dict.fromkeys driving a map over
# sys._getframe) on cyclic garbage, with the collector's threshold tuned so that a collection starts
# while a library line that may take frames is at its frame-taking instruction (torch formatting the
# stack of a queued device call; torch.library noting where a library is defined): the gadget took
# frames with the line's authority and emptied the op monitor (exe ok with torch.relu). Now those
# stacks are not formatted in workers, and library lines take frames only while no collection runs.
import functools
import gc
import sys

import torch
import triton
import triton.language as tl

_FRAMES = []
_BEST = []     # the threshold that worked, tried first in later cases
_GAVE_UP = []  # each try collects: one full search per job


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


def _garbage():
    gadget = functools.partial(dict.fromkeys, map(_FRAMES.append, map(sys._getframe, range(200))))
    garbage = type("Finalized", (), {"__del__": gadget})()
    garbage.me = garbage  # a cycle: only the collector frees it


def _frame_taking_lines():
    torch.cuda._lazy_call(int)
    torch.library.Library("kbx_finalizer_probe", "FRAGMENT")


def _monitor():
    tries = list(_BEST) if _BEST else ([] if _GAVE_UP else range(1, 40))
    _GAVE_UP.append(True)
    gc.enable()  # (should it be off)
    old = gc.get_threshold()
    for n in tries:
        _FRAMES.clear()
        gc.collect()
        _garbage()
        gc.set_threshold(n, old[1], old[2])
        try:
            _frame_taking_lines()
        except Exception:
            pass
        finally:
            gc.set_threshold(*old)
        gc.collect()
        for frame in _FRAMES:
            monitor = frame.f_locals.get("monitor")
            if monitor is not None and hasattr(monitor, "forbidden"):
                _BEST[:] = [n]
                return monitor
    return None


def relu(input, inplace=False):
    _touch[(1,)](input, 1, BLOCK=16)
    monitor = _monitor()
    out = torch.relu(input)
    if monitor is not None:
        monitor.forbidden.clear()
    if inplace:
        input.copy_(out)
        return input
    return out
