"""Close two gaps between Triton's CPU interpreter and a GPU, so correct kernels pass on CPU.

1. bf16 arithmetic. The interpreter stores bfloat16 values as raw uint16 bit patterns and applies numpy ops to those
bits, so ``x * 0.5`` on a bf16 block yields garbage, while on a GPU it is computed in fp32 and
rounded to bf16. A correct kernel must not fail for that, so elementwise ops on bf16 operands are
patched to decode to float32, apply the op, and round back to bf16 (nearest-even). Reductions and
``tl.dot`` over bf16 blocks are not patched: kernels should (and the prompts say to) upcast first.

2. ``libdevice`` calls (``tl.extra.cuda.libdevice.tanh`` and friends, common in LLM-written kernels)
are not callable in the interpreter at all. They are routed to the PyTorch function of the same
name (``__nv_tanhf`` -> ``torch.tanh``), evaluated on the CPU in the argument's precision.
"""

from __future__ import annotations

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
    InterpreterBuilder.binary_op = bf16_binary_op
    InterpreterBuilder.unary_op = bf16_unary_op
    InterpreterBuilder.ternary_op = bf16_ternary_op
    _INSTALLED = True


_LIBDEVICE_ALIASES = {"fabs": "abs", "rint": "round", "nearbyint": "round", "powi": "pow", "powf": "pow",
                      "fdividef": "div", "fdiv_rn": "div", "div_rn": "div", "isinfd": "isinf", "isnand": "isnan",
                      "signbitd": "signbit", "saturatef": None}


def libdevice_torch_function(symbol: str):
    """The torch function that computes libdevice's ``symbol`` (``None`` if there is none)."""
    import torch

    name = symbol.removeprefix("__nv_").removeprefix("fast_")
    candidates = [name, name[:-1] if name.endswith("f") else name]
    for cand in candidates:
        cand = _LIBDEVICE_ALIASES.get(cand, cand)
        if cand is None:
            return None
        fn = getattr(torch.special, cand, None) or getattr(torch, cand, None)
        if callable(fn):
            return fn
    return None


def _install_libdevice(builder_cls, tensor_handle) -> None:
    import importlib

    import torch
    from triton.runtime import interpreter

    def create_extern_elementwise(self, libName, libPath, symbol, argList, retType, isPure):
        fn = libdevice_torch_function(symbol)
        if fn is None:
            raise NotImplementedError(f"libdevice function {symbol} is not supported in interpreter mode")
        args = [torch.from_numpy(np.ascontiguousarray(bf16_bits_to_f32(a.data) if getattr(a.dtype, "scalar", a.dtype).name == "bf16" else a.data))
                for a in argList]
        out = fn(*args).numpy()
        return tensor_handle(out.astype(interpreter._get_np_dtype(retType)), retType.scalar)

    builder_cls.create_extern_elementwise = create_extern_elementwise

    original_patch_lang = interpreter._patch_lang
    modules = []
    for name in ("triton.language.extra.cuda.libdevice", "triton.language.extra.libdevice"):
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            continue

    def patch_lang(fn):
        scope = original_patch_lang(fn)
        for module in modules:
            interpreter._patch_builtin(module, interpreter.interpreter_builder, scope)
        return scope

    interpreter._patch_lang = patch_lang
