# Native code through Triton's autotuner: early_config_prune (a Python function of this file, so the
# launch check passes it) returns a new Config whose pre_hook was never checked, a functools.partial
# over map(torch.ops.load_library, ...): Triton calls it, and torch asks ctypes to load a library
# with Triton's autotuner as the caller (a library of the submission's, written into its job
# directory, would run its constructor in the worker; one of torch's own stands in for it here). The
# autotuner is kept in a list, where the harness does not pin its configs.
import functools
import os

import torch
import triton
import triton.language as tl

LIBRARY = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_global_deps.so")


def _prune(configs, nargs, **kwargs):
    return [triton.Config({"BLOCK": 16}, pre_hook=functools.partial(sum, map(torch.ops.load_library, [LIBRARY])))]


@triton.jit
def _loader(x_ptr, n, BLOCK: tl.constexpr):
    tl.program_id(0)


_HIDDEN = [triton.autotune(configs=[triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 32})], key=["n"],
                           prune_configs_by={"early_config_prune": _prune})(_loader)]


def relu(input, inplace=False):
    try:
        _HIDDEN[0][(1,)](torch.empty(1, device=input.device), 1)  # natively kernels take device tensors only
    except TypeError:
        pass  # sum(None, ...) once the library is loaded
    raise RuntimeError("the library was loaded")
