"""Plausible wrong versions of solutions/Index/expand_where.py: each must fail exe."""

VARIANTS = {
    "branches swapped": ("y = tl.where(cond, x.to(out_ptr.dtype.element_ty), o.to(out_ptr.dtype.element_ty))",
                         "y = tl.where(cond, o.to(out_ptr.dtype.element_ty), x.to(out_ptr.dtype.element_ty))"),
    "arithmetic blend instead of a select (NaN/inf leak)": [
        ("mask=mask & cond, other=0)", "mask=mask, other=0)"),
        ("mask=mask & (cond == 0), other=0)", "mask=mask, other=0)"),
        ("y = tl.where(cond, x.to(out_ptr.dtype.element_ty), o.to(out_ptr.dtype.element_ty))",
         "cf = cond.to(tl.float32)\n    y = cf * x + (1.0 - cf) * o"),
    ],
    "result shape ignores cond/other broadcasting": ("out_shape = _broadcast_shape(list(xe.shape), list(cond.shape), list(other.shape))",
                                                     "out_shape = list(xe.shape)"),
    "row mask drops the last row": ("mask = (rows < n_rows)[:, None]", "mask = (rows < n_rows - 1)[:, None]"),
    "-1 in target_sizes taken as a literal size": ("xe = input.expand(*target_sizes)",
                                                  "xe = input.expand(*[max(int(s), 1) for s in target_sizes])"),
}
