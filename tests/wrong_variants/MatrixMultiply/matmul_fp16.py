"""Plausible wrong versions of solutions/MatrixMultiply/matmul_fp16.py: each must fail exe."""

VARIANTS = {
    # On a GPU the tensor cores then accumulate in float16 inside every K step; Triton's interpreter
    # rounds once per BLOCK_K tile, which the deep-K and large-partial-sum cases still catch.
    "float16 accumulator": [
        ("acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)",
         "acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float16)"),
        ("acc = tl.dot(a, b, acc)  # fp16 x fp16 -> fp32 accumulator", "acc = tl.dot(a, b, acc, out_dtype=tl.float16)"),
    ],
    "other read transposed (its two strides swapped)": (
        "sbb, b.stride(-2), b.stride(-1),", "sbb, b.stride(-1), b.stride(-2),"),
    "float32 accumulator returned without the cast to float16": (
        "dtype=torch.float16, device=a.device)", "dtype=torch.float32, device=a.device)"),
    "batch stride of a shared 2-D other not zeroed": (
        "sbb = b.stride(0) if b.dim() == 3 else 0", "sbb = b.stride(0)"),
    "K loop skips the partial last chunk": (
        "for k0 in range(0, K, BLOCK_K):", "for k0 in range(0, K - BLOCK_K + 1, BLOCK_K):"),
}
