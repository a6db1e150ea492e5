"""Plausible wrong versions of solutions/Fusion/fused_softmax_log.py: each must fail exe."""

VARIANTS = {
    "no max subtraction (exp(log x) overflows for large x)": [
        ("e = tl.exp(l - m[:, None])", "e = tl.exp(l)"),
        ("e = tl.exp(l - m[None, :])", "e = tl.exp(l)")],
    "padding lanes not set to -inf (each adds exp(0 - max) to the sum)": (
        'return tl.where(mask, tl.log(x).to(ACC), float("-inf"))', "return tl.log(x).to(ACC)"),
    "online rescale without the -inf guard (leading zeros give NaN)": (
        'alpha = tl.where(m == float("-inf"), 0.0, tl.exp(m - m_new))', "alpha = tl.exp(m - m_new)"),
    "dtype argument ignored": ("out_dtype = input.dtype if dtype is None else dtype", "out_dtype = input.dtype"),
    "float64 computed in float32": ("log_t, acc = _tl_float(input.dtype), _tl_float(out_dtype)",
                                    "log_t, acc = tl.float32, tl.float32"),
    "dim ignored (always the last dimension)": ("d = dim % len(shape)", "d = len(shape) - 1"),
}
