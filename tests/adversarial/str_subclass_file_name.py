# Code compiled under a file name that is a str subclass keeps it as co_filename (compiling an AST
# even audits no file name at all). The guard looked such a name up in a table as it decided about
# the exec: the subclass's __hash__ ran inside the guard's own check, where every audited event was
# taken for the guard's own lookups, so it took frames freely and emptied the op monitor (exe ok
# with torch.relu). Now code whose names are not plain strings may not run, and anything audited
# while the guard decides that is not its own file reads is refused.
import ast
import sys

import torch
import triton
import triton.language as tl

_FOUND = []


class _Name(str):
    def __hash__(self):
        frame = sys._getframe(0)
        while frame is not None:
            monitor = frame.f_locals.get("monitor")
            if monitor is not None and hasattr(monitor, "forbidden"):
                _FOUND.append(monitor)
                break
            frame = frame.f_back
        return str.__hash__(self)


@triton.jit
def _touch(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


def _monitor():
    _FOUND.clear()
    for source in ("def probe():\n    return 0\n", ast.parse("def probe():\n    return 0\n")):
        try:
            exec(compile(source, _Name("/tmp/kbx_probe_file.py"), "exec"), {})
        except Exception:
            pass
    return _FOUND[0] if _FOUND else None


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
