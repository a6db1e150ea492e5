import torch
import triton
import triton.language as tl


@triton.jit
def _sigmoid_adaptive_avg_pool2d_kernel(x_ptr, y_ptr, total, C, H, W, OH, OW, KH_MAX, KW_MAX,
                                sxn, sxc, sxh, sxw,
                                BLOCK_O: tl.constexpr, BLOCK_K: tl.constexpr):
    # Tile = [BLOCK_O outputs, BLOCK_K window elements]. Outputs are flattened over (n, c, oh, ow)
    # (y is contiguous); window element j of an output is (dh, dw) = divmod(j, KW_MAX) inside the
    # largest window, masked to the output's own window. Covering the window with the second
    # axis keeps lanes busy both for tiny windows (many outputs per tile) and for global pooling
    # (one big window per row of the tile, looped over in BLOCK_K chunks).
    pid = tl.program_id(0)
    o = pid.to(tl.int64) * BLOCK_O + tl.arange(0, BLOCK_O)  # int64: outputs/inputs can pass 2**31
    o_mask = o < total
    ow = o % OW
    t = o // OW
    oh = t % OH
    t = t // OH
    c = t % C
    n = t // C
    # Window bounds: [floor(i*H/OH), ceil((i+1)*H/OH)), exact in integer arithmetic.
    hs = (oh * H) // OH
    he = ((oh + 1) * H + OH - 1) // OH
    ws = (ow * W) // OW
    we = ((ow + 1) * W + OW - 1) // OW
    base = n * sxn + c * sxc
    acc = tl.zeros([BLOCK_O, BLOCK_K], dtype=tl.float32)
    window = KH_MAX * KW_MAX
    for j0 in range(0, window, BLOCK_K):
        j = j0 + tl.arange(0, BLOCK_K)
        dh = j // KW_MAX
        dw = j % KW_MAX
        h = hs[:, None] + dh[None, :]
        w = ws[:, None] + dw[None, :]
        mask = o_mask[:, None] & (j < window)[None, :] & (h < he[:, None]) & (w < we[:, None])
        v = tl.load(x_ptr + base[:, None] + h * sxh + w * sxw, mask=mask, other=0.0)
        acc += v.to(tl.float32)
    count = ((he - hs) * (we - ws)).to(tl.float32)
    y = tl.sum(acc, axis=1) / count
    y = 1.0 / (1.0 + tl.exp(-y))  # sigmoid fused into the store; exp overflow gives exactly 0
    tl.store(y_ptr + o, y.to(y_ptr.dtype.element_ty), mask=o_mask)


def _max_window(n_in: int, n_out: int) -> int:
    # Largest ceil((i+1)*n_in/n_out) - floor(i*n_in/n_out): at most ceil(n_in/n_out) + 1.
    return min(n_in, -(-n_in // n_out) + 1)


def fused_sigmoid_adaptive_avg_pool2d(input, output_size):
    if input.dim() not in (3, 4):
        raise ValueError(f"adaptive_avg_pool2d expects a 3-D or 4-D input, got {input.dim()}-D")
    H, W = int(input.shape[-2]), int(input.shape[-1])
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != 2:
            raise ValueError("output_size must be an int or a pair")
        oh, ow = output_size
    else:
        oh = ow = output_size
    OH = H if oh is None else int(oh)
    OW = W if ow is None else int(ow)
    if OH < 0 or OW < 0:
        raise ValueError("output_size must be non-negative")
    x = input if input.dim() == 4 else input.unsqueeze(0)
    N, C = int(x.shape[0]), int(x.shape[1])
    y = torch.empty((N, C, OH, OW), dtype=input.dtype, device=input.device)
    total = y.numel()
    if total:
        if H == 0 or W == 0:
            raise ValueError("adaptive_avg_pool2d: input has an empty spatial dimension")
        kh, kw = _max_window(H, OH), _max_window(W, OW)
        BLOCK_K = min(1024, triton.next_power_of_2(kh * kw))
        BLOCK_O = max(1, 4096 // BLOCK_K)
        grid = (triton.cdiv(total, BLOCK_O),)
        sxn, sxc, sxh, sxw = x.stride()  # read in place: no copy for strided / channels-last input
        _sigmoid_adaptive_avg_pool2d_kernel[grid](x, y, total, C, H, W, OH, OW, kh, kw, sxn, sxc, sxh, sxw,
                                          BLOCK_O=BLOCK_O, BLOCK_K=BLOCK_K)
    return y if input.dim() == 4 else y.squeeze(0)
