"""Plausible wrong versions of solutions/Math/signbit.py: each must fail exe."""

VARIANTS = {
    "float comparison x < 0 (misses -0.0 and -NaN)": ("tl.store(y_ptr + offsets, bits < 0, mask=mask)",
                                                      "tl.store(y_ptr + offsets, x < 0.0, mask=mask)"),
    "x <= 0 (true for +0.0)": ("tl.store(y_ptr + offsets, bits < 0, mask=mask)",
                               "tl.store(y_ptr + offsets, x <= 0.0, mask=mask)"),
    "wrong bit tested (bit 30)": ("tl.store(y_ptr + offsets, bits < 0, mask=mask)",
                                  "tl.store(y_ptr + offsets, (bits & 0x40000000) != 0, mask=mask)"),
    "strided out= never written": ("        out.copy_(y.view(input.shape))\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
