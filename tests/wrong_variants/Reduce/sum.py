"""Plausible wrong versions of solutions/Reduce/sum.py: each must fail exe."""

VARIANTS = {
    "dtype= ignored (result in the input dtype)": (
        "out_dtype = dtype if dtype is not None else input.dtype", "out_dtype = input.dtype"),
    "float32 accumulation for a float64 result": (
        "    if dtype == torch.float64:\n        return torch.float64, tl.float64\n", ""),
    "float16 accumulation": ("return torch.float32, tl.float32  # fp16/bf16/fp32 accumulate in fp32",
                             "return torch.float16, tl.float16"),
    "keepdim ignored": ("out_shape = keep_shape if keepdim else squeezed", "out_shape = squeezed"),
    "reduced dims of a tuple taken in the wrong order for the permute": (
        "x3 = x.permute(*kept, *red).contiguous()", "x3 = x.permute(*red, *kept).contiguous()"),
}
