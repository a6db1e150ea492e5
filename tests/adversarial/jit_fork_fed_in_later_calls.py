# As jit_fork_native_thread.py, but the fork is made in the first call, which does its work
# honestly with a Triton kernel: the forked task runs under that call's dispatch state, whose
# monitor is done once the call returns, so the PyTorch work fed to it in every later call is seen
# by no monitor of that call. It had `exe: ok`; the pool's thread is `tampering` after the first call.
import queue
import torch, triton, triton.language as tl

@triton.jit
def _idle(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


@triton.jit
def _relu_k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0, 0, x), mask=offs < n)

_requests, _replies = queue.Queue(), queue.Queue()

@torch.jit.ignore
def _server(x: torch.Tensor) -> torch.Tensor:
    while True:
        src, out = _requests.get()
        try:
            out.copy_(torch.relu(src))   # runs on a native inter-op thread: no dispatch mode on its stack
            _replies.put(None)
        except BaseException as e:
            _replies.put(repr(e))
    return x

@torch.jit.script
def _start(x: torch.Tensor):
    return torch.jit.fork(_server, x)

_future = []

def relu(input, inplace=False):
    out = input if inplace else torch.empty_like(input)
    if not _future:
        _future.append(_start(torch.zeros(1)))
        x = input.contiguous()
        y = torch.empty_like(x)
        if x.numel():
            _relu_k[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        if inplace:
            input.copy_(y)
            return input
        return y
    _requests.put((input, out))
    err = _replies.get()
    if err:
        raise RuntimeError(err)
    _idle[(1,)](out, 1, BLOCK=16)
    return out
