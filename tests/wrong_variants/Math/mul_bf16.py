"""Plausible wrong versions of solutions/Math/mul_bf16.py: each must fail exe."""

VARIANTS = {
    "result allocated as float32": ("y = torch.empty(shape, dtype=res_dtype, device=input.device)",
                                    "y = torch.empty(shape, dtype=torch.float32, device=input.device)"),
    "broadcast path adds instead of multiplying": ("tl.store(y_ptr + y_off, (a * b)", "tl.store(y_ptr + y_off, (a + b)"),
    "flat fast path used for non-contiguous operands": ("and input.is_contiguous() and other.is_contiguous()", ""),
    "Python number truncated to int": ("float(other), y, n", "int(other), y, n"),
    "mask drops the last element": ("mask = offsets < n_elements\n    a = tl.load(a_ptr + offsets, mask=mask).to(tl.float32)\n    b",
                                    "mask = offsets < n_elements - 1\n    a = tl.load(a_ptr + offsets, mask=mask).to(tl.float32)\n    b"),
    "operands squeezed through float16 (overflow above 65504)": (
        "a = tl.load(a_ptr + offsets, mask=mask).to(tl.float32)\n    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)\n    tl.store(y_ptr + offsets, (a * b)",
        "a = tl.load(a_ptr + offsets, mask=mask).to(tl.float16)\n    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float16)\n    tl.store(y_ptr + offsets, (a * b)"),
}
