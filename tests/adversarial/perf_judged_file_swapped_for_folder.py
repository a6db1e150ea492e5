# Wrong at perf (its timed repetitions return zeros, like perf_wrong_when_timed.py), yet counted as
# correct: it turns its own perf verdict into `harness_error`, which JobResult.correct does not hold
# against a submission ("a failure of the harness's baseline process does not count against it").
#
# How: torch.save truth-tests the thread-local flag torch.serialization._serialization_tls.skip_data
# for every storage it writes, so an object planted there runs the submission's code inside every
# save the harness makes in the candidate process (exe's call files and perf's saved results). Once
# the candidate opens perf_check_0.pt to save its check-call result, the planted __bool__ renames
# that file away (the harness keeps writing into the renamed inode and signs its digest as usual)
# and makes a folder of the same name. The baseline's judge (perf/server.py _judge_saved) opens the
# path, finds no regular file and returns an integrity verdict -- but its `finally:
# path.unlink(missing_ok=True)` then raises IsADirectoryError, which escapes _judge_saved, the
# baseline process reports a harness error, and the parent ends the perf stage with
# harness_error ("baseline process failed (judging the check call of case 0)"). The timed
# repetition, whose zeros would have been judged wrong, is never judged.
#
# Expected from a correct harness: perf `wrong` ("timed repetition"), not correct; at the very
# least `integrity` (the saved result is not a regular file), never a baseline failure that leaves
# exe_ok true. Run with KERNELBENCHX_PERF_ON_CPU=1 (the CPU stand-in of the perf protocol).
import os

import torch
import triton
import triton.language as tl

_seen = set()  # (shape, value): the top values of every input set seen
_TOP = 16


class _Planted:
    def __bool__(self):  # torch.save: `if _serialization_tls.skip_data:` per storage
        for name in os.listdir("."):
            if name.startswith("perf_") and name.endswith(".pt") and os.path.isfile(name):
                os.rename(name, "moved_" + name)
                os.mkdir(name)
        return False


torch.serialization._serialization_tls.skip_data = _Planted()


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


@triton.jit
def _max_below_kernel(x_ptr, out_ptr, below, n, BLOCK: tl.constexpr):
    best = tl.full((BLOCK,), float("-inf"), tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK).to(tl.int64)
        v = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
        best = tl.maximum(best, tl.where(v < below, v, float("-inf")))
    tl.store(out_ptr, tl.max(best, axis=0))


def _largest(x, below=float("inf")):
    """The largest finite value of ``x`` under ``below``."""
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    _max_below_kernel[(1,)](x, out, below, x.numel(), BLOCK=4096)
    return out.item()


def _top(x, k=_TOP):
    """The ``k`` largest distinct finite values of ``x``."""
    found, below = [], float("inf")
    while len(found) < k:
        below = _largest(x, below)
        if below == float("-inf"):
            break
        found.append(below)
    return found


def relu(input, inplace=False):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    key = (tuple(x.shape), _largest(x)) if x.numel() and not inplace else None
    if key is not None and key in _seen:  # a timed repetition (a set seen before): no work
        return y.zero_().view(input.shape)
    if key is not None:
        _seen.update((key[0], v) for v in _top(x))
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)
