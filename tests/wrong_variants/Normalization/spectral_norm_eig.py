"""Plausible wrong versions of solutions/Normalization/spectral_norm_eig.py: each must fail exe."""

# input_precision="tf32" is ignored by Triton's CPU interpreter, so the TF32 variant rounds the dot
# operands to TF32's 10 mantissa bits explicitly: what the GPU does with tf32 products.

VARIANTS = {
    "TF32 products in the squarings": [
        ("bmat = tl.dot(bmat, bmat, input_precision=\"ieee\")",
         "bt = ((bmat.to(tl.int32, bitcast=True) + 0x1000) & -8192).to(tl.float32, bitcast=True)\n"
         "        bmat = tl.dot(bt, bt, input_precision=\"ieee\")"),
        ("        acc = tl.dot(lhs, rhs, acc, input_precision=\"ieee\")",
         "        lhs = ((lhs.to(tl.int32, bitcast=True) + 0x1000) & -8192).to(tl.float32, bitcast=True)\n"
         "        rhs = ((rhs.to(tl.int32, bitcast=True) + 0x1000) & -8192).to(tl.float32, bitcast=True)\n"
         "        acc = tl.dot(lhs, rhs, acc, input_precision=\"ieee\")")],
    "too few squarings (8): ||A^256||^(1/256) has not converged": ("_SQUARINGS = 32", "_SQUARINGS = 8"),
    "no max|a| prescaling: ||A||_F overflows or underflows in float32": [
        ("    a = a * tl.where(amax > 0, 1.0 / amax, 0.0)\n", ""),
        ("tl.store(out_ptr + b * s_out, amax * s0 * tl.exp2(log2r))", "tl.store(out_ptr + b * s_out, s0 * tl.exp2(log2r))")],
    "zero matrix divides by a zero norm (NaN)": [
        ("bmat = a * tl.where(s0 > 0, 1.0 / s0, 0.0)", "bmat = a / s0"),
        ("bmat = bmat * tl.where(s > 0, 1.0 / s, 0.0)", "bmat = bmat / s")],
    "log weights start at 1 instead of 1/2 (exponent off by one squaring)": [
        ("    w = tl.full([], 0.5, tl.float32)\n", "    w = tl.full([], 1.0, tl.float32)\n"),
        ("tiles, 0.5 ** k,", "tiles, 0.5 ** (k - 1),")],
    "out= ignored: a new tensor is returned": (
        "result = out if out is not None else torch.empty(batch, dtype=torch.float32, device=A.device)",
        "result = torch.empty(batch, dtype=torch.float32, device=A.device)"),
}
