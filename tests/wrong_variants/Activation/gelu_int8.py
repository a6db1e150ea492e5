"""Plausible wrong versions of solutions/Activation/gelu_int8.py: each must fail exe."""

VARIANTS = {
    "rounds to nearest instead of truncating": (
        "tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)",
        "tl.store(y_ptr + offsets, tl.where(y >= 0.0, y + 0.5, y - 0.5).to(y_ptr.dtype.element_ty), mask=mask)"),
    "floor instead of truncation (negatives become -1)": (
        "tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)",
        "tl.store(y_ptr + offsets, tl.floor(y).to(y_ptr.dtype.element_ty), mask=mask)"),
    "output always int8 (int16 input overflows)": ("y = torch.empty_like(x)", "y = torch.empty_like(x, dtype=torch.int8)"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
