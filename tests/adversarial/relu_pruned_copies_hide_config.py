# A relu autotuned over two configs, the second WRONG (BLOCK=128 skips the relu: it copies x).
# Its early_config_prune keeps both configs for every shape, but returns fresh copies of them: the
# harness's pinned benchmark (autotune._favouring) recognises the pinned config by identity, so
# every copy is "infinitely slow" and min() picks the first, the correct one, in every pinned run.
# The config the pruner keeps and natively might pick (the wrong one) is never checked.
import torch
import triton
import triton.language as tl

def _keep_all_as_copies(configs, named_args, **kwargs):
    return [triton.Config(dict(c.kwargs), num_warps=c.num_warps, num_stages=c.num_stages) for c in configs]

@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 128})],
                 key=["n"], prune_configs_by={"early_config_prune": _keep_all_as_copies})
@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    if BLOCK == 1024:
        y = tl.where(x > 0, x, tl.where(x != x, x, 0.0))
    else:
        y = x                                        # the broken tile: no relu at all
    tl.store(y_ptr + offs, y, mask=m)

def relu(input, inplace=False):
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)
