"""Plausible wrong versions of solutions/Normalization/normalize_pairwise_distance.py: each must fail exe."""

VARIANTS = {
    "eps_distance added inside the root instead of to the distance": [
        ("        dist = _root(tl.sum(acc, axis=1), inv_p, MODE)\n",
         "        dist = _root(tl.sum(acc, axis=1) + eps_d, inv_p, MODE)\n"),
        ("tl.store(d_ptr + rows, dist + eps_d, mask=rmask)", "tl.store(d_ptr + rows, dist, mask=rmask)")],
    "eps_distance dropped": ("tl.store(d_ptr + rows, dist + eps_d, mask=rmask)", "tl.store(d_ptr + rows, dist, mask=rmask)"),
    "no eps_norm clamp of the normalizing norm": (
        "denom = tl.where(nrm != nrm, nrm, tl.maximum(nrm, eps_n))", "denom = nrm"),
    "p_norm ignored (always the 2-norm)": ("    mn = _mode(p_norm)\n", "    mn = _P_TWO\n"),
    "root of a general p-norm forgotten": ("        r = tl.exp2(tl.log2(s) * inv_p)\n", "        r = s\n"),
    "negative dim_norm counted on x1's dimensions instead of the distances'": (
        "    dim = dim_norm % len(dshape)\n", "    dim = dim_norm if dim_norm >= 0 else dim_norm + x1.dim()\n"),
}
