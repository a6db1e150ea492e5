import torch
import triton
import triton.language as tl

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


@triton.jit
def _unnormalize(coord, size_f, ALIGN: tl.constexpr):
    # [-1, 1] -> pixel coordinates: corner-pixel centres (align) or image edges (not align).
    # Sizes come in as host floats: an int argument equal to 1 is specialised to a constexpr on
    # the GPU, which has no .to().
    if ALIGN:
        return (coord + 1.0) * 0.5 * (size_f - 1.0)
    else:
        return ((coord + 1.0) * size_f - 1.0) * 0.5


@triton.jit
def _reflect(x, lo, span):
    # Reflect x into [lo, lo + span] (repeatedly); span == 0 collapses to lo.
    safe = tl.maximum(span, 1e-30)
    d = tl.abs(x - lo)
    flips = tl.floor(d / safe)
    extra = d - flips * safe
    odd = (flips - 2.0 * tl.floor(flips * 0.5)) != 0.0
    r = tl.where(odd, span - extra + lo, extra + lo)
    return tl.where(span > 0.0, r, lo)


@triton.jit
def _pad_coord(x, size_f, PADDING: tl.constexpr, ALIGN: tl.constexpr):
    # padding_mode applied to a pixel coordinate (zeros: unchanged; bounds are checked at the read).
    if PADDING == 1:
        x = tl.minimum(tl.maximum(x, 0.0), size_f - 1.0)
    elif PADDING == 2:
        if ALIGN:
            x = _reflect(x, 0.0, size_f - 1.0)
        else:
            x = _reflect(x, -0.5, size_f)
        x = tl.minimum(tl.maximum(x, 0.0), size_f - 1.0)
    return x


@triton.jit
def _cubic_weights(t):
    # Cubic convolution (a = -0.75) at distances t+1, t, 1-t, 2-t.
    a: tl.constexpr = -0.75
    x1 = t + 1.0
    w0 = ((a * x1 - 5.0 * a) * x1 + 8.0 * a) * x1 - 4.0 * a
    w1 = ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    x2 = 1.0 - t
    w2 = ((a + 2.0) * x2 - (a + 3.0)) * x2 * x2 + 1.0
    x3 = 2.0 - t
    w3 = ((a * x3 - 5.0 * a) * x3 + 8.0 * a) * x3 - 4.0 * a
    return w0, w1, w2, w3


@triton.jit
def _read(x_ptr, base, yi, xi, H, W, sxh, sxw, mask):
    # Pixel (yi, xi) of one plane, 0 outside the image.
    ok = mask & (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
    return tl.load(x_ptr + base + yi.to(tl.int64) * sxh + xi.to(tl.int64) * sxw, mask=ok, other=0.0).to(tl.float32)


@triton.jit
def _cubic_row(x_ptr, base, yi, xt, H, W, Wf, sxh, sxw, mask, w0, w1, w2, w3,
               PADDING: tl.constexpr, ALIGN: tl.constexpr):
    # One row of 4 bicubic taps at integer x positions xt-1..xt+2, each mapped by the padding mode.
    r = w0 * _read(x_ptr, base, yi, _pad_coord(xt - 1.0, Wf, PADDING, ALIGN).to(tl.int32), H, W, sxh, sxw, mask)
    r += w1 * _read(x_ptr, base, yi, _pad_coord(xt, Wf, PADDING, ALIGN).to(tl.int32), H, W, sxh, sxw, mask)
    r += w2 * _read(x_ptr, base, yi, _pad_coord(xt + 1.0, Wf, PADDING, ALIGN).to(tl.int32), H, W, sxh, sxw, mask)
    r += w3 * _read(x_ptr, base, yi, _pad_coord(xt + 2.0, Wf, PADDING, ALIGN).to(tl.int32), H, W, sxh, sxw, mask)
    return r


@triton.jit
def _grid_sample_kernel(x_ptr, g_ptr, y_ptr, total, C, H, W, Hf, Wf, HO, WO,
                        sxn, sxc, sxh, sxw, sgn, sgh, sgw, sgk,
                        MODE: tl.constexpr, PADDING: tl.constexpr, ALIGN: tl.constexpr,
                        BLOCK: tl.constexpr):
    # One lane per output pixel (n, i, j); the sampling position and weights are computed once
    # and reused for every channel (loop over C), so the grid is read once.
    pid = tl.program_id(0)
    p = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can pass 2**31
    mask = p < total
    j = p % WO
    t = p // WO
    i = t % HO
    n = t // HO
    gbase = n * sgn + i * sgh + j * sgw
    gx = tl.load(g_ptr + gbase, mask=mask, other=0.0).to(tl.float32)
    gy = tl.load(g_ptr + gbase + sgk, mask=mask, other=0.0).to(tl.float32)
    ix = _unnormalize(gx, Wf, ALIGN)
    iy = _unnormalize(gy, Hf, ALIGN)
    ybase = n * C * HO * WO + i * WO + j  # y is contiguous (N, C, HO, WO)
    xbase = n * sxn
    if MODE == 0:  # bilinear on the padded coordinate
        ix = _pad_coord(ix, Wf, PADDING, ALIGN)
        iy = _pad_coord(iy, Hf, PADDING, ALIGN)
        fx = tl.floor(ix)
        fy = tl.floor(iy)
        tx = ix - fx
        ty = iy - fy
        x0 = fx.to(tl.int32)
        y0 = fy.to(tl.int32)
        w_nw = (1.0 - tx) * (1.0 - ty)
        w_ne = tx * (1.0 - ty)
        w_sw = (1.0 - tx) * ty
        w_se = tx * ty
        for c in range(0, C):
            base = xbase + c * sxc
            v = w_nw * _read(x_ptr, base, y0, x0, H, W, sxh, sxw, mask)
            v += w_ne * _read(x_ptr, base, y0, x0 + 1, H, W, sxh, sxw, mask)
            v += w_sw * _read(x_ptr, base, y0 + 1, x0, H, W, sxh, sxw, mask)
            v += w_se * _read(x_ptr, base, y0 + 1, x0 + 1, H, W, sxh, sxw, mask)
            tl.store(y_ptr + ybase + c * HO * WO, v.to(y_ptr.dtype.element_ty), mask=mask)
    elif MODE == 1:  # nearest on the padded coordinate, rounding halves to even (nearbyint)
        ix = _pad_coord(ix, Wf, PADDING, ALIGN)
        iy = _pad_coord(iy, Hf, PADDING, ALIGN)
        fx = tl.floor(ix)
        fy = tl.floor(iy)
        dx = ix - fx  # exact
        dy = iy - fy
        odd_x = (fx - 2.0 * tl.floor(fx * 0.5)) != 0.0
        odd_y = (fy - 2.0 * tl.floor(fy * 0.5)) != 0.0
        rx = tl.where((dx > 0.5) | ((dx == 0.5) & odd_x), fx + 1.0, fx)
        ry = tl.where((dy > 0.5) | ((dy == 0.5) & odd_y), fy + 1.0, fy)
        xn = rx.to(tl.int32)
        yn = ry.to(tl.int32)
        for c in range(0, C):
            v = _read(x_ptr, xbase + c * sxc, yn, xn, H, W, sxh, sxw, mask)
            tl.store(y_ptr + ybase + c * HO * WO, v.to(y_ptr.dtype.element_ty), mask=mask)
    else:  # bicubic: padding is applied to each of the 4x4 integer taps
        fx = tl.floor(ix)
        fy = tl.floor(iy)
        wx0, wx1, wx2, wx3 = _cubic_weights(ix - fx)
        wy0, wy1, wy2, wy3 = _cubic_weights(iy - fy)
        y_m1 = _pad_coord(fy - 1.0, Hf, PADDING, ALIGN).to(tl.int32)
        y_0 = _pad_coord(fy, Hf, PADDING, ALIGN).to(tl.int32)
        y_p1 = _pad_coord(fy + 1.0, Hf, PADDING, ALIGN).to(tl.int32)
        y_p2 = _pad_coord(fy + 2.0, Hf, PADDING, ALIGN).to(tl.int32)
        for c in range(0, C):
            base = xbase + c * sxc
            v = wy0 * _cubic_row(x_ptr, base, y_m1, fx, H, W, Wf, sxh, sxw, mask, wx0, wx1, wx2, wx3, PADDING, ALIGN)
            v += wy1 * _cubic_row(x_ptr, base, y_0, fx, H, W, Wf, sxh, sxw, mask, wx0, wx1, wx2, wx3, PADDING, ALIGN)
            v += wy2 * _cubic_row(x_ptr, base, y_p1, fx, H, W, Wf, sxh, sxw, mask, wx0, wx1, wx2, wx3, PADDING, ALIGN)
            v += wy3 * _cubic_row(x_ptr, base, y_p2, fx, H, W, Wf, sxh, sxw, mask, wx0, wx1, wx2, wx3, PADDING, ALIGN)
            tl.store(y_ptr + ybase + c * HO * WO, v.to(y_ptr.dtype.element_ty), mask=mask)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=False):
    if mode not in _MODES:
        raise ValueError(f"grid_sample: mode must be 'bilinear', 'nearest' or 'bicubic', got {mode!r}")
    if padding_mode not in _PADDING:
        raise ValueError(f"grid_sample: padding_mode must be 'zeros', 'border' or 'reflection', got {padding_mode!r}")
    if input.dim() != 4 or grid.dim() != 4 or grid.shape[-1] != 2 or grid.shape[0] != input.shape[0]:
        raise ValueError("grid_sample: expects input (N, C, H, W) and grid (N, H_out, W_out, 2)")
    N, C, H, W = (int(s) for s in input.shape)
    HO, WO = int(grid.shape[1]), int(grid.shape[2])
    y = torch.empty((N, C, HO, WO), dtype=input.dtype, device=input.device)
    total = N * HO * WO
    if total and C:
        BLOCK = 256
        _grid_sample_kernel[(triton.cdiv(total, BLOCK),)](
            input, grid, y, total, C, H, W, float(H), float(W), HO, WO, *input.stride(), *grid.stride(),
            MODE=_MODES[mode], PADDING=_PADDING[padding_mode], ALIGN=bool(align_corners), BLOCK=BLOCK)
    return y
