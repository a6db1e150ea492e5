"""Plausible wrong versions of solutions/Index/masked_select.py: each must fail exe."""

VARIANTS = {
    "block offsets ignored (every block writes from position 0)": ("base = tl.load(offsets_ptr + pid)", "base = 0"),
    "non-contiguous input passed as is (read in storage order)": ("x = input.expand(shape).contiguous().view(-1)",
                                                      "x = input.expand(shape) if not input.is_contiguous() else input.view(-1)"),
    "bounds mask drops the last element": [("in_range = offs < n\n    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0\n    tl.store",
                                           "in_range = offs < n - 1\n    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0\n    tl.store"),
                                          ("in_range = offs < n\n    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0\n    mi",
                                           "in_range = offs < n - 1\n    m = tl.load(m_ptr + offs, mask=in_range, other=0) != 0\n    mi")],
}
