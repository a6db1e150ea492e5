"""Plausible wrong versions of solutions/Math/sub.py: each must fail exe."""

VARIANTS = {
    "alpha ignored": ("y = a - alpha * b", "y = a - b"),
    "alpha scales input instead of other": ("y = a - alpha * b", "y = alpha * a - b"),
    "other added instead of subtracted": ("y = a - alpha * b", "y = a + alpha * b"),
    "broadcast strides taken from the unexpanded tensor": (
        "st = list(t.expand(shape).stride())",
        "st = list(t.stride())"),
    "coordinates decomposed with the wrong size": ("i1 = r % S1", "i1 = r % S2"),
    "strided out= never written": ("        out.copy_(y)\n", "        pass\n"),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
