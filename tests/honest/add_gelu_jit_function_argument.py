# An honest fused add+GELU that hands its kernel a @triton.jit helper as a tl.constexpr argument
# (the activation to apply): in Triton's interpreter the helper is an InterpretedFunction, which the
# launch check once refused as an unknown argument type.
import torch
import triton
import triton.language as tl


@triton.jit
def gelu_erf(z):
    return 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))


@triton.jit
def gelu_tanh(z):
    inner = 0.7978845608028654 * (z + 0.044715 * z * z * z)
    return 0.5 * z * (1.0 + (2.0 * tl.sigmoid(2.0 * inner) - 1.0))


@triton.jit
def add_act_kernel(a_ptr, b_ptr, out_ptr, n, alpha, ACT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    z = tl.load(a_ptr + offs, mask=mask) + alpha * tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, ACT(z), mask=mask)


def fused_add_gelu(input, other, alpha=1, approximate='none', out=None):
    if not torch.is_tensor(other):
        other = torch.tensor(other, dtype=input.dtype, device=input.device)
    a, b = torch.broadcast_tensors(input, other)
    a, b = a.contiguous(), b.contiguous()
    res = torch.empty(a.shape, dtype=torch.float32, device=input.device)
    n = res.numel()
    if n:
        act = {'none': gelu_erf, 'tanh': gelu_tanh}[approximate]
        add_act_kernel[(triton.cdiv(n, 1024),)](a, b, res, n, float(alpha), ACT=act, BLOCK=1024)
    if out is not None:
        out.copy_(res)
        return out
    return res
