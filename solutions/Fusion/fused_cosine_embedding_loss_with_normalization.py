import torch
import triton
import triton.language as tl

_TILE = 4096          # elements of one [BLOCK_R, BLOCK_D] tile
_MAX_BLOCK_D = 1024   # longer rows are streamed in chunks
_BLOCK_FINAL = 1024


@triton.jit
def _cos_emb_kernel(a_ptr, b_ptr, t_ptr, out_ptr, part_ptr, R, D, sar, sad, sbr, sbd, margin,
                    REDUCE: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_D: tl.constexpr):
    # One pass over each row pair gathers <a, b>, |a|^2 and |b|^2; normalizing both rows first and
    # then taking the dot product equals <a, b> / (max(|a|, 1e-12) max(|b|, 1e-12)), so the
    # normalized rows are never formed.
    pid = tl.program_id(0)
    r = pid.to(tl.int64) * BLOCK_R + tl.arange(0, BLOCK_R)
    rmask = r < R
    cols = tl.arange(0, BLOCK_D)
    dot = tl.zeros([BLOCK_R], dtype=tl.float32)
    na = tl.zeros([BLOCK_R], dtype=tl.float32)
    nb = tl.zeros([BLOCK_R], dtype=tl.float32)
    for d0 in range(0, D, BLOCK_D):
        d = (d0 + cols).to(tl.int64)
        mask = rmask[:, None] & (d < D)[None, :]
        a = tl.load(a_ptr + (r * sar)[:, None] + d[None, :] * sad, mask=mask, other=0.0)
        b = tl.load(b_ptr + (r * sbr)[:, None] + d[None, :] * sbd, mask=mask, other=0.0)
        dot += tl.sum(a * b, axis=1)
        na += tl.sum(a * a, axis=1)
        nb += tl.sum(b * b, axis=1)
    cos = dot / (tl.maximum(tl.sqrt(na), 1e-12) * tl.maximum(tl.sqrt(nb), 1e-12))
    t = tl.load(t_ptr + r, mask=rmask, other=0)
    loss = tl.where(t == 1, 1.0 - cos, tl.where(t == -1, tl.maximum(cos - margin, 0.0), 0.0))
    loss = tl.where(rmask, loss, 0.0)
    if REDUCE:
        tl.store(part_ptr + pid, tl.sum(loss, axis=0))
    else:
        tl.store(out_ptr + r, loss, mask=rmask)


@triton.jit
def _finalize_kernel(part_ptr, out_ptr, num_partials, scale, BLOCK: tl.constexpr):
    # one program sums the per-block partials in a fixed order (deterministic, no atomics)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < num_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


def fused_cosine_embedding_loss_with_normalization(input1, input2, target, margin=0, reduction="mean"):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    R, D = input1.shape
    t = target.contiguous()
    BLOCK_D = min(triton.next_power_of_2(max(D, 1)), _MAX_BLOCK_D)
    BLOCK_R = max(1, min(_TILE // BLOCK_D, triton.next_power_of_2(max(R, 1))))
    grid = (triton.cdiv(R, BLOCK_R),)
    out = torch.empty((R,) if reduction == "none" else (), dtype=torch.float32, device=input1.device)
    part = torch.empty(max(grid[0], 1), dtype=torch.float32, device=input1.device)
    if R:
        _cos_emb_kernel[grid](input1, input2, t, out, part, R, D, input1.stride(0), input1.stride(1),
                              input2.stride(0), input2.stride(1), float(margin), REDUCE=reduction != "none",
                              BLOCK_R=BLOCK_R, BLOCK_D=BLOCK_D, num_warps=8)
    if reduction != "none":
        scale = (1.0 / R if R else float("nan")) if reduction == "mean" else 1.0
        _finalize_kernel[(1,)](part, out, grid[0] if R else 0, scale, BLOCK=_BLOCK_FINAL)
    return out
