"""Close gaps between Triton's CPU interpreter and a GPU, so correct kernels pass on CPU.

1. bf16 arithmetic. The interpreter stores bfloat16 values as raw uint16 bit patterns and applies numpy ops to those
bits, so ``x * 0.5`` on a bf16 block yields garbage, while on a GPU it is computed in fp32 and
rounded to bf16. A correct kernel must not fail for that, so elementwise ops on bf16 operands are
patched to decode to float32, apply the op, and round back to bf16 (nearest-even). ``tl.dot`` of
bf16 blocks multiplies the decoded values (exact in float32, as the tensor cores do), and a
float32 -> bf16 cast rounds to nearest-even as a GPU's does (the interpreter truncates, so a
correct bf16 kernel erred by up to an ulp on CPU only). Reductions over bf16 blocks are not
patched: kernels should (and the prompts say to) upcast first.

2. ``libdevice`` calls (``tl.extra.cuda.libdevice.tanh`` and friends, common in LLM-written kernels)
are not callable in the interpreter at all. They are routed to the PyTorch function of the same
name (``__nv_tanhf``, HIP's ``__ocml_tanh_f32`` -> ``torch.tanh``), evaluated on the CPU in the
argument's precision, out of the op monitor's sight (it is the kernel's math, not the wrapper's).
Every spelling reaches them: the backends' modules, and the backend-neutral stub module Triton 3.x
documents (``from triton.language.extra import libdevice``, whose functions are empty: a GPU's
compiler swaps them for CUDA's), as modules, through ``tl.extra`` or imported by name.

3. ``tl.fma`` rounds once on a GPU. Some interpreters (Triton 3.8 and older) compute ``x * y + z``
with two roundings, and bf16 operands as raw bits; a kernel whose correctness rests on the single
rounding (e.g. an exact remainder ``fma(-q, b, a)``) then fails on CPU only. ``create_fma`` is
replaced by a correctly rounded float32 fma (exact product and sum in float64, with the sum's
rounding error deciding exact ties), and 16-bit formats go through float64 as Triton 3.9 does.
float64 operands keep the installed interpreter's fma.

4. ``triton.runtime.driver.active.get_active_torch_device()``, which the Triton tutorials call at
import, raises with no GPU ("0 active drivers"); in interpreter mode it answers the CPU, where the
interpreter runs. Other driver queries still raise: there is no GPU target to report.
"""

from __future__ import annotations

import functools
import inspect
import re
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Callable

import numpy as np

_INSTALLED = False


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    u = v.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(v)
    if nan.any():
        rounded = np.where(nan, np.uint16(0x7FC0), rounded)
    return rounded


def install() -> None:
    """Patch the interpreter's builder once (idempotent; a no-op on Triton without it)."""
    global _INSTALLED
    if _INSTALLED:
        return
    try:
        import triton.language as tl
        from triton.runtime.interpreter import InterpreterBuilder, TensorHandle
    except ImportError:  # pragma: no cover
        return

    def is_bf16(handle) -> bool:
        return getattr(handle.dtype, "scalar", handle.dtype) == tl.bfloat16

    def decode(handle):
        return bf16_bits_to_f32(handle.data) if is_bf16(handle) else handle.data

    def encode(result: np.ndarray, like):
        if result.dtype == np.bool_:
            return TensorHandle(result, tl.int1)
        return TensorHandle(f32_to_bf16_bits(result), like.dtype.scalar)

    binary_op, unary_op, ternary_op = InterpreterBuilder.binary_op, InterpreterBuilder.unary_op, InterpreterBuilder.ternary_op

    def bf16_binary_op(self, lhs, rhs, op):
        if is_bf16(lhs) and is_bf16(rhs):
            return encode(op(decode(lhs), decode(rhs)), lhs)
        return binary_op(self, lhs, rhs, op)

    def bf16_unary_op(self, arg, op):
        if is_bf16(arg):
            return encode(op(decode(arg)), arg)
        return unary_op(self, arg, op)

    def bf16_ternary_op(self, lhs, rhs, other, op):
        if op is np.where or not (is_bf16(rhs) and is_bf16(other)):
            return ternary_op(self, lhs, rhs, other, op)  # selection moves bits unchanged
        return encode(op(decode(lhs), decode(rhs), decode(other)), rhs)

    _install_libdevice(InterpreterBuilder, TensorHandle)
    _install_cpu_driver()
    _install_fma(InterpreterBuilder, TensorHandle, is_bf16)
    _install_bf16_casts_and_dot(InterpreterBuilder, TensorHandle, is_bf16, tl)
    InterpreterBuilder.binary_op = bf16_binary_op
    InterpreterBuilder.unary_op = bf16_unary_op
    InterpreterBuilder.ternary_op = bf16_ternary_op
    _INSTALLED = True


_LIBDEVICE_ALIASES = {"fabs": "abs", "iabs": "abs", "rint": "round", "nearbyint": "round", "powi": "pow",
                      "pown": "pow", "powf": "pow", "fdividef": "div", "fdiv_rn": "div", "div_rn": "div",
                      "isinfd": "isinf", "isnand": "isnan", "signbitd": "signbit", "saturatef": None}
# How the backends name their math functions: CUDA's ``__nv_tanhf``, HIP's ``__ocml_tanh_f32`` (and
# ``__ockl_``/``__triton_hip_`` helpers): stripped down to the name PyTorch uses.
_SYMBOL_PREFIXES = ("__nv_", "__ocml_", "__ockl_", "__triton_hip_")
_SYMBOL_SUFFIXES = ("_f16", "_f32", "_f64", "_u32", "_u64")
# The module of stubs Triton 3.x documents (``from triton.language.extra import libdevice``; on a GPU
# the compiler maps it to the backend's module), and the backends' modules, the first the one the
# stubs stand for here: CUDA's, as on the NVIDIA GPUs this benchmark targets.
LIBDEVICE_STUBS = "triton.language.extra.libdevice"
LIBDEVICE_BACKENDS = ("triton.language.extra.cuda.libdevice", "triton.language.extra.hip.libdevice")


def _round_half_away(x):
    """CUDA's round (and lround): halves away from zero, where torch.round takes them to even."""
    import torch

    whole = torch.trunc(x)
    return torch.where(torch.abs(x - whole) >= 0.5, whole + torch.sign(x), whole)


def _elementwise(fn):
    """``fn`` of Python floats, over tensors (NaN where it raises: a pole, a domain error)."""
    def apply(*tensors):
        import torch

        def safe(*values):
            try:
                return fn(*values)
            except (ValueError, OverflowError, ZeroDivisionError):
                return float("nan")
        arrays = [t.double().numpy() for t in tensors]
        return torch.from_numpy(np.vectorize(safe, otypes=[np.float64])(*arrays))
    return apply


def _libdevice_fma(a, b, c):
    """libdevice's fma: rounded once (float32 exactly, as tl.fma here; float64 through float64)."""
    import torch

    if a.dtype == b.dtype == c.dtype == torch.float32:
        return torch.from_numpy(fma_float32(a.numpy(), b.numpy(), c.numpy()))
    return a.double() * b.double() + c.double()


def _popcount(x):
    """CUDA's popc: the set bits of the integer's bits read as unsigned (numpy counts a signed
    integer's absolute value)."""
    import torch

    bits = x.numpy()
    bits = bits.view(np.uint64 if bits.itemsize == 8 else np.uint32)
    count = getattr(np, "bitwise_count", None) or np.vectorize(lambda v: int(v).bit_count(), otypes=[np.int32])
    return torch.from_numpy(np.asarray(count(bits)).astype(np.int32))


@functools.lru_cache(maxsize=None)
def _libdevice_functions() -> dict:
    """libdevice functions whose torch counterpart has another name or other rounding, or none:
    evaluated here as CUDA defines them (a kernel using ``round`` where half-to-even was needed
    fails here as it does on a GPU)."""
    import math

    import torch
    sp = torch.special
    ieee_remainder = _elementwise(math.remainder)
    functions = {
        "round": _round_half_away, "lround": _round_half_away, "llround": _round_half_away,
        "lrint": torch.round, "llrint": torch.round,  # the current rounding mode: to nearest, ties to even
        "remainder": ieee_remainder, "remainderf": ieee_remainder,
        "normcdf": sp.ndtr, "normcdfinv": sp.ndtri, "erfcinv": lambda x: -sp.ndtri(x / 2) / math.sqrt(2.0),
        "j0": sp.bessel_j0, "j1": sp.bessel_j1, "y0": sp.bessel_y0, "y1": sp.bessel_y1,
        "cyl_bessel_i0": sp.i0, "cyl_bessel_i1": sp.i1,
        "exp10": lambda x: torch.pow(torch.tensor(10.0, dtype=x.dtype), x),
        "cbrt": lambda x: torch.sign(x) * torch.abs(x) ** (1.0 / 3.0),
        "tgamma": _elementwise(math.gamma),
        "sinpi": lambda x: torch.sin(math.pi * torch.remainder(x, 2.0)),
        "cospi": lambda x: torch.cos(math.pi * torch.remainder(x, 2.0)),
        "fma": _libdevice_fma,
        # C's fmod, exact; torch's vectorised CPU fmod gave NaN for fmod(3e38, 1e-38) (16 or more elements)
        "fmod": lambda a, b: torch.from_numpy(np.fmod(a.numpy(), b.numpy())),
        "finite": torch.isfinite, "isfinite": torch.isfinite,
        "logb": lambda x: torch.where(x == 0, -math.inf, (torch.frexp(x).exponent - 1).to(x.dtype)),
        "ilogb": lambda x: torch.frexp(x).exponent - 1,
        "scalbn": torch.ldexp, "ldexp": torch.ldexp,
        "popc": _popcount, "popcll": _popcount,
        "float_as_int": lambda x: x.view(torch.int32), "int_as_float": lambda x: x.view(torch.float32),
        "double_as_longlong": lambda x: x.view(torch.int64), "longlong_as_double": lambda x: x.view(torch.float64),
    }
    # the explicitly rounded forms (IEEE round to nearest, toward zero, down, up): the result's
    # type (retType) converts afterwards, exactly for the integer conversions
    rounding = {"rn": torch.round, "rz": torch.trunc, "rd": torch.floor, "ru": torch.ceil}
    for mode, to_integer in rounding.items():
        for source in ("float", "double"):
            for target in ("int", "uint", "ll", "ull"):
                functions[f"{source}2{target}_{mode}"] = to_integer
    for op, fn in (("sqrt", torch.sqrt), ("rsqrt", torch.rsqrt), ("rcp", torch.reciprocal), ("fma", functions["fma"]),
                   ("add", torch.add), ("mul", torch.mul), ("sub", torch.sub)):
        for prefix in ("", "f", "d"):
            functions[f"{prefix}{op}_rn"] = fn
    functions["fmaf_rn"] = functions["fma"]
    return functions


def libdevice_torch_function(symbol: str):
    """The torch function that computes libdevice's ``symbol`` (``None`` if there is none)."""
    import torch

    name = next((symbol.removeprefix(p) for p in _SYMBOL_PREFIXES if symbol.startswith(p)), symbol)
    name = name.removeprefix("fast_")
    name = next((name.removesuffix(s) for s in _SYMBOL_SUFFIXES if name.endswith(s)), name)
    candidates = [name, name[:-1] if name.endswith("f") else name]
    special = _libdevice_functions()
    for cand in candidates:
        if cand in special:
            return special[cand]
        cand = _LIBDEVICE_ALIASES.get(cand, cand)
        if cand is None:
            return None
        fn = getattr(torch.special, cand, None) or getattr(torch, cand, None)
        if callable(fn):
            return fn
    return None


def declared_libdevice_symbols() -> frozenset[str]:
    """The symbols the installed Triton's libdevice modules declare (CUDA's ``__nv_*``, HIP's
    ``__ocml_*`` and helpers), read from their source: what a GPU's compiler can link a kernel to."""
    import triton

    extra = Path(triton.__file__).parent / "language" / "extra"
    found: set[str] = set()
    for backend in ("cuda", "hip"):
        try:
            found.update(_DECLARED_SYMBOL.findall((extra / backend / "libdevice.py").read_text()))
        except OSError:  # a build without that backend
            continue
    return frozenset(found)


_DECLARED_SYMBOL = re.compile(r"[\"'](__(?:nv|ocml|ockl|triton_hip)_\w+)[\"']")


def libdevice_table() -> MappingProxyType:
    """Each declared libdevice symbol (declared_libdevice_symbols) with the function that computes
    it here, resolved now. A kernel may name any symbol in ``extern_elementwise``, and the call runs
    with torch's dispatch off: resolved by name at call time, a symbol named after any torch function
    (``inverse``) or a name added to torch (a hook of the submission's) ran unseen, a whole task's
    work, beside a launch that did nothing (extern_torch_function_by_name.py,
    extern_name_added_to_torch.py). Only functions bound before the submission is imported run."""
    table = {symbol: fn for symbol in sorted(declared_libdevice_symbols())
             if (fn := libdevice_torch_function(symbol)) is not None}
    return MappingProxyType(table)


def _install_libdevice(builder_cls, tensor_handle) -> None:
    """Evaluate libdevice calls with torch (``create_extern_elementwise``), and make every module a
    kernel may call them through callable inside interpreted kernels (``_bind_libdevice_modules``)."""
    import torch
    from triton.runtime import interpreter

    # (the table is a default, not a global or a cell: it is rebound by no audit-free assignment)
    def create_extern_elementwise(self, libName, libPath, symbol, argList, retType, isPure,
                                  _table=libdevice_table()):
        fn = _table.get(symbol) if type(symbol) is str else None
        if fn is None:
            raise NotImplementedError(f"{symbol!r} is no libdevice function this interpreter evaluates (a GPU "
                                      "links only the functions Triton's libdevice modules declare)")
        # The kernel's own math, evaluated for the interpreter: unseen by the worker's op monitor,
        # which would take it for the wrapper falling back to PyTorch (on a GPU it is device code),
        # and its operands for tensors the wrapper built from host data (they are the kernel's own).
        with torch._C._DisableTorchDispatch():
            args = [torch.from_numpy(np.ascontiguousarray(bf16_bits_to_f32(a.data) if getattr(a.dtype, "scalar", a.dtype).name == "bf16" else a.data))
                    for a in argList]
            out = fn(*args).numpy()
        return tensor_handle(out.astype(interpreter._get_np_dtype(retType)), retType.scalar)

    builder_cls.create_extern_elementwise = create_extern_elementwise
    semantic = getattr(interpreter, "interpreter_semantic", None)  # (every Triton 3.6+ interpreter has it)
    if semantic is not None:
        _bind_libdevice_modules(semantic)


def _import_or_none(name: str) -> ModuleType | None:
    """The module ``name``, or None where this Triton has none (a build without the AMD backend)."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _bind_libdevice_modules(semantic: Any) -> None:
    """Rebind, once and before the submission is imported, every libdevice function of the backends'
    modules and of the stub module to one that calls the backend's function with the interpreter's
    semantic. The interpreter itself patches only ``tl`` and ``tl.math``, and only attributes, for
    the length of a launch; a kernel's ``from triton.language.extra.libdevice import tanh`` binds
    the function object when the submission is imported, and the stubs are empty functions (on a GPU
    the compiler swaps them for the backend's by name), so each call returned ``None``."""
    backends = [m for m in map(_import_or_none, LIBDEVICE_BACKENDS) if m is not None]
    for module in backends:
        for name, member in list(vars(module).items()):
            if inspect.isfunction(member) and _is_builtin(member):
                setattr(module, name, _with_semantic(member, semantic))
    stubs = _import_or_none(LIBDEVICE_STUBS)
    if stubs is None or not backends:
        return
    for name, stub in list(vars(stubs).items()):
        if inspect.isfunction(stub) and stub.__module__ == LIBDEVICE_STUBS:
            real = getattr(backends[0], name, None)
            setattr(stubs, name, real if real is not None else _missing_from(backends[0], stub))


def _is_builtin(member: Any) -> bool:
    """Whether ``member`` is one of Triton's builtins (a function the compiler calls with its semantic)."""
    import triton.language as tl

    return bool(tl.core.is_builtin(member))


def _with_semantic(builtin: Callable, semantic: Any) -> Callable:
    """``builtin`` as the interpreter calls ``tl``'s during a launch (its ``_patch_attr``): with the
    interpreter's semantic in place of any given. Not itself marked builtin, so never patched again."""

    @functools.wraps(builtin, updated=())
    def call(*args, **kwargs):
        kwargs.pop("_semantic", None)
        return builtin(*args, **kwargs, _semantic=semantic)

    return call


def _missing_from(backend: ModuleType, stub: Callable) -> Callable:
    """What a stub with no function of that name in ``backend`` does when called: fail as the GPU
    compiler does when it looks the name up there, rather than return ``None``."""

    @functools.wraps(stub, updated=())
    def call(*args, **kwargs):
        raise AttributeError(f"module '{backend.__name__}' has no attribute '{stub.__name__}'")

    return call


class InterpreterDriver:
    """``triton.runtime.driver.active`` in interpreter mode: Triton's own driver where it finds one,
    and where it finds none (a CPU-mode worker sees no GPU: "0 active drivers") an answer to
    ``get_active_torch_device()``, the CPU, where the interpreter runs kernels and the harness puts
    their tensors (the Triton tutorials' module-level ``DEVICE = ...get_active_torch_device()``).
    Every other query goes to Triton's driver and fails as before: the interpreter is no GPU target,
    so none is invented (``get_current_target()`` would send kernels down a path of its choosing)."""

    __slots__ = ("_config",)

    def __init__(self, config: Any) -> None:
        self._config = config  # triton.runtime.driver (a DriverConfig), whose ``default`` is Triton's choice

    def get_active_torch_device(self) -> Any:
        """Triton's driver's device, else the CPU."""
        try:
            return self._config.default.get_active_torch_device()
        except RuntimeError:  # no (single) active driver: the interpreter's device is the host
            import torch
            return torch.device("cpu")

    def get_benchmarker(self) -> Callable[..., Any]:
        """Triton's driver's benchmarker, else one that runs the call once and times it at zero:
        an autotuner the harness found no way to pin before the call (one a factory builds as the
        call runs) then takes its first config, each config's kernel run once, instead of failing
        for want of a GPU to time on. Times in the interpreter would say nothing about a GPU."""
        try:
            return self._config.default.get_benchmarker()
        except RuntimeError:
            def run_once(kernel_call: Callable[[], Any], quantiles: Any = None, **_: Any) -> Any:
                kernel_call()
                return [0.0] * len(quantiles) if quantiles else 0.0
            return run_once

    def __getattr__(self, name: str) -> Any:
        if name == "_config":  # not yet set (a copy being made): no lookup through itself
            raise AttributeError(name)
        return getattr(self._config.default, name)


def _install_cpu_driver() -> None:
    """Make ``InterpreterDriver`` the active driver, unless one was chosen already."""
    try:
        from triton.runtime import driver as config  # the DriverConfig instance, not the module
    except ImportError:  # pragma: no cover
        return
    if callable(getattr(config, "set_active", None)) and getattr(config, "_active", None) is None:
        config.set_active(InterpreterDriver(config))


def fma_float32(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """``x * y + z`` rounded once to float32 (round to nearest, ties to even), as a GPU's fma."""
    x64, y64, z64 = (np.asarray(a, dtype=np.float64) for a in np.broadcast_arrays(x, y, z))
    with np.errstate(invalid="ignore", over="ignore"):
        product = x64 * y64           # exact: 24 + 24 significant bits fit in float64's 53
        total = product + z64          # rounded once, to float64...
        back = total - product         # ...and its rounding error, exactly (Knuth's TwoSum)
        error = (product - (total - back)) + (z64 - back)
        nearest = total.astype(np.float32)
        near64 = nearest.astype(np.float64)
        # Rounding `total` to float32 is right unless it lies exactly halfway between two float32
        # values while the exact sum does not: then the error's sign says which side is nearer.
        other = np.nextafter(nearest, np.where(total > near64, np.float32(np.inf), np.float32(-np.inf)))
        tie = (total != near64) & ((near64 + other.astype(np.float64)) * 0.5 == total) & (error != 0)
        take_other = tie & ((other > nearest) == (error > 0))
    return np.where(take_other, other, nearest).astype(np.float32)


def _install_fma(builder_cls, tensor_handle, is_bf16) -> None:
    original = builder_cls.create_fma

    def create_fma(self, x, y, z):
        if is_bf16(z):
            values = [bf16_bits_to_f32(h.data).astype(np.float64) for h in (x, y, z)]
            exact = values[0] * values[1] + values[2]  # 8-bit significands: exact or nearly so
            return tensor_handle(f32_to_bf16_bits(exact.astype(np.float32)), z.dtype.scalar)
        dtype = np.asarray(z.data).dtype
        if dtype == np.float32:
            return tensor_handle(fma_float32(x.data, y.data, z.data), z.dtype.scalar)
        if dtype == np.float16:
            exact = np.asarray(x.data, np.float64) * np.asarray(y.data, np.float64) + np.asarray(z.data, np.float64)
            return tensor_handle(exact.astype(np.float16), z.dtype.scalar)
        return original(self, x, y, z)

    builder_cls.create_fma = create_fma


def _install_bf16_casts_and_dot(builder_cls, tensor_handle, is_bf16, tl) -> None:
    cast_impl, fp_to_fp, dot = builder_cls.cast_impl, builder_cls.create_fp_to_fp, builder_cls.create_dot

    def to_bf16(src, dst_type) -> bool:
        return getattr(src.dtype, "scalar", src.dtype) == tl.float32 and dst_type.scalar == tl.bfloat16

    def rounded(src, dst_type):
        return tensor_handle(f32_to_bf16_bits(src.data), dst_type.scalar)

    def create_cast(self, src, dst_type):
        return rounded(src, dst_type) if to_bf16(src, dst_type) else cast_impl(self, src, dst_type)

    def create_fp_to_fp(self, src, dst_type, rounding_mode):
        # an explicit round-toward-zero keeps the interpreter's truncation
        if to_bf16(src, dst_type) and "RTZ" not in str(rounding_mode):
            return rounded(src, dst_type)
        return fp_to_fp(self, src, dst_type, rounding_mode)

    def as_f32(handle):
        return tensor_handle(bf16_bits_to_f32(handle.data), tl.float32) if is_bf16(handle) else handle

    def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        if not (is_bf16(a) or is_bf16(b) or is_bf16(d)):
            return dot(self, a, b, d, input_precision, max_num_imprecise_acc)
        result = dot(self, as_f32(a), as_f32(b), as_f32(d), input_precision, max_num_imprecise_acc)
        return tensor_handle(f32_to_bf16_bits(result.data), d.dtype.scalar) if is_bf16(d) else result

    builder_cls.cast_impl = create_cast
    builder_cls.create_fp_to_fp = create_fp_to_fp
    builder_cls.create_dot = create_dot
    if not hasattr(builder_cls, "get_bf16"):
        # a bfloat16 scalar constant (``x * 2`` with x bfloat16): Triton 3.6's interpreter has no
        # builder for it and fails; newer ones round a float32 constant, as here
        def get_bf16(self, value):
            return rounded(self.get_fp32(value), tl.bfloat16)

        builder_cls.get_bf16 = get_bf16
