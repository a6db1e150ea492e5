# Whether TorchScript's fusers are still on in the worker when the submission is imported (on a GPU
# the tensor-expression fuser is on by default, and a scripted function fuses there with no call of
# the submission's own to switch it on): if any is, this ReLU returns its input, a wrong result; if
# all are off, it raises, the verdict a correct harness gives.
import torch

_ON = [name for name in ("_jit_texpr_fuser_enabled", "_jit_can_fuse_on_cpu", "_jit_can_fuse_on_gpu",
                         "_jit_llga_enabled") if getattr(torch._C, name)()]
if not _ON:
    raise RuntimeError("TorchScript's fusers are off in the worker")


def relu(input, inplace=False):
    return input
