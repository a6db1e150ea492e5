"""Plausible wrong versions of solutions/Math/sub.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("y = a - alpha * b", "y = a - b"),
    "alpha scales input instead of other": ("y = a - alpha * b", "y = alpha * a - b"),
    "other added instead of subtracted": ("y = a - alpha * b", "y = a + alpha * b"),
    # Index bugs are kept in bounds (no variant may rely on out-of-bounds reads).
    "broadcast strides padded on the wrong side": ("return [0] * (_MAX_DIMS - len(st)) + st",
                                                   "return st + [0] * (_MAX_DIMS - len(st))"),
    "scalar other truncated to int": ("float(other) if b_is_scalar else 0.0",
                                      "float(int(other)) if b_is_scalar else 0.0"),
    "strided out= never written": ("        out.copy_(y)\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
