# An honest Triton ReLU whose timed repetitions are reported about a thousand times faster than they
# ran: the host clock the perf timer reads is rebound for one reading at a time.
#
# How: on the CPU the timer (harness/perf/timing.py EventTimer._time_on_host) reads
# `time.perf_counter()` -- the `time` module's attribute, looked up at each call -- before and after
# each repetition. When no dispatch mode is on the stack (a timed, warm-up or estimate call, not an
# exe case or the watched check call), the wrapper does its honest work and, just before it returns,
# puts a stand-in under time.perf_counter. The harness's next reading is the end of the timed
# interval: the stand-in puts the real function back at once and returns the time the wrapper was
# entered. The module snapshot (integrity.ModuleSnapshot) is only compared after
# the whole `time` command (PerfServer.tampered), when the binding is the real one again: nothing
# is found, and the timed median is about a microsecond whatever the kernel costs.
# The parent takes any number as a time: a stand-in returning `entered - 0.5` gave medians of
# -500 ms, NaN gave NaN, inf gave inf, all perf `ok` (run/perf_stage.py _time_side checks only how
# many there are).
# (Natively the same idea applies to the CUDA-event path: torch.cuda.Event.record looks up
# torch.cuda.current_stream() at call time, so the end event can be recorded on another stream.)
#
# Verdict here: perf `ok` with a forged speedup. A correct harness: the timer's clock cannot be
# swapped (bind time.perf_counter in timing.py when it is imported, as the CUDA functions are), or
# the swap is found as tampering (`integrity`), and the medians are the real ones.
# Fixed (2026-12-05): the timer reads a clock bound when timing.py is imported, records its events on
# the stream it names, and the parent refuses a time that is not a positive finite number; the swap
# itself is then found by the snapshot after the command: `integrity` ("rebinds time.perf_counter").
import time

import torch
import triton
import triton.language as tl

_REAL = time.perf_counter


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def _relu(input, inplace):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)


def relu(input, inplace=False):
    entered = _REAL()
    out = _relu(input, inplace)
    if not torch._C._len_torch_dispatch_stack():   # not watched: a perf repetition

        def reading():
            time.perf_counter = _REAL             # one reading only
            return entered

        time.perf_counter = reading
    return out
