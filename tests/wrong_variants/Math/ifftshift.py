"""Plausible wrong versions of solutions/Math/ifftshift.py: each must fail exe."""

VARIANTS = {
    "fftshift instead of ifftshift (roll by +n//2)": ("shift = n // 2 if d in rolled else 0",
                                                      "shift = (n - n // 2) if d in rolled else 0"),
    "dim=None rolls only the last dimension": ("rolled = list(range(nd))", "rolled = [nd - 1]"),
    "negative dims not normalized": ("rolled = [d + nd if d < 0 else d for d in rolled]", "rolled = rolled"),
    "input assumed contiguous (stride of the last dim ignored)": ("src_col[None, :] * stride_last", "src_col[None, :]"),
    "rolled dimensions merged with their neighbours": ("if dims and shift == 0 and dims[-1][1] == 0 and",
                                                       "if dims and dims[-1][1] == 0 and"),
}
