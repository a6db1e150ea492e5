"""Plausible wrong versions of solutions/Math/softmax.py: each must fail exe."""

VARIANTS = {
    "no max subtraction (overflows for large logits)": [
        ("e = tl.exp(x - m[:, None])", "e = tl.exp(x)"),
        ("e = tl.exp(x - m[None, :])", "e = tl.exp(x)")],
    "online rescale without the -inf guard": (
        'alpha = tl.where(m == float("-inf"), 0.0, tl.exp(m - m_new))', "alpha = tl.exp(m - m_new)"),
    "padding loaded as 0 instead of -inf": [
        ('x = tl.load(x_ptr + offs, mask=mask, other=float("-inf")).to(ACC)\n        m = tl.max(x, axis=1)',
         "x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(ACC)\n        m = tl.max(x, axis=1)")],
    "dtype argument ignored": ("x = input if dtype is None else input.to(dtype)", "x = input"),
    "float64 computed in float32": ("acc = tl.float64 if x.dtype == torch.float64 else tl.float32",
                                    "acc = tl.float32"),
    "dim ignored (always the last dimension)": ("d = dim % len(shape)", "d = len(shape) - 1"),
    "lane merge forgets the rescale": ("scaled = tl.where(m == float(\"-inf\"), s, s * tl.exp(m - m_row[:, None]))",
                                       "scaled = s"),
}
