import math

import torch
import triton
import triton.language as tl

_NEAREST, _NEAREST_EXACT, _LINEAR, _CUBIC, _AREA = 0, 1, 2, 3, 4
_MODES = {"nearest": _NEAREST, "nearest-exact": _NEAREST_EXACT, "linear": _LINEAR,
          "bilinear": _LINEAR, "bicubic": _CUBIC, "area": _AREA}


@triton.jit
def _cubic_weights(t):
    # Cubic convolution (Keys) with a = -0.75 at distances t+1, t, 1-t, 2-t.
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
def _linear_src(o, scale, ALIGN: tl.constexpr, CLAMP0: tl.constexpr):
    # Source coordinate of output index o (float32, as PyTorch computes it).
    of = o.to(tl.float32)
    if ALIGN:
        x = scale * of
    else:
        x = scale * (of + 0.5) - 0.5
        if CLAMP0:
            x = tl.maximum(x, 0.0)
    return x


@triton.jit
def _tap(x_ptr, base, h, w, H, W, sxh, sxw, mask):
    # Clamped read (bicubic taps outside the image repeat the border pixel).
    hc = tl.minimum(tl.maximum(h, 0), H - 1)
    wc = tl.minimum(tl.maximum(w, 0), W - 1)
    return tl.load(x_ptr + base + hc * sxh + wc * sxw, mask=mask, other=0.0).to(tl.float32)


@triton.jit
def _interp_kernel(x_ptr, y_ptr, total, C, H, W, OH, OW, scale_h, scale_w, KH_MAX, KW_MAX,
                   sxn, sxc, sxh, sxw,
                   MODE: tl.constexpr, ALIGN: tl.constexpr, BLOCK: tl.constexpr):
    # One lane per output element; y is contiguous (N, C, OH, OW), x is read through its strides.
    pid = tl.program_id(0)
    o = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)  # int64: sizes can pass 2**31
    mask = o < total
    ow = o % OW
    t = o // OW
    oh = t % OH
    t = t // OH
    c = t % C
    n = t // C
    base = n * sxn + c * sxc
    if MODE == 0:  # nearest: floor(o * scale) in float32, clamped to the last index
        ih = tl.minimum(tl.floor(oh.to(tl.float32) * scale_h).to(tl.int64), H - 1)
        iw = tl.minimum(tl.floor(ow.to(tl.float32) * scale_w).to(tl.int64), W - 1)
        val = tl.load(x_ptr + base + ih * sxh + iw * sxw, mask=mask, other=0.0).to(tl.float32)
    elif MODE == 1:  # nearest-exact: pixel centres, floor((o + 0.5) * scale)
        ih = tl.minimum(tl.floor((oh.to(tl.float32) + 0.5) * scale_h).to(tl.int64), H - 1)
        iw = tl.minimum(tl.floor((ow.to(tl.float32) + 0.5) * scale_w).to(tl.int64), W - 1)
        val = tl.load(x_ptr + base + ih * sxh + iw * sxw, mask=mask, other=0.0).to(tl.float32)
    elif MODE == 2:  # (bi)linear
        xh = _linear_src(oh, scale_h, ALIGN, True)
        xw = _linear_src(ow, scale_w, ALIGN, True)
        h0 = xh.to(tl.int64)  # xh >= 0, so truncation is floor
        w0 = xw.to(tl.int64)
        h1 = tl.minimum(h0 + 1, H - 1)
        w1 = tl.minimum(w0 + 1, W - 1)
        lh = xh - h0.to(tl.float32)
        lw = xw - w0.to(tl.float32)
        v00 = tl.load(x_ptr + base + h0 * sxh + w0 * sxw, mask=mask, other=0.0).to(tl.float32)
        v01 = tl.load(x_ptr + base + h0 * sxh + w1 * sxw, mask=mask, other=0.0).to(tl.float32)
        v10 = tl.load(x_ptr + base + h1 * sxh + w0 * sxw, mask=mask, other=0.0).to(tl.float32)
        v11 = tl.load(x_ptr + base + h1 * sxh + w1 * sxw, mask=mask, other=0.0).to(tl.float32)
        top = (1.0 - lw) * v00 + lw * v01
        bot = (1.0 - lw) * v10 + lw * v11
        val = (1.0 - lh) * top + lh * bot
    elif MODE == 3:  # bicubic: 4x4 clamped taps, source coordinate not clamped at 0
        xh = _linear_src(oh, scale_h, ALIGN, False)
        xw = _linear_src(ow, scale_w, ALIGN, False)
        fh = tl.floor(xh)
        fw = tl.floor(xw)
        hi = fh.to(tl.int64)
        wi = fw.to(tl.int64)
        wh0, wh1, wh2, wh3 = _cubic_weights(xh - fh)
        ww0, ww1, ww2, ww3 = _cubic_weights(xw - fw)
        val = tl.zeros([BLOCK], dtype=tl.float32)
        for dh in tl.static_range(4):
            h = hi - 1 + dh
            row = (ww0 * _tap(x_ptr, base, h, wi - 1, H, W, sxh, sxw, mask)
                   + ww1 * _tap(x_ptr, base, h, wi, H, W, sxh, sxw, mask)
                   + ww2 * _tap(x_ptr, base, h, wi + 1, H, W, sxh, sxw, mask)
                   + ww3 * _tap(x_ptr, base, h, wi + 2, H, W, sxh, sxw, mask))
            if dh == 0:
                val += wh0 * row
            elif dh == 1:
                val += wh1 * row
            elif dh == 2:
                val += wh2 * row
            else:
                val += wh3 * row
    else:  # area: mean over [floor(o*I/O), ceil((o+1)*I/O)) in each dimension
        hs = (oh * H) // OH
        he = ((oh + 1) * H + OH - 1) // OH
        ws = (ow * W) // OW
        we = ((ow + 1) * W + OW - 1) // OW
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for dh in range(0, KH_MAX):
            for dw in range(0, KW_MAX):
                h = hs + dh
                w = ws + dw
                m = mask & (h < he) & (w < we)
                acc += tl.load(x_ptr + base + h * sxh + w * sxw, mask=m, other=0.0).to(tl.float32)
        val = acc / ((he - hs) * (we - ws)).to(tl.float32)
    tl.store(y_ptr + o, val.to(y_ptr.dtype.element_ty), mask=mask)


def _as_list(v, n, name):
    if isinstance(v, (tuple, list)):
        if len(v) != n:
            raise ValueError(f"interpolate: {name} needs {n} values for a {n + 2}-D input, got {v!r}")
        return list(v)
    return [v] * n


def _max_window(n_in, n_out):
    return min(n_in, -(-n_in // n_out) + 1)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    if mode not in _MODES:
        raise NotImplementedError(f"interpolate: mode {mode!r} is not supported")
    nd = input.dim() - 2
    if nd not in (1, 2):
        raise NotImplementedError("interpolate: only 3-D and 4-D inputs are supported")
    if mode == "linear" and nd != 1:
        raise NotImplementedError(f"Got {input.dim()}D input, but linear mode needs 3D input")
    if mode in ("bilinear", "bicubic") and nd != 2:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs 4D input")
    interpolating = mode in ("linear", "bilinear", "bicubic")
    if not interpolating and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")
    align = bool(align_corners) if interpolating else False
    if (size is None) == (scale_factor is None):
        raise ValueError("exactly one of size or scale_factor must be given")
    in_sizes = [int(s) for s in input.shape[2:]]
    if size is not None:
        out_sizes = [int(s) for s in _as_list(size, nd, "size")]
        scales = [None] * nd
    else:
        scales = [float(s) for s in _as_list(scale_factor, nd, "scale_factor")]
        out_sizes = [int(math.floor(i * s)) for i, s in zip(in_sizes, scales)]
    if any(o <= 0 for o in out_sizes) or any(i <= 0 for i in in_sizes):
        raise ValueError(f"interpolate: invalid sizes {in_sizes} -> {out_sizes}")

    # Per-dimension float32 scale, following PyTorch: with align_corners (I-1)/(O-1); otherwise
    # 1/scale_factor if one was given (not I/O: the floor in the output size makes them differ).
    def coord_scale(i, o, s):
        if align:
            return (i - 1) / (o - 1) if o > 1 else 0.0
        return 1.0 / s if s is not None and s > 0 else i / o

    x = input if nd == 2 else input.unsqueeze(2)  # (N, C, L) -> (N, C, 1, L), a view
    if nd == 1:
        H, W, OH, OW = 1, in_sizes[0], 1, out_sizes[0]
        sh, sw = 1.0, coord_scale(W, OW, scales[0])
    else:
        (H, W), (OH, OW) = in_sizes, out_sizes
        sh, sw = coord_scale(H, OH, scales[0]), coord_scale(W, OW, scales[1])
    N, C = int(x.shape[0]), int(x.shape[1])
    y = torch.empty((N, C, OH, OW), dtype=input.dtype, device=input.device)
    total = y.numel()
    if total:
        BLOCK = 1024
        sxn, sxc, sxh, sxw = x.stride()
        _interp_kernel[(triton.cdiv(total, BLOCK),)](
            x, y, total, C, H, W, OH, OW, sh, sw, _max_window(H, OH), _max_window(W, OW),
            sxn, sxc, sxh, sxw, MODE=_MODES[mode], ALIGN=align, BLOCK=BLOCK)
    return y if nd == 2 else y.squeeze(2)
