"""Building blocks for tasks' custom checkers (the ``check`` a task file may define)."""

from __future__ import annotations

import inspect
import math
from typing import Any, Callable, Iterable

import torch

from harness.taskdef import Case

EPS32 = torch.finfo(torch.float32).eps


def bind_arguments(fn: Callable[..., Any], case: Case) -> dict[str, Any]:
    """The case's arguments by parameter name of ``fn``, defaults filled in."""
    bound = inspect.signature(fn).bind(*case.args, **case.kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def check_summed_scalar(output: Any, expected: torch.Tensor, exact: float, magnitude: float, n: int, *,
                        per_term: float = 0.0, c: float = 8.0, k: float = 16.0, rtol: float = 1.1e-4) -> str | None:
    """Judge a float32 scalar that sums ``n`` terms against its float64 value ``exact``.

    Allowed error: ``rtol*|exact| + eps32*(k*per_term + c*sqrt(n)*magnitude)``, where ``magnitude``
    is the same reduction over |term| and ``per_term`` bounds the rounding inside the terms. Rounding
    errors of a sum in any reasonable order grow like sqrt(n)*eps*magnitude (a plain sequential sum
    stays near 0.3 of that), so ``c = 8`` passes every correct order while a missing or doubled term
    fails. NaN must match NaN.
    """
    if not isinstance(output, torch.Tensor):
        return f"output: expected a tensor, got {type(output).__name__}"
    if output.shape != expected.shape or output.dtype != expected.dtype:
        return f"output: {output.dtype}{list(output.shape)} != expected {expected.dtype}{list(expected.shape)}"
    got = output.double().item()
    if math.isnan(exact) or math.isnan(got):
        return None if math.isnan(exact) and math.isnan(got) else f"output: got {got!r}, expected {exact!r}"
    allowed = rtol * abs(exact) + EPS32 * (k * per_term + c * math.sqrt(max(n, 1)) * magnitude)
    if not abs(got - exact) <= allowed:
        return (f"output: got {got!r}, expected {exact!r} (float64 evaluation; PyTorch float32 gives "
                f"{expected.item()!r}): |err| {abs(got - exact):.3g} > allowed {allowed:.3g}")
    return None


def check_with_allowance(output: Any, expected: torch.Tensor, allowance: torch.Tensor,
                         describe: Callable[[int], str] = lambda i: "") -> str | None:
    """The default float32 comparison plus an extra per-element ``allowance`` (e.g. the error any
    float32 evaluation makes because its argument was rounded). Structure, dtype and NaN/inf
    placement are checked first; ``describe(i)`` names the inputs of flat element ``i``."""
    from harness.compare import compare_outputs
    from harness.taskdef import Tolerance, tolerance_for

    msg = compare_outputs(output, expected, {torch.float32: Tolerance(atol=float("inf"), rtol=0.0)})
    if msg:
        return msg
    ref, got = expected.double(), output.double()
    finite = torch.isfinite(ref)
    if not finite.any():
        return None
    tol = tolerance_for(torch.float32)
    scale = ref[finite].square().mean().sqrt().item() or 1.0
    bound = tol.atol * scale + tol.rtol * ref.abs() + allowance
    bad = finite & ((got - ref).abs() > bound)
    if not bad.any():
        return None
    i = int(torch.nonzero(bad.flatten())[0])
    context = describe(i)
    return (f"output: {int(bad.sum())} of {ref.numel()} elements differ; first at flat index {i}"
            f"{f' ({context})' if context else ''}: got {got.flatten()[i].item()!r}, expected "
            f"{ref.flatten()[i].item()!r}, allowed error {bound.flatten()[i].item():.3g}")


# Steepest slope of an interpolant along one axis, per unit of max|input|: linear, |in[i1] - in[i0]|
# <= 2 max|in|; bicubic (a = -0.75), the four taps' |W'| sum to at most 4.2, times at most 1.5 for
# the other axis's sum of |W|.
INTERPOLANT_SLOPE = {"linear": 2.0, "bilinear": 2.0, "bicubic": 6.3}


def interpolation_allowance(mode: str, sizes: Iterable[int], roundings: int, input: torch.Tensor) -> float:
    """The error a correct float32 resampling kernel may show because it rounds its source
    coordinates differently from PyTorch (operation order, whether ``a*b+c`` is fused into one FMA):
    per resampled axis of size ``n``, ``roundings`` float32 roundings of a coordinate below
    2^ceil(log2 n), times the interpolant's steepest slope times max|input|. 0 for modes without
    interpolation weights (nearest, area)."""
    slope = INTERPOLANT_SLOPE.get(mode)
    finite = input[torch.isfinite(input)] if input.numel() else input
    if slope is None or not finite.numel():
        return 0.0
    coordinate_error = sum(roundings * EPS32 / 2 * 2.0 ** math.ceil(math.log2(max(n, 2))) for n in sizes)
    return slope * coordinate_error * finite.abs().max().double().item()


# -- matrix products ----------------------------------------------------------------------------
# A product's error depends on its inputs, not only on its value: each output element sums K terms,
# and its rounding error is bounded by a multiple of |A| @ |B| (the same sum over absolute terms),
# never of the output itself, which may cancel to near zero. The bound below is
#   ACCUMULATION_C * sqrt(K) * u_acc * (|A| @ |B|)  +  u_out * |exact|  +  tiny
# with u the unit roundoff (eps / 2) of the accumulation type and of the output type. Rounding errors
# of a K-term sum in any order behave like a random walk (worst case K*u, attained only by adversarial
# data), so sqrt(K) with ACCUMULATION_C = 8 passes every correct summation order -- sequential,
# blocked, split-K, tensor-core -- with a wide margin on random data, while an accumulator of a
# narrower type (float16: u = 2^-11, 8192 times float32's) or float32 inputs rounded to TF32 (10-bit
# mantissa) errs by orders of magnitude more and fails. Inputs of float16 / bfloat16 multiply exactly
# in float32, so with float32 accumulation they meet the float32 bound.
ACCUMULATION_C = 8.0


def unit_roundoff(dtype: torch.dtype) -> float:
    """Half the machine epsilon of a floating dtype (complex: of its real part)."""
    return torch.finfo(dtype.to_real() if dtype.is_complex else dtype).eps / 2


def product_bound(a: torch.Tensor, b: torch.Tensor, *, out_dtype: torch.dtype,
                  accumulate: torch.dtype = torch.float32, scale: float = 1.0,
                  exact: torch.Tensor | None = None) -> torch.Tensor:
    """The allowed error of each element of ``scale * (a @ b)`` (batched ``@`` semantics) computed
    with a ``accumulate`` accumulator and rounded to ``out_dtype``, in float64 (see the bound above).
    ``exact`` is the float64 product (computed here if not given), for the output-rounding term."""
    k = a.shape[-1] if a.dim() > 1 else a.shape[0]
    magnitude = abs(scale) * (a.abs().double() @ b.abs().double())
    if exact is None:
        exact = scale * (a.double() @ b.double())
    tiny = torch.finfo(out_dtype).tiny
    return (ACCUMULATION_C * math.sqrt(max(k, 1)) * unit_roundoff(accumulate) * magnitude
            + unit_roundoff(out_dtype) * exact.abs() + tiny)


def check_bounded(output: Any, exact: torch.Tensor, bound: torch.Tensor, *, dtype: torch.dtype,
                  where: str = "output") -> str | None:
    """``output`` (a tensor of ``exact``'s shape and ``dtype``) within ``bound`` of ``exact`` (float64)
    elementwise; NaN and infinities where ``exact`` has them, and no all-zero or constant output where
    ``exact`` varies (a near-zero result cannot be matched by returning zeros)."""
    from harness.compare import _trivial_output  # the same degenerate-output rule as every comparison

    if not isinstance(output, torch.Tensor):
        return f"{where}: expected a tensor, got {type(output).__name__}"
    if output.shape != exact.shape or output.dtype != dtype:
        return f"{where}: {output.dtype}{list(output.shape)} != expected {dtype}{list(exact.shape)}"
    if exact.numel() == 0:
        return None
    got = output.to(exact.device).double()
    # judged against the exact values as the output's dtype can hold them: float64 values that
    # differ only beyond its precision do not make a constant output degenerate
    trivial = _trivial_output(got, exact.to(dtype).double(), where)
    if trivial:
        return trivial
    finite = torch.isfinite(exact)
    same_special = torch.where(finite, torch.isfinite(got), (got == exact) | (got.isnan() & exact.isnan()))
    if not same_special.all():
        i = int(torch.nonzero(~same_special.flatten())[0])
        return (f"{where}: non-finite values differ from the reference's: first at flat index {i}: "
                f"got {got.flatten()[i].item()!r}, expected {exact.flatten()[i].item()!r}")
    err = (got - exact).abs()
    bad = finite & (err > bound)
    if not bad.any():
        return None
    i = int(torch.nonzero(bad.flatten())[0])
    ratio = (err[finite] / bound[finite]).max().item()
    return (f"{where}: {int(bad.sum())} of {exact.numel()} elements beyond the allowed rounding error (worst "
            f"{ratio:.3g}x the bound); first at flat index {i}: got {got.flatten()[i].item()!r}, exact "
            f"{exact.flatten()[i].item()!r}, allowed error {bound.flatten()[i].item():.3g}")


def statistics_device(t: torch.Tensor, float64_copies: int) -> torch.device:
    """Where a statistical check of ``t`` runs: on ``t``'s GPU while it has room for twice
    ``float64_copies`` float64 copies of ``t`` (other jobs share it), else on the CPU. For a
    perf-size output the tests (a sort, a few dozen passes) take tens of seconds on the CPU; their
    counts and order statistics are the same on either device, their sums equal up to float64
    rounding."""
    if t.is_cuda:
        free, _ = torch.cuda.mem_get_info(t.device)
        if free >= 2 * float64_copies * 8 * t.numel():
            return t.device
    return torch.device("cpu")


def judge_positions(n: int, k: int, device: torch.device | str = "cpu") -> torch.Tensor:
    """``min(n, k)`` distinct positions in ``range(n)``, drawn by the judge after the call from a
    seed of its own (``secrets``): a test across calls that remembers the values at these positions
    reads a spread of the whole output no submission can predict (a prefix it could make fresh
    while the rest repeats: tests/adversarial/rand_fixed_stream_past_prefix.py)."""
    import secrets
    if n <= k:
        return torch.arange(n, device=device)
    gen = torch.Generator(device="cpu").manual_seed(secrets.randbits(63))
    # twice as many draws as wanted, the distinct ones in random order: distinct positions without
    # the O(n) cost of a permutation of a large output
    drawn = torch.unique(torch.randint(n, (2 * k,), generator=gen))
    while drawn.numel() < k:  # (k close to n: draw again)
        drawn = torch.unique(torch.cat([drawn, torch.randint(n, (2 * k,), generator=gen)]))
    return drawn[torch.randperm(drawn.numel(), generator=gen)[:k]].to(device)
