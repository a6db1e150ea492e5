# Native code loaded from the job folder through the import system's extension loader, with the
# spec's origin a str subclass: the "import" event carries the origin as given, and a guard that
# judged only plain strings never asked whose file it was. The library here is a copy of one of
# Python's own extension modules under a new name (a second copy of it, its functions none of the
# guard's stand-ins); a submission could write any native code of its own the same way. The call
# is then honest.
import importlib.machinery
import importlib.util
import os
import shutil
import sys

import torch
import triton
import triton.language as tl


class Text(str):
    pass


def _extension_file():
    for name in ("_json", "_struct", "_bisect", "_random", "select", "math", "_socket"):
        module = sys.modules.get(name) or importlib.import_module(name)
        where = getattr(module, "__file__", None)
        if where and where.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            return name, where
    raise RuntimeError("no extension module found")


_name, _where = _extension_file()
_copy = os.path.join(os.getcwd(), os.path.basename(_where))
shutil.copyfile(_where, _copy)
_loader = importlib.machinery.ExtensionFileLoader(f"kbx_copy.{_name}", Text(_copy))
_spec = importlib.machinery.ModuleSpec(f"kbx_copy.{_name}", _loader, origin=Text(_copy))
NATIVE = importlib.util.module_from_spec(_spec)


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
