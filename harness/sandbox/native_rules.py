"""Rules that compiled Triton enforces and its CPU interpreter does not, applied in the interpreter.

The interpreter runs a kernel as Python, so code that a GPU's compiler rejects can pass on CPU and
fail on the first GPU it meets. Each rule here raises the error the compiler would, when the
interpreter first prepares a @jit function (a kernel or a helper it calls):

- a kernel may read a module-level global only if it is a ``tl.constexpr``, a @jit function, a module,
  a Triton language object or dtype, or a named-tuple type: a plain ``SCALE = 0.5`` read inside a
  kernel is a NameError when compiled (unless ``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1``).

The check is static (the function's source): a global read only inside a branch that a constexpr
condition removes is flagged although the compiler, which skips that branch, would accept it.
"""

from __future__ import annotations

import ast
import inspect
import os
import textwrap
import types

_INSTALLED = False
ALLOW_ENV = "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"


def _local_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            names |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
            if not isinstance(node, ast.Lambda):
                names.add(node.name)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
    return names


def _allowed(value, tl, jit_types: tuple[type, ...]) -> bool:
    if isinstance(value, (types.ModuleType, tl.constexpr, tl.dtype) + jit_types):
        return True
    if getattr(value, "__triton_builtin__", False) or str(getattr(value, "__module__", "")).startswith("triton."):
        return True
    return isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields")


def non_constexpr_globals(fn, tl, jit_types: tuple[type, ...]) -> list[tuple[str, object]]:
    """The globals ``fn`` (a plain Python function) reads that compiled Triton would refuse."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):  # no source: nothing to check (the interpreter needs it anyway)
        return []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # the decorators (@triton.autotune(configs=CONFIGS)) are not kernel code, and the compiler
            # reads any global in an argument's default (``BLOCK: tl.constexpr = DEFAULT_BLOCK``)
            node.decorator_list = []
            node.args.defaults, node.args.kw_defaults = [], []
    local = _local_names(tree) | set(fn.__code__.co_freevars)
    seen, found = set(), []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) or node.id in local | seen:
            continue
        seen.add(node.id)
        if node.id in fn.__globals__ and not _allowed(fn.__globals__[node.id], tl, jit_types):
            found.append((node.id, fn.__globals__[node.id]))
    return found


def install() -> None:
    """Make the interpreter refuse, as the compiler does, @jit functions that read non-constexpr
    globals (idempotent; a no-op on a Triton without the interpreter)."""
    global _INSTALLED
    if _INSTALLED:
        return
    try:
        import triton.language as tl
        from triton.runtime.interpreter import InterpretedFunction
        from triton.runtime import jit
        from triton.runtime.jit import JITFunction
    except ImportError:  # pragma: no cover
        return
    # (JITCallable: what @triton.constexpr_function makes too, on the Tritons that have it; a
    # kernel may call one, and its __module__ is the caller's, not triton's)
    jit_types = (InterpretedFunction, JITFunction) + tuple(t for t in (getattr(jit, "JITCallable", None),) if t)
    original_rewrite = InterpretedFunction.rewrite
    checked: set = set()

    def rewrite(self):
        if self.fn not in checked and os.environ.get(ALLOW_ENV, "0") != "1":
            bad = non_constexpr_globals(self.fn, tl, jit_types)
            if bad:
                name, value = bad[0]
                raise NameError(
                    f"@jit function {self.fn.__name__} reads the global {name} = {value!r} "
                    f"({type(value).__name__}), which is not a tl.constexpr: compiled Triton refuses this "
                    f"(only the CPU interpreter runs it). Write {name} = tl.constexpr(...) or pass it as an argument.")
            checked.add(self.fn)
        return original_rewrite(self)

    InterpretedFunction.rewrite = rewrite
    _INSTALLED = True
