# CLASS: autotune config hiding by answering later config passes from a cache (result reuse).
# TARGET: harness/tasks/Activation/relu.py
# HOW: the kernel is autotuned over two configs; BLOCK=128 is broken (it copies x, no relu).
#   harness/sandbox/worker.py runs the whole case list once per config index (config-major:
#   pass 0 = every case under config 0, pass 1 = every case under config 1) on the same input
#   values. The wrapper keys each call by (shape, strides, inplace, 4 probe values read with
#   .item(), 4 of the 128 allowed scalar reads) and, when it has seen the key before (i.e. in pass
#   1), launches the pinned (broken) config into a scratch buffer and returns a .clone() of the
#   result it kept from pass 0. The clone is memory made during the call, the copy is an allowed
#   op (relu is not DATA_MOVEMENT), and a Triton launch happened, so every rule passes while the
#   broken config's output is never judged.
# VERDICT GOT: exe ok.  CORRECT VERDICT: wrong (case edge-values with config BLOCK=128), which the
#   same file without the cache gets (control: replace `if key in _seen:` by `if False:`).
import torch
import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 128})], key=["n"])
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

_seen = {}

def _key(x, inplace):
    n = x.numel()
    probe = tuple(repr(x.reshape(-1)[i].item()) for i in sorted({0, n // 3, n // 2, n - 1}) if n)
    return (tuple(x.shape), tuple(x.stride()), bool(inplace), probe)

def relu(input, inplace=False):
    key = _key(input, inplace)
    x = input.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n:
        _relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
    if key in _seen:                 # a later pass over the same case (another config): answer from the first
        y = _seen[key].clone()
    else:
        _seen[key] = y.clone()
    if inplace:
        input.copy_(y.view(input.shape))
        return input
    return y.view(input.shape)
