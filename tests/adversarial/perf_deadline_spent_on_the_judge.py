# Wrong at perf sizes (every timed repetition returns zeros), yet counted as correct: the submission
# spends the perf stage's time so that the deadline runs out while the parent waits for the trusted
# baseline process, which the parent then reports as a failure of the harness.
#
# How: run/perf_stage.py run_perf sets ONE deadline (`candidate.clock.now() + limits.perf`) for the
# candidate's and the baseline's requests alike, right before the candidate's first perf warm-up
# call. The submission notes the time of its first unwatched call (no dispatch mode on the stack:
# a perf warm-up call; exe calls and check calls are watched) and, in the check call of the last
# perf case, waits (sleeping, then busy for the last 20 ms) until shortly before that deadline (the
# limit is public: config.StageLimits.perf, 300 s by default; this file assumes --perf-timeout 8),
# then returns the right answer. The parent next asks the baseline for its reference check call of
# that case (_check_call -> baseline.request(CMD_CHECK, ..., deadline)); the deadline passes while it
# runs, `_baseline_failed` makes that HARNESS_ERROR ("baseline process failed (reference check call
# of case 1): timed out"), and JobResult.correct does not hold a harness error against the
# submission: the zeros of the timed repetitions are never judged (exe_ok true). Any submission that
# would be `wrong` or `timeout` in perf can try the same.
#
# It is a race: on the CPU stand-in the baseline's window is the ~1.5 ms of that check call, and the
# submission knows the deadline to a few ms (half of the runs here hit it; the others end `timeout`,
# which costs the cheater nothing it had not lost anyway). Natively the baseline's windows are much
# wider (eager and torch.compile timing rounds of ~10 ms each, reference calls at perf size).
#
# Run: KERNELBENCHX_PERF_ON_CPU=1 ... --perf-timeout 8. Verdict here: perf `harness_error`
# (about one run in two), exe_ok true. A correct harness: perf `timeout` (the candidate spent the
# stage's time: the baseline's requests need a deadline of their own, or a baseline that misses a
# deadline the candidate used up is the candidate's timeout), or `wrong` (timed repetition).
# Fixed (2026-12-05): a request to the baseline gets BASELINE_GRACE_S past the stage's deadline
# (run/perf_stage.py _for_baseline); the candidate's next request then finds the deadline passed:
# perf `timeout`, never a harness error.
import time

import torch
import triton
import triton.language as tl

PERF_LIMIT_S = 8.0    # --perf-timeout of the run (default 300: config.StageLimits.perf)
MARGIN_S = 0.047      # left for the parent: inside the baseline's reference check call of the last case
PERF_CASES = 2        # Activation/relu's perf cases in CPU mode

_state = {"perf_start": None, "checks": 0}


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


@triton.jit
def _zero_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), tl.float32), mask=offs < n)


def _run(kernel_relu, input, inplace):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        if kernel_relu:
            _relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        else:
            _zero_kernel[(triton.cdiv(n, 1024),)](y, n, BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)


def relu(input, inplace=False):
    watched = bool(torch._C._len_torch_dispatch_stack())
    if not watched:
        if _state["perf_start"] is None:
            _state["perf_start"] = time.monotonic()
        # the warm-up calls must be right (they size nothing the judge sees); timed ones are zeros
        return _run(_state["checks"] < 0, input, inplace)
    if _state["perf_start"] is not None:   # a perf check call
        _state["checks"] += 1
        if _state["checks"] == PERF_CASES:
            until = _state["perf_start"] + PERF_LIMIT_S - MARGIN_S
            while time.monotonic() < until - 0.02:
                time.sleep(0.005)
            while time.monotonic() < until:   # the last stretch busy: no oversleeping
                pass
    return _run(True, input, inplace)
