"""Channel-wise cosine similarity of two float32 feature maps, then 2-D average pooling of the map."""

import torch
import torch.nn.functional as F

from harness.checks import bind_arguments
from harness.taskdef import Case, Cost, Inputs, numel_bytes

ENTRY = "fused_avg_pool2d_cosine_similarity"
SIGNATURE = "fused_avg_pool2d_cosine_similarity(x1, x2, kernel_size, stride=None, padding=0, eps=1e-08)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["eps", "kernel_size", "padding", "stride"]
DIFFICULTY = 3
DESCRIPTION = """
`x1` and `x2` are float32 tensors of shape (N, C, H, W) (either may be non-contiguous).
1. At every (n, h, w) take the cosine similarity of the two C-vectors x1[n, :, h, w] and
   x2[n, :, h, w], as torch.nn.functional.cosine_similarity(x1, x2, dim=1, eps=eps):
   cos = sum_c x1 * x2 / (max(||x1||_2, eps) * max(||x2||_2, eps)), each norm clamped on its own
   (`eps` > 0, default 1e-8). This is an (N, H, W) map; view it as (N, 1, H, W).
2. Average-pool the map like torch.nn.functional.avg_pool2d(map, kernel_size, stride, padding) with
   its defaults (ceil_mode=False, count_include_pad=True): `kernel_size` is an int k or a pair
   (k_h, k_w); `stride` likewise, None (default) meaning the kernel size; `padding` an int or pair
   (default 0, at most half the kernel size) of implicit zeros on both sides. Output position (i, j)
   is the sum of the map over rows [i*s_h - p_h, i*s_h - p_h + k_h) x columns [j*s_w - p_w, j*s_w - p_w + k_w)
   (positions outside the map count as 0) divided by k_h * k_w; the output size is
   floor((H + 2 p_h - k_h) / s_h) + 1 by floor((W + 2 p_w - k_w) / s_w) + 1.
Return a new float32 tensor of shape (N, 1, OH, OW). The inputs must not be modified.
"""


def reference(x1, x2, kernel_size, stride=None, padding=0, eps=1e-08):
    cos = F.cosine_similarity(x1, x2, dim=1, eps=eps).unsqueeze(1)
    return F.avg_pool2d(cos, kernel_size=kernel_size, stride=stride, padding=padding)


# Tolerance: the defaults (1e-4 relative plus 1e-5 of the RMS). Each cosine carries a few ulp in any
# summation order over C, and a window mean of k_h * k_w of them a few more; pooled values of random
# data are O(0.01..0.3), so the 1e-5-of-RMS floor still resolves a missing padding divisor (count
# excluding pads), a wrong eps clamp, or a window off by one.


def cost(case: Case, output) -> Cost:
    args = bind_arguments(reference, case)
    a, b = args["x1"], args["x2"]
    # per element: three multiply-adds (dot and two squared norms); the pooling is per map position
    return Cost(flops=6.0 * a.numel() + 2.0 * a.numel() / max(a.shape[1], 1),
                bytes=float(numel_bytes(a) + numel_bytes(b) + numel_bytes(output)))


def _correlated(g: Inputs, *shape: int):
    """x2 = x1 + noise, so the cosines are far from 0 and the pooled means are O(0.5)."""
    a = g.randn(*shape)
    return a, a + g.randn(*shape)


def cases(g: Inputs):
    # Upstream-like: kernel 2 or 3, with and without stride and padding, several eps.
    yield Case("k2", *_correlated(g, 2, 8, 16, 16), 2)
    yield Case("k3-s2", *_correlated(g, 3, 5, 17, 15), 3, stride=2)
    yield Case("k3-s1-p1", *_correlated(g, 2, 6, 12, 13), 3, stride=1, padding=1)
    yield Case("k2-p1", g.randn(2, 4, 11, 9), g.randn(2, 4, 11, 9), 2, padding=1)
    yield Case("k4-s3-p2-eps", *_correlated(g, 2, 7, 20, 19), 4, stride=3, padding=2, eps=1e-6)
    yield Case("pairs", *_correlated(g, 2, 3, 14, 21), (2, 3), stride=(2, 1), padding=(1, 0))
    yield Case("wide-c", *_correlated(g, 1, 300, 9, 10), 3)
    yield Case("global", *_correlated(g, 2, 16, 7, 7), 7)
    yield Case("outliers", g.heavy_tailed(2, 12, 16, 16, scale=2.0), g.heavy_tailed(2, 12, 16, 16), 2)
    # eps above some vectors' norms: those norms are clamped to eps.
    small = g.randn(2, 4, 8, 8) * 1e-3
    yield Case("eps-clamps", small, g.randn(2, 4, 8, 8), 2, eps=0.01)
    # Edge: layouts, zero vectors.
    yield Case("strided", g.strided(g.randn(2, 3, 12, 20)), g.randn(2, 3, 12, 20), 3, stride=2)
    cl = g.randn(2, 6, 13, 11).to(memory_format=torch.channels_last)
    yield Case("channels-last", cl, cl + g.randn(2, 6, 13, 11), 2)
    z = g.randn(1, 4, 6, 6)
    z[:, :, 2, 3] = 0.0
    yield Case("zero-vector", z, g.randn(1, 4, 6, 6), 2, stride=1)


def perf_cases(g: Inputs):
    # Upstream's (16, 64, H, W) maps: 268 MB and 604 MB per input.
    yield Case("16x64x256x256-k2", g.randn(16, 64, 256, 256), g.randn(16, 64, 256, 256), 2)
    yield Case("16x64x384x384-k3-s2-p1", g.randn(16, 64, 384, 384), g.randn(16, 64, 384, 384), 3, stride=2,
               padding=1)
