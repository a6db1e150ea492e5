"""Plausible wrong versions of solutions/MatrixMultiply/matmul_bf16.py: each must fail exe."""

VARIANTS = {
    "bfloat16 accumulator (rounded after every K step)": (
        "        a_at += BLOCK_K * sak\n",
        "        acc = acc.to(tl.bfloat16).to(tl.float32)\n        a_at += BLOCK_K * sak\n"),
    "inputs converted to float16 for the tensor cores": (
        "acc = tl.dot(a, b, acc)  # bf16", "acc = tl.dot(a.to(tl.float16), b.to(tl.float16), acc)  # bf16"),
    "other read transposed (its two strides swapped)": (
        "sbb, b.stride(-2), b.stride(-1),", "sbb, b.stride(-1), b.stride(-2),"),
    "float32 accumulator returned without the cast to bfloat16": (
        "dtype=torch.bfloat16, device=a.device)", "dtype=torch.float32, device=a.device)"),
    "batch stride of a shared 2-D input not zeroed": (
        "sab = a.stride(0) if a.dim() == 3 else 0", "sab = a.stride(0)"),
}
