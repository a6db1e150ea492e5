"""Plausible wrong versions of solutions/Random/rand.py: each must fail exe."""

VARIANTS = {
    "constant seed (every call returns the same numbers)": ('seed = int.from_bytes(os.urandom(8), "little")', "seed = 12345"),
    "program id left out of the counters (every block repeats)": [
        ("c = pid.to(tl.int64) * HALF + tl.arange(0, HALF)", "c = tl.arange(0, HALF).to(tl.int64)"),
        ("c = pid.to(tl.int64) * QUARTER + tl.arange(0, QUARTER)", "c = tl.arange(0, QUARTER).to(tl.int64)")],
    "float64 values built from 24 random bits": (
        "u = tl.reshape(tl.join(a, b), [BLOCK]) * 1.1102230246251565e-16",
        "u = tl.reshape(tl.join((r0 >> 8).to(tl.float64), (r2 >> 8).to(tl.float64)), [BLOCK]) * 5.960464477539063e-08"),
    "narrow dtypes rounded from a 24-bit float32 uniform (can give 1.0)": (
        "torch.float16: 11, torch.bfloat16: 8", "torch.float16: 24, torch.bfloat16: 24"),
    "one Philox word reused for two values": ("u1 = (r1 >> (32 - BITS))", "u1 = (r0 >> (32 - BITS))"),
    "scale 1/(2**bits - 1) reaches 1.0": ("scale = 1.0 / (1 << BITS)", "scale = 1.0 / ((1 << BITS) - 1)"),
    "size given as a tuple not unpacked": ("if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):\n        size = tuple(size[0])\n", ""),
}
