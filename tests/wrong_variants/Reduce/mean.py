"""Plausible wrong versions of solutions/Reduce/mean.py: each must fail exe."""

VARIANTS = {
    "partial sums divided by N, then divided again": ("part_div = divisor if split == 1 else 1", "part_div = divisor"),
    "dtype= ignored for the accumulation (float32 input, float64 result)": (
        "acc_t, acc_tl = _acc_dtype(out_dtype)", "acc_t, acc_tl = _acc_dtype(input_tensor.dtype)"),
    "float16 accumulation": ("return torch.float32, tl.float32  # fp16/bf16/fp32 accumulate in fp32",
                             "return torch.float16, tl.float16"),
    "out= ignored: a new tensor is returned": [
        ("direct = (out is not None and", "direct = (False and"),
        ("    if out is not None:\n        out.copy_(result)\n        return out\n", "")],
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
}
