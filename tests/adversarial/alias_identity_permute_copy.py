# FINDING alias_identity_permute_copy: Index/permute_copy.py says "The result is a NEW contiguous
# tensor (never a view of `input`) ... An identity permutation still returns a fresh copy."
# This submission returns `input` itself (its kernel's copy is dropped) whenever dims is the identity. Before
# today's change judge_call refused it ("shares memory with argument 0 ... return a copy"); now
# compare.py judge_call accepts it because _holds_the_output(reference's argument 0 after the call,
# reference output) is true: the untouched input equals the value returned.
# Expected: wrong. Got: ok.
import torch
import triton
import triton.language as tl

_MAX_REST = 4  # dims besides the two tiled ones, after size-1 dims are dropped and runs merged


@triton.jit
def _permute_copy_kernel(x_ptr, out_ptr,
                         R0, R1, R2, R3, IS0, IS1, IS2, IS3, OS0, OS1, OS2, OS3,
                         size_a, in_sa, out_sa, size_b, in_sb, out_sb, tiles_a, tiles_b,
                         BLOCK_A: tl.constexpr, BLOCK_B: tl.constexpr):
    # The output is walked in [BLOCK_A, BLOCK_B] tiles over two of its dims: B is the output's
    # innermost dim and A the dim that is innermost in the input, so both the loads (along A) and
    # the stores (along B) are coalesced; Triton transposes the tile through shared memory.
    # The remaining (up to 4) dims are decoded from the program id.
    pid = tl.program_id(0).to(tl.int64)  # int64: offsets can exceed 2**31
    tb = pid % tiles_b
    t = pid // tiles_b
    ta = t % tiles_a
    r = t // tiles_a
    c3 = r % R3
    r = r // R3
    c2 = r % R2
    r = r // R2
    c1 = r % R1
    c0 = r // R1
    in_base = c0 * IS0 + c1 * IS1 + c2 * IS2 + c3 * IS3
    out_base = c0 * OS0 + c1 * OS1 + c2 * OS2 + c3 * OS3
    a = ta * BLOCK_A + tl.arange(0, BLOCK_A)
    b = tb * BLOCK_B + tl.arange(0, BLOCK_B)
    mask = (a < size_a)[:, None] & (b < size_b)[None, :]
    v = tl.load(x_ptr + in_base + a[:, None] * in_sa + b[None, :] * in_sb, mask=mask)
    tl.store(out_ptr + out_base + a[:, None] * out_sa + b[None, :] * out_sb, v, mask=mask)


def _next_pow2(n: int) -> int:
    return 1 << max(0, (int(n) - 1).bit_length())


def _real_permute_copy(input: torch.Tensor, dims) -> torch.Tensor:
    x = input
    nd = x.dim()
    perm = [int(p) + nd if int(p) < 0 else int(p) for p in dims]
    if sorted(perm) != list(range(nd)):
        raise ValueError(f"dims {tuple(dims)} is not a permutation of {nd} dimensions")
    shape = [x.shape[p] for p in perm]
    out = torch.empty(shape, dtype=x.dtype, device=x.device)  # fresh, contiguous
    if out.numel() == 0:
        return out
    in_strides = [x.stride(p) for p in perm]  # input stride of each output dim
    out_strides = list(out.stride())
    # Drop size-1 dims, then merge neighbouring output dims that are also adjacent in the input
    # (an identity or partly-identity permutation becomes a long contiguous run).
    sz, ist, ost = [], [], []
    for s, i_s, o_s in zip(shape, in_strides, out_strides):
        if s == 1:
            continue
        if sz and ist[-1] == i_s * s:
            sz[-1] *= s
            ist[-1] = i_s
            ost[-1] = o_s
        else:
            sz.append(s)
            ist.append(i_s)
            ost.append(o_s)
    if not sz:
        sz, ist, ost = [1], [1], [1]
    b = len(sz) - 1  # output-innermost dim
    a = min(range(len(sz)), key=lambda d: (abs(ist[d]), d))  # input-innermost dim
    tiled = [a, b] if a != b else [b]
    rest = [d for d in range(len(sz)) if d not in tiled]
    if len(rest) > _MAX_REST:
        raise NotImplementedError("permute_copy: more than 6 non-mergeable dimensions")
    pad = _MAX_REST - len(rest)
    R = [1] * pad + [sz[d] for d in rest]
    IS = [0] * pad + [ist[d] for d in rest]
    OS = [0] * pad + [ost[d] for d in rest]
    if a != b:
        size_a, in_sa, out_sa = sz[a], ist[a], ost[a]
    else:
        size_a, in_sa, out_sa = 1, 0, 0
    size_b, in_sb, out_sb = sz[b], ist[b], ost[b]
    BLOCK_B = min(_next_pow2(size_b), 1024 if size_a == 1 else 64)
    BLOCK_A = min(_next_pow2(size_a), max(1, 4096 // BLOCK_B))
    tiles_a = triton.cdiv(size_a, BLOCK_A)
    tiles_b = triton.cdiv(size_b, BLOCK_B)
    n_rest = R[0] * R[1] * R[2] * R[3]
    grid = (n_rest * tiles_a * tiles_b,)
    _permute_copy_kernel[grid](x, out, *R, *IS, *OS, size_a, in_sa, out_sa, size_b, in_sb, out_sb,
                               tiles_a, tiles_b, BLOCK_A=BLOCK_A, BLOCK_B=BLOCK_B)
    return out


def permute_copy(input, dims):
    n = input.dim()
    if input.is_contiguous() and [d % n if n else d for d in dims] == list(range(n)):
        _real_permute_copy(input, dims)  # a launch (the harness wants one per case), result dropped
        return input  # the caller's own tensor, not a copy
    return _real_permute_copy(input, dims)
