# FINDING dropout_repeats_across_config_passes: Fusion/fused_hardshrink_dropout.py with two
# (equivalent) autotune configs and a mask seed that is the call count mod 20 (the task's non-empty
# cases per pass). Every call of a pass has a fresh mask; the second config pass repeats the first's
# masks exactly in the same worker process. dropout_checks.check_dropout's history is built by the
# task's cases(), now drawn anew per config pass (task.correctness_cases(config=...), PassInputs),
# so the repeat is never compared. Expected: wrong ("the seed is not fresh per call"). Got: ok.
# At 11c3246: exe wrong ("mask bits equal to those of the earlier call"). Run as {"file": "Fusion/fused_hardshrink_dropout.py", "predict": <this file>}.
import os
_CALLS = 0

import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({}, num_warps=4), triton.Config({}, num_warps=8)], key=["n"])
@triton.jit(do_not_specialize=["seed", "p", "scale", "lambd"])
def _hardshrink_dropout_kernel(x_ptr, y_ptr, d_ptr, n, seed, p, scale, lambd,
                               TRAINING: tl.constexpr, WRITE_D: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: inputs can exceed 2**31
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if TRAINING:
        # Philox keyed by the call's seed, counter = the element's global index: every element
        # gets its own independent draw, and a new seed per call gives a new mask.
        r = tl.rand(seed, offs)
        d = tl.where(r >= p, x * scale, 0.0)  # kept with probability 1 - p
    else:
        d = x
    if WRITE_D:  # inplace=True: input becomes the dropout result
        tl.store(d_ptr + offs, d, mask=mask)
    # NaN fails both comparisons and passes through, as in PyTorch
    y = tl.where((d >= -lambd) & (d <= lambd), 0.0, d)
    tl.store(y_ptr + offs, y, mask=mask)


def fused_hardshrink_dropout(input, p=0.5, training=True, inplace=False, lambd=0.5):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    write_d = bool(inplace and training)
    # in-place on a non-contiguous input: write d into the contiguous copy, then copy it back
    d = x if write_d else y
    if n:
        global _CALLS
        _CALLS += 1
        seed = (0x9E3779B1 * (1 + _CALLS % 20)) & 0x7FFFFFFF  # 20 seeds: one per non-empty case of a pass
        scale = 0.0 if p >= 1.0 else 1.0 / (1.0 - p)
        BLOCK = 1024
        _hardshrink_dropout_kernel[(triton.cdiv(n, BLOCK),)](
            x, y, d, n, seed, float(p), scale, float(lambd),
            TRAINING=bool(training), WRITE_D=write_d, BLOCK=BLOCK)
        if write_d and x.data_ptr() != input.data_ptr():
            input.copy_(x)
    return y.view(input.shape)
