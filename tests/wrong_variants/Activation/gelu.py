"""Plausible wrong versions of solutions/Activation/gelu.py: each must fail exe."""

VARIANTS = {
    "erf argument scaled by 0.7 instead of 1/sqrt(2)": ("x * 0.7071067811865476", "x * 0.7"),
    "tanh form without the cubic term": ("(x + 0.044715 * x * x * x)", "x"),
    "tanh branch taken for approximate='none'": ('USE_TANH=approximate == "tanh"', 'USE_TANH=approximate == "none"'),
    "mask drops the last element": ("mask = offsets < n_elements", "mask = offsets < n_elements - 1"),
}
