"""ReLU then 2-D fractional max pooling (random pseudo-random pooling regions) of float32 maps."""

import math

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_fractional_max_pool2d_with_relu"
SIGNATURE = ("fused_fractional_max_pool2d_with_relu(input, kernel_size, output_size=None, output_ratio=None, "
             "return_indices=False)")
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["output_ratio", "output_size", "return_indices"]
DIFFICULTY = 4
DESCRIPTION = """
Apply ReLU to `input`, then 2-D fractional max pooling, like
torch.nn.functional.fractional_max_pool2d(torch.relu(input), kernel_size, output_size=output_size,
output_ratio=output_ratio, return_indices=return_indices). `input` is float32 of shape
(N, C, H, W) or (C, H, W), possibly non-contiguous, with finite values. `kernel_size` is an int k or
a pair (k_h, k_w). Exactly one of `output_size` (an int or a pair (OH, OW)) and `output_ratio` (a
pair of floats in (0, 1)) is given; a ratio r means OH = int(H * r_h), OW = int(W * r_w)
(truncated). OH + k_h - 1 <= H and OW + k_w - 1 <= W.
Every (n, c) plane draws its own two random samples u_h, u_w, uniform in [0, 1), fresh on every call
(the result is random: it is checked by its properties, not against PyTorch's numbers). Along the
height, with alpha = (H - k_h) / (OH - 1), the window of output row i starts at
floor((i + u_h) * alpha) - floor(u_h * alpha) for i < OH - 1, and the last one at H - k_h (a single
output row starts at H - k_h); the same with u_w, W, k_w, OW for columns. Output (i, j) is the
maximum of relu(input) over rows [start_i, start_i + k_h) x columns [start_j, start_j + k_w).
Return the float32 output of shape (N, C, OH, OW) (or (C, OH, OW)); with return_indices=True return a
tuple (output, indices) where indices is int64 of the same shape holding, for each output, the
position h * W + w within its input plane of an element where the maximum is attained. The input
must not be modified.
"""


def reference(input, kernel_size, output_size=None, output_ratio=None, return_indices=False):
    return F.fractional_max_pool2d(F.relu(input), kernel_size, output_size=output_size,
                                   output_ratio=output_ratio, return_indices=return_indices)


def cost(case: Case, output) -> Cost:
    x = case.args[0]
    outs = output if isinstance(output, (tuple, list)) else (output,)
    args = bind_arguments(reference, case)
    k = args["kernel_size"]
    kh, kw = (k, k) if isinstance(k, int) else k
    out0 = outs[0]
    # one compare per window element of every output, one max(0, .) per input element
    return Cost(flops=float(x.numel() + out0.numel() * kh * kw),
                bytes=float(numel_bytes(x) + sum(numel_bytes(t) for t in outs)))


# -- checking --------------------------------------------------------------------------------------
# The pooling regions are random, so the result is judged by what defines it: for every plane there
# must be samples (u_h, u_w) in [0, 1) whose windows (the formula above) give exactly this output
# (a max selects an element, so no rounding is involved) and, with return_indices, indices that
# point inside those windows at an element equal to the output. A sample only matters through the
# start sequence it produces, and there are at most ~H + 1 such sequences per axis (the sequence
# changes only where (i + u) * alpha crosses an integer), so every candidate sequence is enumerated
# (evaluated in float32 like PyTorch, at every breakpoint and between neighbouring ones) and each
# plane must match at least one (row sequence, column sequence) pair.
# Randomness: on the cases listed in _FRESH (64 planes, uniform positive data, many distinct
# sequences) a single pair that explains every plane means the samples are not drawn per plane (one
# shared or fixed sample); for samples drawn per plane this happens with a probability far below
# 1e-9 there, since each plane's windows then differ from a given pair's with probability >= 1/2.
_FRESH = {"fresh-samples", "fresh-samples-indices"}
# Perf-sized outputs (re-checked after timing) have too many sequence pairs to enumerate: there a
# few planes are checked per window instead -- row i's window starts within one of
# floor(i * alpha) + {-1, 0, 1} (the sample only adds a fraction below 1 before the floor; the
# -1 covers float32 rounding), likewise for columns, and every output must be the maximum over a
# window whose row option fits its whole row and whose column option fits its whole column; indices
# must lie in such a window. That relaxes only the coupling between rows, never a window's maximum.
_EXACT_LIMIT = 5e8


def _sequences(n_in: int, n_out: int, k: int) -> torch.Tensor:
    """All start sequences (rows of an int64 tensor) some sample u in [0, 1) produces."""
    if n_out == 1:
        return torch.tensor([[n_in - k]], dtype=torch.int64)
    alpha32 = torch.tensor(float(n_in - k), dtype=torch.float32) / torch.tensor(float(n_out - 1), dtype=torch.float32)
    alpha = alpha32.double().item()
    bps = {0.0}
    for i in range(n_out):  # u where (i + u) * alpha is an integer
        lo, hi = math.ceil(i * alpha), math.floor((i + 1) * alpha)
        for m in range(lo, hi + 1):
            u = m / alpha - i if alpha > 0 else 0.0
            if 0.0 <= u < 1.0:
                bps.add(u)
    pts = sorted(bps)
    cand = pts + [(a + b) / 2 for a, b in zip(pts, pts[1:] + [1.0])]
    cand += [math.nextafter(p, 0.0) for p in pts if p > 0] + [math.nextafter(p, 1.0) for p in pts]
    u = torch.tensor([c for c in cand if 0.0 <= c < 1.0], dtype=torch.float32)
    i = torch.arange(n_out - 1, dtype=torch.float32)
    starts = ((i[None, :] + u[:, None]) * alpha32).to(torch.int64) - (u[:, None] * alpha32).to(torch.int64)[:, :1]
    last = torch.full((u.numel(), 1), n_in - k, dtype=torch.int64)
    return torch.unique(torch.cat([starts, last], dim=1), dim=0)


def _local_check(x: torch.Tensor, got: torch.Tensor, idx, kh: int, kw: int) -> str | None:
    """The relaxed check for one large plane (see above): x (H, W), got (OH, OW) float32 on the CPU."""
    H, W = x.shape
    OH, OW = got.shape
    slide = F.max_pool2d(x[None, None], (kh, kw), stride=1)[0, 0]  # every window's maximum

    def options(n_in, n_out, k):
        alpha = (n_in - k) / (n_out - 1) if n_out > 1 else 0.0
        base = torch.floor(torch.arange(n_out, dtype=torch.float64) * alpha).to(torch.int64)
        opts = (base[:, None] + torch.tensor([-1, 0, 1])[None, :]).clamp(0, n_in - k)
        opts[-1] = n_in - k
        return opts

    ro, co = options(H, OH, kh), options(W, OW, kw)
    eq = slide[ro[:, :, None, None], co[None, None, :, :]] == got[:, None, :, None]  # (OH, 3, OW, 3)
    a_ok = eq.any(3).all(2)  # row option consistent with every column of its row
    b_ok = eq.any(1).all(0)
    feasible = eq & a_ok[:, :, None, None] & b_ok[None, None, :, :]
    ok = feasible.any(3).any(1)
    if not bool(ok.all()):
        i, j = (int(v) for v in torch.nonzero(~ok)[0])
        return f"output[..., {i}, {j}] is not the maximum of relu(input) over any window that row/column can have"
    if idx is not None:
        r, c = idx // W, idx % W
        in_r = ((r[:, :, None] >= ro[:, None, :]) & (r[:, :, None] < ro[:, None, :] + kh) & a_ok[:, None, :]).any(-1)
        in_c = ((c[:, :, None] >= co[None, :, :]) & (c[:, :, None] < co[None, :, :] + kw) & b_ok[None, :, :]).any(-1)
        if not bool((in_r & in_c).all()):
            return "indices: some index lies outside every window its output can have"
    return None


def check(case, output, expected):
    args = bind_arguments(reference, case)
    want_idx = args["return_indices"]
    if want_idx:
        if not isinstance(output, (tuple, list)) or len(output) != 2:
            return f"output: expected a tuple (output, indices), got {type(output).__name__}"
        out, idx = output
        exp_out, exp_idx = expected
    else:
        if not isinstance(output, torch.Tensor):
            return f"output: expected a tensor, got {type(output).__name__}"
        out, idx, exp_out, exp_idx = output, None, expected, None
    if not isinstance(out, torch.Tensor) or out.shape != exp_out.shape or out.dtype != exp_out.dtype:
        return f"output: {getattr(out, 'dtype', None)}{list(getattr(out, 'shape', []))} != expected {exp_out.dtype}{list(exp_out.shape)}"
    if want_idx and (not isinstance(idx, torch.Tensor) or idx.shape != exp_idx.shape or idx.dtype != torch.int64):
        return f"indices: expected int64{list(exp_idx.shape)}, got {getattr(idx, 'dtype', None)}{list(getattr(idx, 'shape', []))}"
    inp = args["input"]
    H, W = inp.shape[-2], inp.shape[-1]
    OH, OW = out.shape[-2], out.shape[-1]
    xs = inp.reshape(-1, H, W)
    P = xs.shape[0]
    if P == 0 or OH == 0 or OW == 0:
        return None
    k = args["kernel_size"]
    kh, kw = (k, k) if isinstance(k, int) else (int(k[0]), int(k[1]))
    outs = out.detach().reshape(P, OH, OW)
    idxs = idx.detach().reshape(P, OH, OW) if want_idx else None
    if want_idx:
        if bool(((idxs < 0) | (idxs >= H * W)).any()):
            return "indices: values outside [0, H*W)"
        at = F.relu(xs.reshape(P, H * W)).gather(1, idxs.reshape(P, -1).to(xs.device)).reshape(P, OH, OW)
        if not bool((at.to(outs.device) == outs).all()):
            return "indices: some index does not point at an element equal to its output"
    if P * OH * OW * (H + 1) * (W + 1) > _EXACT_LIMIT:
        # perf sizes: the relaxed per-window check on a few planes spread over the batch
        for p in sorted({0, P // 3, (2 * P) // 3, P - 1}):
            msg = _local_check(F.relu(xs[p]).float().cpu(), outs[p].float().cpu(),
                               idxs[p].cpu() if want_idx else None, kh, kw)
            if msg:
                return f"plane {p}: {msg}"
        return None
    x = F.relu(xs).double().cpu()
    got = outs.double().cpu()
    rows, cols = _sequences(H, OH, kh), _sequences(W, OW, kw)
    # sliding maxima along w, then along h, read at every candidate start
    m1 = x.unfold(2, kw, 1).amax(-1)[:, :, cols]              # (P, H, nC, OW)
    m2 = m1.unfold(1, kh, 1).amax(-1)[:, rows]                # (P, nR, OH, nC, OW)
    match = (m2 == got[:, None, :, None, :]).all(dim=4).all(dim=2)  # (P, nR, nC)
    if want_idx:
        ii = idxs.cpu()
        r, c = ii // W, ii % W
        in_r = ((r[:, None] >= rows[None, :, :, None]) & (r[:, None] < rows[None, :, :, None] + kh)).all(-1).all(-1)
        in_c = ((c[:, None] >= cols[None, :, None, :]) & (c[:, None] < cols[None, :, None, :] + kw)).all(-1).all(-1)
        match = match & in_r[:, :, None] & in_c[:, None, :]
    ok = match.flatten(1).any(1)
    if not bool(ok.all()):
        p = int(torch.nonzero(~ok)[0])
        return (f"output: plane {p} of {P} matches no fractional max pooling of relu(input) for any samples "
                f"(u_h, u_w) in [0, 1) ({rows.shape[0]} x {cols.shape[0]} window sequences tried)"
                + ("" if not want_idx else ", indices included"))
    if case.label in _FRESH and bool(match.all(0).any()):
        return (f"output: all {P} planes use the same pooling windows: the random samples must be drawn "
                f"independently per (n, c) plane")
    return None


CHECK_NOTE = ("random pooling regions: every plane must equal the fractional max pooling of relu(input) for some "
              "samples in [0, 1) (all window sequences enumerated), indices must point inside those windows at the "
              "maximum, and on 64-plane cases the planes must not all share one sample.")


def cases(g: Inputs):
    # Upstream-like: (N, C, H, W) maps with output_size or output_ratio, with and without indices.
    yield Case("size", g.randn(2, 3, 16, 16), 3, output_size=(8, 8))
    yield Case("size-indices", g.randn(2, 3, 16, 16), 2, output_size=(7, 9), return_indices=True)
    yield Case("ratio", g.randn(2, 3, 20, 18), 2, output_ratio=(0.5, 0.5))
    yield Case("ratio-indices", g.randn(2, 3, 17, 23), 3, output_ratio=(0.6, 0.4), return_indices=True)
    yield Case("int-size", g.randn(1, 4, 13, 11), 2, output_size=5)
    yield Case("ratio-0.7", g.randn(1, 4, 15, 15), 2, output_ratio=(0.7, 0.7), return_indices=True)
    yield Case("rect-kernel", g.randn(2, 2, 19, 14), (3, 2), output_size=(6, 10), return_indices=True)
    yield Case("one-output-row", g.randn(2, 2, 9, 12), 3, output_size=(1, 4))
    yield Case("k1", g.randn(2, 2, 10, 10), 1, output_size=(7, 3), return_indices=True)
    yield Case("tight", g.randn(1, 3, 8, 8), 3, output_size=(6, 6), return_indices=True)
    # Per-plane randomness, checked (see _FRESH): 64 planes of positive uniform data.
    yield Case("fresh-samples", g.uniform(4, 16, 25, 25, low=0.1, high=1.0), 2, output_size=(10, 10))
    yield Case("fresh-samples-indices", g.uniform(2, 32, 21, 26, low=0.1, high=1.0), 3, output_size=(8, 11),
               return_indices=True)
    # Edge: all-negative plane (output 0), 3-D input, layouts.
    yield Case("negative", g.uniform(1, 2, 10, 10, low=-2.0, high=-0.5), 2, output_size=(4, 4))
    yield Case("unbatched-3d", g.randn(3, 14, 12), 2, output_size=(5, 5), return_indices=True)
    yield Case("strided", g.strided(g.randn(2, 3, 12, 16)), 2, output_size=(5, 6), return_indices=True)
    cl = g.randn(2, 6, 13, 11).to(memory_format=torch.channels_last)
    yield Case("channels-last", cl, 3, output_ratio=(0.5, 0.5))


def perf_cases(g: Inputs):
    # Upstream's (16, 3, H, W) images: 201 MB and 805 MB in.
    yield Case("16x3x1024x1024-k3-half", g.randn(16, 3, 1024, 1024), 3, output_ratio=(0.5, 0.5))
    yield Case("16x3x2048x2048-k2-indices", g.randn(16, 3, 2048, 2048), 2, output_size=(1024, 1024),
               return_indices=True)
    yield Case("64x256x56x56-k3-to-40", g.randn(64, 256, 56, 56), 3, output_size=(40, 40))
