"""Plausible wrong versions of solutions/Math/log.py: each must fail exe."""

VARIANTS = {
    "log2 instead of the natural log": ("y = tl.log(x)", "y = tl.log2(x)"),
    "log of |x| (no NaN for negatives)": ("y = tl.log(x)", "y = tl.log(tl.abs(x))"),
    "log1p instead of log": ("y = tl.log(x)", "y = tl.log(1.0 + x)"),
    "result rounded through float16": ("y = tl.log(x)", "y = tl.log(x).to(tl.float16)"),
    "out= not written when it is non-contiguous": ("        out.copy_(y)\n", "        pass\n"),
}
