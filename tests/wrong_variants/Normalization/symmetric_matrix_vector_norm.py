"""Plausible wrong versions of solutions/Normalization/symmetric_matrix_vector_norm.py: each must fail exe."""

VARIANTS = {
    "beta applied to x instead of to the product": (
        "    y = t + beta * t\n",
        "    y = t + beta * tl.load(x_ptr + rows.to(tl.int64) * s_x, mask=row_mask, other=0.0)\n"),
    "beta ignored": ("    y = t + beta * t\n", "    y = t\n"),
    "square root of the 2-norm forgotten": ("            res = tl.sqrt(s)\n", "            res = s\n"),
    "max of the inf-norm lets NaN through": (
        "        res = tl.where(tl.sum(nans, axis=0) > 0, float(\"nan\"), res)\n", ""),
    "float16 accumulation of the dot products": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)", "acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float16)"),
        ("acc += a * xv[None, :]", "acc += (a * xv[None, :]).to(tl.float16)"),
        ("t = alpha * tl.sum(acc, axis=1)", "t = alpha * tl.sum(acc, axis=1).to(tl.float32)")],
    "off-by-one row mask: the last row of y is dropped": ("    row_mask = rows < n\n", "    row_mask = rows < n - 1\n"),
}
