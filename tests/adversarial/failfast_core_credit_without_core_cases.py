# class: tier/aggregation hole (core credit from cases that never ran)
# mechanism: a relu kernel that is wrong on EVERY input (max(x, 0.25) instead of max(x, 0), NaN -> 0). Run with
#   `eval --fail-fast`: the parent stops the job at its first wrong call, which is the task's first
#   case "edge-values" (tier edge). judge._stages_from gives exe=wrong with cases=[that one edge case];
#   verdicts.core_passed() then requires all(core cases that ran are ok) over an EMPTY set -> True,
#   so the job gets exe_core_ok=True ("core-correct") without a single core case having run.
#   55 of 184 tasks begin with an edge case (all of Activation/*, most of Math/*, Loss/nll_loss,
#   Loss/cross_entropy, Reduce/min_gelu...).
# target: Activation/relu.py (with --fail-fast)
# verdict got: verdict wrong, but exe_core_ok = True, summary exe_core_rate 1.0 (cases_total core 0, edge 1)
# correct: exe_core_ok False (core cases not run cannot count as passed)
import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x < 0.25, 0.25, x)   # WRONG everywhere there is a value below 0.25
    y = tl.where(x != x, 0.0, y)      # and NaN -> 0 (fails the first, edge, case)
    tl.store(y_ptr + offsets, y, mask=mask)


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
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
