# torch.save with a file name opens it natively (no audit event, so the guard never sees the path):
# "/proc/self/fd/0" reopened the worker's stdin, the parent's command pipe, for writing, and a
# megabyte written there filled it and left the worker blocked in its import. When the import
# timed out, the parent's farewell command to the worker was a blocking write into that full pipe:
# the run never ended and wrote no report. A command now waits for room in the pipe a bounded time
# (none for the farewell, before the kill), and the job is the import's `timeout`.
import torch
import triton
import triton.language as tl

torch.save(torch.zeros(1 << 18), "/proc/self/fd/0")


@triton.jit
def _k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(y_ptr + o, tl.maximum(tl.load(x_ptr + o, mask=m), 0.0), mask=m)


def relu(input, inplace=False):
    y = torch.empty_like(input)
    _k[(triton.cdiv(input.numel(), 1024),)](input, y, input.numel(), BLOCK=1024)
    return y
