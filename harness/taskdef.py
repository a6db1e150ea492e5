"""The vocabulary task files are written in: cases, seeded input generators, tolerances.

A task file (``harness/tasks/<Category>/<name>.py``) is a plain module that declares, top to bottom:

``ENTRY``        entry function name the submission must define (e.g. ``"gelu"``)
``SIGNATURE``    the exact upstream signature string, e.g. ``"gelu(input, approximate='none')"``
``DTYPES``       dtypes the task exercises, as strings (``["float32"]``)
``DIFFICULTY``   1..5 or ``None``
``DESCRIPTION``  what the function computes, in our own words (it becomes the prompt)
``reference(...)``            the PyTorch semantics, same signature as the entry
``cases(g: Inputs)``          yields correctness :class:`Case` s (fixed edge cases + random ones)
``perf_cases(g: Inputs)``     yields realistic H200-sized cases for timing
``FLOPS_PER_ELEMENT``         (optional) for the default elementwise cost model, or
``cost(case, output)``        (optional) returns a :class:`Cost` for a case
``TOLERANCE``                 (optional) ``{torch.dtype: Tolerance}`` overriding the defaults
``check(case, output, expected)`` (optional) custom checker returning a failure message or ``None``
``CORE_DTYPES``, ``CORE_KWARGS``, ``TIERS`` (optional) what the core tier covers (harness/tiers.py)
``COMPUTE_DTYPE``             (optional) the dtype whose measured matmul peak bounds a perf case
                              (default: its largest floating-point tensor's; "int8" for quantized
                              products of float inputs)
``PERF_MIX``                  (optional, default ``"elements"``) how a timed repetition combines the
                              two perf input sets (perf/server.py ``MIXES``): ``"in place"`` for
                              inputs whose elements must stay where they are (triangles, dominant
                              diagonals), ``"convex"`` for symmetric, Hermitian or positive-definite
                              ones, ``"gaussian"`` for inputs all drawn i.i.d. from one zero-mean
                              normal (``g.randn``) whose answer is an order statistic (min, argmax:
                              seen values at known places are probed cheaply), ``"none"`` where no
                              combination keeps the structure (a designed spectrum): the sets are
                              then timed as drawn
``DATA_MOVEMENT``             (optional, default ``False``) ``True`` for a task whose outputs copies
                              alone could make: a rearrangement of its input (a permutation, a
                              roll), or values that depend on no input tensor (random numbers, a
                              sequence), which could be prepared in advance. The wrapper may then
                              copy an argument only as it is given and join nothing
                              (sandbox/integrity.py ``TorchOpMonitor.rearranges``)

Everything a task generates comes from ``g``, a seeded generator, so the same seed gives the same
inputs in every process and on every device.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import torch

__all__ = ["Case", "Cost", "Inputs", "Tolerance"]


@dataclass
class Case:
    """One call of the entry function: positional and keyword arguments plus a short label."""

    label: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __init__(self, label: str, *args: Any, **kwargs: Any) -> None:
        self.label = label
        self.args = tuple(args)
        self.kwargs = dict(kwargs)

    def describe(self) -> str:
        """A one-line summary: label, tensor shapes/dtypes and non-tensor arguments."""
        def fmt(v: Any) -> str:
            if isinstance(v, torch.Tensor):
                nc = "" if v.is_contiguous() else ",strided"
                return f"{_dtype_name(v.dtype)}{list(v.shape)}{nc}"
            if isinstance(v, (tuple, list)) and any(isinstance(x, torch.Tensor) for x in v):
                inner = ", ".join(fmt(x) for x in v)
                return f"({inner})" if isinstance(v, tuple) else f"[{inner}]"
            return repr(v)
        parts = [fmt(a) for a in self.args] + [f"{k}={fmt(v)}" for k, v in self.kwargs.items()]
        return f"{self.label}: ({', '.join(parts)})"


@dataclass(frozen=True)
class Cost:
    """Work done by one case: floating-point (or integer) operations and the fewest bytes moved."""

    flops: float
    bytes: float


@dataclass(frozen=True)
class Tolerance:
    """Elementwise bound |out - ref| <= atol * scale + rtol * |ref|.

    ``scale`` is the RMS of the reference's finite values (1 when it is all zeros), so a tiny
    reference cannot be matched by an all-zero output. ``signed_zero``: a zero must also carry the
    reference's sign (a task whose text fixes it: ``abs(-0.0)`` is ``+0.0``, ``trunc(-0.5)`` is
    ``-0.0``; ``1 / x`` tells them apart), which no bound on ``|out - ref|`` sees.
    """

    atol: float
    rtol: float
    signed_zero: bool = False


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


class Inputs:
    """Seeded input factory handed to ``cases``/``perf_cases``.

    Random values are drawn on the CPU from one ``torch.Generator`` (so a seed means the same
    numbers everywhere) and then moved to ``device``; perf cases may draw on the device instead.
    Shapes are passed as separate ints.
    """

    def __init__(self, seed: int, device: str | torch.device = "cpu", draw_on_device: bool = False) -> None:
        self.seed = seed
        self.device = torch.device(device)
        # Perf-sized inputs are drawn on the GPU itself (drawing hundreds of MB on the CPU is slow);
        # the same seed still gives the same values in every process on the same device.
        self._draw = self.device if draw_on_device else torch.device("cpu")
        if self.device.type == "meta":  # shapes only (harness/task.py: perf_input_bytes)
            self._draw = self.device
        self.generator = None if self.device.type == "meta" else torch.Generator(device=self._draw).manual_seed(seed)

    # -- basic distributions -------------------------------------------------------------
    def _out(self, t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
        return t.to(dtype=dtype).to(self.device)

    def randn(self, *shape: int, dtype: torch.dtype = torch.float32, mean: float = 0.0,
              std: float = 1.0) -> torch.Tensor:
        """Normal(mean, std) values."""
        t = torch.randn(shape, generator=self.generator, dtype=torch.float64, device=self._draw) * std + mean
        return self._out(t, dtype)

    def uniform(self, *shape: int, low: float = 0.0, high: float = 1.0,
                dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """Uniform(low, high) values."""
        t = torch.rand(shape, generator=self.generator, dtype=torch.float64, device=self._draw) * (high - low) + low
        return self._out(t, dtype)

    def heavy_tailed(self, *shape: int, dtype: torch.dtype = torch.float32, scale: float = 1.0,
                     outlier_rate: float = 0.01, outlier_scale: float = 100.0) -> torch.Tensor:
        """Normal values with a share of large outliers (both signs), to catch overflow and
        precision bugs that well-behaved data hides."""
        t = torch.randn(shape, generator=self.generator, dtype=torch.float64, device=self._draw) * scale
        hit = torch.rand(shape, generator=self.generator, dtype=torch.float64, device=self._draw) < outlier_rate
        t = torch.where(hit, t * outlier_scale, t)
        return self._out(t, dtype)

    def randint(self, low: int, high: int, *shape: int, dtype: torch.dtype = torch.int64) -> torch.Tensor:
        """Integers in [low, high)."""
        t = torch.randint(low, high, shape, generator=self.generator, dtype=torch.int64, device=self._draw)
        return self._out(t, dtype)

    def tensor(self, values: Sequence | torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """A fixed tensor (edge values such as 0, ±inf, NaN, extremes)."""
        return self._out(torch.as_tensor(values, dtype=torch.float64 if dtype.is_floating_point else None), dtype)

    def permutation(self, n: int) -> torch.Tensor:
        """A random permutation of range(n) (int64)."""
        return torch.randperm(n, generator=self.generator, device=self._draw).to(self.device)

    # -- layouts -------------------------------------------------------------------------
    def strided(self, t: torch.Tensor, step: int = 2) -> torch.Tensor:
        """The same values as ``t`` in a non-contiguous layout: every ``step``-th element of a
        wider buffer along the last dimension (the gaps hold NaN, so reading them shows)."""
        shape = list(t.shape)
        wide = shape[:-1] + [shape[-1] * step]
        buf = torch.full(wide, float("nan") if t.dtype.is_floating_point else 0, dtype=t.dtype,
                         device=t.device)
        view = buf[..., ::step]
        view.copy_(t)
        return view

    def transposed(self, t: torch.Tensor) -> torch.Tensor:
        """The same values as the 2-D (or batched) ``t``, stored column-major (last two dims swapped)."""
        return t.transpose(-1, -2).contiguous().transpose(-1, -2)


# Default tolerances, justified per dtype:
# - float32: kernels may use other but accurate formulas (libdevice vs. ATen) and another summation
#   order; 1e-4 relative is ~800 ulp, far above those differences and far below any real bug.
# - float16 / bfloat16: two units in the last place of the format (2^-10 and 2^-7 relative), since the
#   kernel and PyTorch may round at different points when computing in fp32.
# - float64: as float32 is to its eps.
# - integers and bool: exact.
DEFAULT_TOLERANCES: dict[torch.dtype, Tolerance] = {
    torch.float64: Tolerance(atol=1e-9, rtol=1e-7),
    torch.float32: Tolerance(atol=1e-5, rtol=1e-4),
    torch.float16: Tolerance(atol=2e-3, rtol=2e-3),
    torch.bfloat16: Tolerance(atol=1.6e-2, rtol=1.6e-2),
}


def tolerance_for(dtype: torch.dtype, overrides: dict | None = None) -> Tolerance | None:
    """The tolerance for ``dtype`` (``None`` means exact comparison)."""
    if overrides and dtype in overrides:
        return overrides[dtype]
    return DEFAULT_TOLERANCES.get(dtype)


def numel_bytes(t: torch.Tensor) -> int:
    """Bytes a tensor occupies when read or written once (its logical elements, not its buffer)."""
    return t.numel() * t.element_size()


def tensor_leaves(obj: Any) -> list[torch.Tensor]:
    """All tensors inside nested tuples/lists/dicts (and namedtuples such as torch.return_types).
    By real types and the built-in containers' own iteration: a candidate's result may define a
    ``__class__`` property or ``__iter__``, which reading it here must not run."""
    kind = type(obj)
    if issubclass(kind, torch.Tensor):
        return [obj]
    if issubclass(kind, tuple):
        items = tuple.__iter__(obj)
    elif issubclass(kind, list):
        items = list.__iter__(obj)
    elif issubclass(kind, dict):
        items = dict.values(obj)
    else:
        return []
    return [t for x in items for t in tensor_leaves(x)]


def map_tensors(obj: Any, fn) -> Any:
    """``obj`` with ``fn`` applied to every tensor inside nested tuples/lists/dicts."""
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if isinstance(obj, tuple):
        return tuple(map_tensors(x, fn) for x in obj)
    if isinstance(obj, list):
        return [map_tensors(x, fn) for x in obj]
    if isinstance(obj, dict):
        return {k: map_tensors(v, fn) for k, v in obj.items()}
    return obj


def elementwise_cost(flops_per_element: float):
    """A cost model for ops that read their tensor inputs once and write their outputs once."""
    def cost(case: Case, output: Any) -> Cost:
        # An out= buffer is written, not read: count it once, as the output.
        ins = tensor_leaves(list(case.args) + [v for k, v in case.kwargs.items() if not k.startswith("out")])
        outs = tensor_leaves(output)
        n = max([t.numel() for t in ins + outs] or [0])
        moved = sum(numel_bytes(t) for t in ins) + sum(numel_bytes(t) for t in outs)
        return Cost(flops=flops_per_element * n, bytes=float(moved))
    return cost
