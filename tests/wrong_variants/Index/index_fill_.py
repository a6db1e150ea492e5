"""Plausible wrong versions of solutions/Index/index_fill_.py: each must fail exe."""

VARIANTS = {
    "negative indices not wrapped": ("idx = tl.where(idx < 0, idx + D, idx)", "idx = idx"),
    "value passed through float32 (int64 fills lose bits)": ("val = torch.full((1,), value, dtype=x.dtype, device=x.device)",
                                                             "val = torch.full((1,), value, dtype=torch.float32, device=x.device)"),
    "fills a contiguous copy instead of x itself": ("    idx = index.reshape(-1)\n", "    idx = index.reshape(-1)\n    x = x.contiguous()\n"),
    "index mask drops the last index entry": ("k_mask = k < K", "k_mask = k < K - 1"),
    "index stride ignored": ("idx_ptr + k * idx_stride", "idx_ptr + k"),
}
