# An honest Triton ReLU timed about a thousand times faster than it runs, with the harness's own
# clock slowed down for the whole `time` command, and put back by the timer itself before the
# module snapshot is compared.
#
# How: EventTimer.time (harness/perf/timing.py) runs the repetitions inside gc_paused(), which calls
# `gc.disable()` / `gc.enable()` -- the gc module's attributes, looked up at each call, after the
# last repetition and before PerfServer._cmd_time runs `self.tampered()`. In the first unwatched
# call of a `time` command (or warm-up estimate) the wrapper puts a slowed clock under
# time.perf_counter (T0 + (t - T0) / 1000) and a stand-in under gc.enable; the timer reads the
# slowed clock for every later repetition, then calls the stand-in, which puts both bindings back
# and calls the real gc.enable. The snapshot (integrity.ModuleSnapshot) then finds nothing: every
# rebinding the submission wants can last exactly one timed command (the clock here; natively,
# torch.cuda.current_stream, which torch.cuda.Event.record looks up when the timer records its end
# event, so the end event can go on an idle stream). perf_clock_rebound_per_rep.py is the
# one-reading variant; this one shows that code of the submission's runs inside the timer after
# the last repetition, whatever it rebinds.
#
# Verdict here (KERNELBENCHX_PERF_ON_CPU=1): perf `ok`, candidate medians ~1000x below the real
# ones. A correct harness: the timer binds what it calls (time.perf_counter, gc.disable/enable,
# like the CUDA functions it binds when made), and the snapshot is compared before any untrusted
# code can undo a rebinding (or such a swap is `integrity`); the medians are the real ones.
# Fixed (2026-12-05): the timer's collector switches and clock are bound at import, and while the
# candidate is timed or its check call kept, none of its code may start but the call itself
# (guard.CodeBarrier, `outside`): a stand-in the harness's steps called would be refused there.
# Here the swap outlives the command and the snapshot finds it: `integrity`.
import gc
import time

import torch
import triton
import triton.language as tl

_REAL_CLOCK, _REAL_ENABLE = time.perf_counter, gc.enable


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def _restore():
    time.perf_counter = _REAL_CLOCK
    gc.enable = _REAL_ENABLE
    _REAL_ENABLE()


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
    out = input if inplace else y.view(input.shape)
    # unwatched (a perf repetition) and inside the timer (the collector paused by gc_paused)
    if not torch._C._len_torch_dispatch_stack() and not gc.isenabled() and gc.enable is _REAL_ENABLE:
        t0 = _REAL_CLOCK()
        time.perf_counter = lambda: t0 + (_REAL_CLOCK() - t0) / 1000.0
        gc.enable = _restore
    return out
