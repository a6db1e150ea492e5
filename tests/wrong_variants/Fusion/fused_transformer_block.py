"""Plausible wrong versions of solutions/Fusion/fused_transformer_block.py: each must fail exe."""

VARIANTS = {
    # Triton's interpreter ignores input_precision (numpy multiplies in float32), so the edit also
    # drops the 13 low mantissa bits of the operands, which is what the tensor cores read of a
    # float32 register in TF32 mode.
    "TF32 first product": (
        '        acc = tl.dot(a, b, acc, input_precision="ieee", out_dtype=tl.float32)',
        '        a = (a.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        b = (b.to(tl.int32, bitcast=True) & -8192).to(tl.float32, bitcast=True)\n'
        '        acc = tl.dot(a, b, acc, input_precision="tf32", out_dtype=tl.float32)'),
    "training-mode scaling 1 / (1 - p) without a mask": [
        ("M, NK, NO, T1, T2, swk, swn, srm, srn,", "M, NK, NO, T1, T2, swk, swn, srm, srn, keep_scale,"),
        ("weight2.stride(0), weight2.stride(1), r.stride(0), r.stride(1),",
         "weight2.stride(0), weight2.stride(1), r.stride(0), r.stride(1), 1.0 / (1.0 - dropout_p),"),
        ("        p = tl.exp(z - lse[:, None])  # dropout in eval mode: the probabilities as they are",
         "        p = tl.exp(z - lse[:, None]) * keep_scale"),
    ],
    "tiles' softmax sums added without rescaling to the row maximum": (
        "        total += tl.sum(ts * tl.exp(tm - mx[:, None]), axis=1)", "        total += tl.sum(ts, axis=1)"),
    "eps ignored (fixed 1e-5)": (
        "    rstd = 1.0 / tl.sqrt(tl.sum(m2, axis=0) / NO + eps)", "    rstd = 1.0 / tl.sqrt(tl.sum(m2, axis=0) / NO + 1e-5)"),
    "unbiased variance": (
        "    rstd = 1.0 / tl.sqrt(tl.sum(m2, axis=0) / NO + eps)", "    rstd = 1.0 / tl.sqrt(tl.sum(m2, axis=0) / (NO - 1) + eps)"),
    "residual assumed full-shape and contiguous": ("r.stride(0), r.stride(1)", "D_out, 1"),
    "out= ignored (a new tensor is returned)": (
        "    y = out if out is not None else torch.empty(shape", "    y = torch.empty(shape"),
}
