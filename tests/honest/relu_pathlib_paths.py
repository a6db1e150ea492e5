# An honest ReLU that names files with pathlib inside its own job folder and looks at a library's
# files (pathlib's own paths are read by the guard; only objects of a submission's own class are
# refused as paths), and lists and looks at its folder's entries through os.scandir.
import os
from pathlib import Path

import torch
import triton
import triton.language as tl

HERE = Path.cwd()
TRITON_HOME = Path(triton.__file__).parent
assert (TRITON_HOME / "__init__.py").exists()


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def relu(input, inplace=False):
    note = HERE / "notes" / "last_shape.txt"
    note.parent.mkdir(exist_ok=True)
    note.write_text(str(tuple(input.shape)))
    assert os.stat(note).st_size > 0 and note.read_text()
    for entry in os.scandir(HERE):
        os.stat(entry)
    x = input.contiguous()
    y = x if inplace and x is input else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
