"""Plausible wrong versions of solutions/Index/scatter.py: each must fail exe."""

VARIANTS = {
    "scatters into input in place (scatter_ instead of scatter)": ("out = input.clone(memory_format=torch.contiguous_format)", "out = input"),
    "index value applied along the last dim whatever `dim` is": ("out_sd = out_strides[d]", "out_sd = out_strides[-1]"),
    "src read with the index's strides (assumes equal shapes)": [
        ("SS = [0] * pad + list(s.stride()[:-1])", "SS = [0] * pad + list(i.contiguous().stride()[:-1])"),
        ("i.stride(-1), s.stride(-1)", "i.stride(-1), i.contiguous().stride(-1)")],
    "column mask drops the last index column": ("(cols < L)[None, :]", "(cols < L - 1)[None, :]"),
    "index strides ignored": ("IS = [0] * pad + list(i.stride()[:-1])", "IS = [0] * pad + list(i.contiguous().stride()[:-1])"),
}
