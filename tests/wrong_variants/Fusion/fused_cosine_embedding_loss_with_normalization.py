"""Plausible wrong versions of solutions/Fusion/fused_cosine_embedding_loss_with_normalization.py: each must fail exe."""

VARIANTS = {
    "margin added instead of subtracted": ("tl.maximum(cos - margin, 0.0)", "tl.maximum(cos + margin, 0.0)"),
    "negative pairs not clamped at 0": ("tl.maximum(cos - margin, 0.0)", "(cos - margin)"),
    "rows not normalized (raw dot product)": (
        "cos = dot / (tl.maximum(tl.sqrt(na), 1e-12) * tl.maximum(tl.sqrt(nb), 1e-12))", "cos = dot"),
    "zero rows divided by eps added to the norm (|x| + 1e-12) instead of max": (
        "tl.maximum(tl.sqrt(na), 1e-12) * tl.maximum(tl.sqrt(nb), 1e-12)", "tl.sqrt(na * nb) + 1e-12"),
    "mean taken as the sum": ("scale = (1.0 / R if R else float(\"nan\")) if reduction == \"mean\" else 1.0",
                              "scale = 1.0"),
}
