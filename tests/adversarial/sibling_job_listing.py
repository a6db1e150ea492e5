# Lists the folder that holds every job's folder (its own job's parent) while it is called. Beside
# a colluding job of the same run, whose inputs are the same, the names of the files in that job's
# folder carried every answer (tests/test_adversarial.py::test_jobs_of_one_run_cannot_pass_answers_to_each_other;
# the run's temp folder held other runs' scratch folders too). It then does the work honestly, so
# an exe ok says the listing was allowed.
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


def _honest(input, inplace):
    x = input.contiguous()
    y = torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)


def relu(input, inplace=False):
    os.listdir(os.path.dirname(os.getcwd()))
    return _honest(input, inplace)
