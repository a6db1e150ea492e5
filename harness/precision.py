"""Numerics switches pinned identically wherever a result is computed or timed (reference,
candidate, baselines, roofline), so no side gets TF32 or reduced-precision matmuls."""

from __future__ import annotations

from typing import Any


def pin_precision(torch_module: Any) -> None:
    """Full-precision float32 matmuls and convolutions: TF32 off, matmul precision 'highest'."""
    torch_module.backends.cuda.matmul.allow_tf32 = False
    torch_module.backends.cudnn.allow_tf32 = False
    torch_module.set_float32_matmul_precision("highest")
