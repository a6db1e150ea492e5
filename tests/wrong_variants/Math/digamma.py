"""Plausible wrong versions of solutions/Math/digamma.py: each must fail exe."""

VARIANTS = {
    "reflection term added instead of subtracted": ("res = tl.where(neg, res - refl, res)",
                                                    "res = tl.where(neg, res + refl, res)"),
    "reflection with tan(pi x) (no reduction of the argument)": ("r = x - tl.floor(x + 0.5)", "r = x"),
    "negative integers not mapped to NaN": ("res = tl.where(neg_int, float(\"nan\"), res)", "res = res"),
    "sign of zero ignored (psi(-0) = -inf)": ("res = tl.where(x == 0.0, -1.0 / x, res)",
                                              "res = tl.where(x == 0.0, float(\"-inf\"), res)"),
    "first Bernoulli term 1/6 instead of 1/12": ("w * (8.333333333333333e-2 -", "w * (1.6666666666666666e-1 -"),
    "reflection reduced with trunc (loses accuracy beside the next pole)": (
        "r = x - tl.floor(x + 0.5)", "r = x - xi"),
    "downward recurrence with 1/z instead of 1/(z - 1)": ("acc = acc + tl.where(m, 1.0 / (zz - 1.0), 0.0)",
                                                         "acc = acc + tl.where(m, 1.0 / zz, 0.0)"),
    "z < 1 shifted without the -1/z term": ("acc = tl.where(up, -1.0 / z, 0.0)", "acc = tl.where(up, 0.0, 0.0)"),
}
