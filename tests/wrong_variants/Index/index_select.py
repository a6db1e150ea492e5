"""Plausible wrong versions of solutions/Index/index_select.py: each must fail exe."""

VARIANTS = {
    "outer stride uses the index length instead of the input's dim size": ("(o * D + src_row)", "(o * K + src_row)"),
    "row mask drops the last output row": ("row_mask = rows < n_rows", "row_mask = rows < n_rows - 1"),
    "input strides ignored (no .contiguous())": ("x = input.contiguous()", "x = input"),
    "values moved through float32 (int64 loses bits)": ("v = tl.load(x_ptr + src[:, None] + cols[None, :], mask=mask)",
                                                        "v = tl.load(x_ptr + src[:, None] + cols[None, :], mask=mask).to(tl.float32)"),
    "index stride ignored": ("idx_ptr + k * idx_stride", "idx_ptr + k"),
}
