"""Plausible wrong versions of solutions/Fusion/fused_log_softmax_linear.py: each must fail exe."""

VARIANTS = {
    "maximum not subtracted before exp (overflow on large logits)": [
        ("        safe_max = tl.where(tile_max == float(\"-inf\"), 0.0, tile_max)  # empty rows stay finite\n",
         "        safe_max = tl.zeros_like(tile_max)\n"),
        ("    lse = mx + tl.log(total)\n    offs = pid", "    lse = tl.log(total)\n    offs = pid"),
        ("                   * tl.exp(tl.load(smax_ptr + row * T + offs_t, mask=offs_t < T, other=float(\"-inf\")) - mx), axis=0)",
         "                   * 1.0, axis=0)"),
        ("        total += tl.sum(s * tl.exp(m - mx), axis=0)", "        total += tl.sum(s, axis=0)"),
    ],
    "tiles' sums added without rescaling to the common maximum": (
        "                   * tl.exp(tl.load(smax_ptr + row * T + offs_t, mask=offs_t < T, other=float(\"-inf\")) - mx), axis=0)",
        "                   * 1.0, axis=0)"),
    "dim ignored (always the last dimension)": ("    last = dim == nd - 1\n", "    last = True\n"),
    "dtype ignored (result in the input's dtype)": (
        "    out_dtype = dtype if dtype is not None else input.dtype", "    out_dtype = input.dtype"),
    "bias dropped": (
        "        acc += tl.load(b_ptr + col_ids.to(tl.int64) * sb, mask=n_mask, other=0.0).to(acc.dtype)[None, :]",
        "        acc += 0.0 * tl.load(b_ptr + col_ids.to(tl.int64) * sb, mask=n_mask, other=0.0).to(acc.dtype)[None, :]"),
    "float64 inputs accumulated in float32": (
        "            acc += tl.sum(a[:, :, None] * b[None, :, :], axis=1)",
        "            acc += tl.sum(a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :], axis=1).to(tl.float64)"),
}
