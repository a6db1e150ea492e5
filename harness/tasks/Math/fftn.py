"""N-dimensional discrete Fourier transform of a real float32 tensor (complex64 result)."""

import math

import torch

from harness.compare import compare_outputs
from harness.taskdef import Case, Cost, Inputs, Tolerance, numel_bytes

ENTRY = "fftn"
SIGNATURE = "fftn(input, s=None, dim=None, norm=None, out=None)"
DTYPES = ["float32"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float32"]
CORE_KWARGS = ["dim", "norm", "s"]
DIFFICULTY = 5
DESCRIPTION = """
Compute the N-dimensional discrete Fourier transform of a real float32 tensor, like
torch.fft.fftn(input, s=s, dim=dim, norm=norm, out=out), returning a complex64 tensor with all
positive and negative frequencies: along every transformed dimension of (signal) length n,
X[k] = sum_{j<n} x[j] * exp(-2 pi i j k / n), k = 0..n-1, applied over each transformed dimension in
turn (the transform is separable). `input` has any shape (at least one element along every
transformed dimension) and may be non-contiguous. `dim` is None, an int or a tuple/list of distinct
ints (negative values count from the end): the dimensions to transform; when None, all dimensions
are transformed, or only the last len(s) ones if `s` is given. `s` is None or a tuple/list with one
signal length per transformed dimension: dimension dim[i] is zero-padded at the end or trimmed to
length s[i] before transforming (s[i] = -1 keeps that dimension's size), so the result has size
s[i] along dim[i]; other dimensions are unchanged. `norm` scales the result: None or 'backward' (no
scaling), 'forward' (multiply by 1/N) or 'ortho' (1/sqrt(N)), where N is the product of the signal
lengths. When `out` is None return a new complex64 tensor; when `out` is given (a complex64 tensor of
the result's shape, possibly non-contiguous) write the result into it and return `out` itself. The
input is never modified. Accuracy: every output must be within about 3e-5 times the RMS magnitude
of the result of the exact transform (transformed lengths up to 256 are tested), which float32
products and sums achieve; TF32 or half-precision products do not, and neither do twiddle angles
2 pi j k / n formed in float32 from the unreduced product j * k (reduce j * k modulo n first).
"""

# The reference (pocketfft / cuFFT) accumulates rounding like O(log n), a direct DFT (for example as
# matrix products against twiddle factors) like O(n): per output, the float32 error bound is about
# n * eps times sum |x|, i.e. ~n * eps relative to the RMS of the output, summed over the passes.
# The longest transformed length here is 256 (sum over passes <= ~300), so a correct float32
# implementation may differ by up to ~2e-5 of the RMS (random-walk growth makes ~1e-6 typical).
# atol = 3e-5 (relative to the RMS of |ref|, compared as complex moduli) accepts every algorithm
# that multiplies and accumulates in float32, and still rejects TF32 or half-precision products,
# which are off by ~1e-3.
TOLERANCE = {torch.complex64: Tolerance(atol=3e-5, rtol=1e-4)}

CHECK_NOTE = ("compared as complex numbers with the tolerance above, after first requiring NaN/inf "
              "exactly where the reference has them (the generic complex comparison lets NaN through)")


def check(case: Case, output, expected):
    """The generic comparison, preceded by a finiteness check: a NaN error is never larger than
    the bound, so the complex comparison alone would accept NaN outputs."""
    if (isinstance(output, torch.Tensor) and isinstance(expected, torch.Tensor)
            and output.is_complex() and output.shape == expected.shape):
        bad = torch.isfinite(output) != torch.isfinite(expected.to(output.device))
        if bad.any():
            return (f"output: {int(bad.sum())} of {bad.numel()} values are NaN/inf where the reference "
                    "is finite (or the reverse)")
    return compare_outputs(output, expected, TOLERANCE)


def reference(input, s=None, dim=None, norm=None, out=None):
    return torch.fft.fftn(input, s=s, dim=dim, norm=norm, out=out)


def _complex(g: Inputs, *shape):
    return torch.complex(g.randn(*shape), g.randn(*shape))


def cases(g: Inputs):
    # Sizes stay small (the interpreter is slow) but cover odd, prime, power-of-two and length-1
    # transforms, every keyword, padding and trimming.
    yield Case("1d-prime", g.randn(37))
    yield Case("1d-pow2-dc-offset", g.uniform(256, low=0.0, high=1.0))
    yield Case("1d-length-1", g.randn(1))
    yield Case("2d-all", g.randn(16, 24))
    yield Case("2d-dim-0", g.randn(12, 20), dim=0)
    yield Case("2d-dim-neg-ortho", g.heavy_tailed(12, 20, scale=2.0), dim=-1, norm="ortho")
    yield Case("batched-rows", g.randn(8, 64), dim=-1)
    yield Case("3d-tuple-forward", g.randn(4, 6, 10), dim=(0, 2), norm="forward")
    yield Case("3d-all-backward", g.uniform(5, 6, 7, low=-1.0, high=3.0), norm="backward")
    yield Case("s-pad", g.randn(10, 12), s=(16, 15))
    yield Case("s-trim", g.randn(20, 18), s=(7, 9))
    yield Case("s-minus-1", g.randn(6, 10), s=(-1, 14))
    yield Case("s-last-dims", g.randn(3, 8, 12), s=(5, 6))  # dim=None with s: the last len(s) dims
    yield Case("s-dim-list-unsorted", g.randn(5, 7, 9), s=[12, 3], dim=[2, 0], norm="ortho")
    yield Case("size-1-dim", g.randn(1, 9, 1), dim=(0, 1))
    yield Case("transposed", g.transposed(g.randn(24, 18)))
    yield Case("strided", g.strided(g.randn(9, 20)), dim=1, norm="forward")
    yield Case("out", g.randn(6, 10), out=_complex(g, 6, 10))
    yield Case("out-transposed-s", g.randn(7, 11), s=(8, 5), out=_complex(g, 5, 8).t())


def perf_cases(g: Inputs):
    yield Case("2d-1024x1024", g.randn(1024, 1024))
    yield Case("batched-2d-64x256x256", g.randn(64, 256, 256), dim=(-2, -1))
    yield Case("3d-128^3-ortho", g.randn(128, 128, 128), norm="ortho")
    yield Case("rows-4096x4096", g.randn(4096, 4096), dim=-1)


def cost(case: Case, output) -> Cost:
    # The nominal FFT operation count, 5 N log2 N for a complex transform of N points (half of it
    # for real input), and the fewest bytes: read the input once, write the complex result once.
    x = case.args[0]
    n_out = output.numel()
    return Cost(flops=2.5 * n_out * math.log2(max(n_out, 2)),
                bytes=float(numel_bytes(x) + numel_bytes(output)))
