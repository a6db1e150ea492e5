"""Compile every Triton kernel a solution launches for an H200 (sm_90), on a machine without a GPU.

The CPU interpreter accepts code the GPU compiler refuses (non-constexpr globals, loop-carried
variables that change type, tl.dot accumulators without out_dtype on older Triton, ...). This runs
each solution's wrapper on its task's correctness cases with every kernel launch replaced by
``triton.compile(..., target=sm_90)`` of that launch's signature: the kernels do not run (their
outputs are garbage, so a wrapper that reads a kernel's result on the host may fail: reported as a
wrapper error, not a compile error). Usage, from the repository root:

    python benchmarks/compile_for_gpu.py [--root wip/Fusion] CATEGORY[/name] ...

``--root`` points at a tree shaped like the repository (``harness/tasks``, ``solutions`` and, if it
has one, ``harness/*.py`` modules its tasks import), e.g. a category waiting in ``wip/``. Exit status
1 if any kernel failed to compile.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import resource
import sys
from pathlib import Path

os.environ.pop("TRITON_INTERPRET", None)  # compile, never interpret

import torch  # noqa: E402
import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402
from triton.runtime.jit import JITFunction  # noqa: E402

import harness  # noqa: E402
from harness.taskdef import Inputs  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)
TYPES = {torch.float32: "fp32", torch.float64: "fp64", torch.float16: "fp16", torch.bfloat16: "bf16",
         torch.int64: "i64", torch.int32: "i32", torch.int16: "i16", torch.int8: "i8", torch.uint8: "u8",
         torch.bool: "i1", torch.complex64: "fp32", torch.complex128: "fp64"}
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


class Compiler:
    """Stands in for JITFunction.run: compiles each distinct specialisation once, records failures."""

    def __init__(self) -> None:
        self.seen: set = set()
        self.errors: list[str] = []

    def signature(self, fn: JITFunction, args: tuple, kwargs: dict) -> tuple[dict, dict]:
        params = inspect.signature(fn.fn).parameters
        bound = inspect.signature(fn.fn).bind(*args, **{k: v for k, v in kwargs.items() if k in params})
        types, consts = {}, {}
        for name, param in params.items():
            value = bound.arguments.get(name, param.default)
            if "constexpr" in str(param.annotation) or value is None:
                types[name], consts[name] = "constexpr", value
            elif isinstance(value, torch.Tensor):
                types[name] = "*" + TYPES[value.dtype]
            elif isinstance(value, bool):
                types[name] = "i1"
            elif isinstance(value, int):
                if value == 1 and name not in fn.do_not_specialize:  # Triton specialises 1 as a constant
                    types[name], consts[name] = "constexpr", 1
                else:
                    types[name] = "i64" if abs(value) >= 2 ** 31 else "i32"
            elif isinstance(value, float):
                types[name] = "fp32"
            else:
                raise TypeError(f"{fn.fn.__name__}: argument {name} of type {type(value).__name__}")
        return types, consts

    def run(self, fn: JITFunction, *args, grid=None, warmup=False, **kwargs):
        types, consts = self.signature(fn, args, kwargs)
        key = (fn.fn.__qualname__, fn.fn.__module__, tuple(sorted(types.items())), tuple(sorted((k, repr(v)) for k, v in consts.items())))
        if key in self.seen:
            return None
        self.seen.add(key)
        try:
            triton.compile(ASTSource(fn=fn, signature=types, constexprs=consts), target=TARGET)
        except Exception as exc:  # noqa: BLE001 - every compiler failure is a finding
            self.errors.append(f"{fn.fn.__module__}.{fn.fn.__name__} {types}: {type(exc).__name__}: {str(exc)[-1500:]}")
        return None


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="+", help="Category or Category/name")
    ap.add_argument("--root", type=Path, default=Path("."), help="tree with harness/tasks and solutions")
    args = ap.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (32 << 30, 32 << 30))  # a garbage size read back stays bounded
    if (args.root / "harness").is_dir() and args.root.resolve() != Path(harness.__file__).parents[1]:
        harness.__path__.append(str((args.root / "harness").resolve()))  # modules the root's tasks import
    compiler = Compiler()
    JITFunction.run = lambda self, *a, **k: compiler.run(self, *a, **k)
    failed = 0
    for target in args.targets:
        category, _, name = target.partition("/")
        for task_file in sorted((args.root / "harness" / "tasks" / category).glob(f"{name.removesuffix('.py') or '*'}.py")):
            task = _load(task_file, f"task_{category}_{task_file.stem}")
            solution = _load(args.root / "solutions" / category / task_file.name, f"solution_{category}_{task_file.stem}")
            before = len(compiler.errors)
            wrapper_errors = 0
            for case in task.cases(Inputs(0)):
                try:
                    getattr(solution, task.ENTRY)(*case.args, **case.kwargs)
                except Exception:  # noqa: BLE001 - outputs are garbage: see the module docstring
                    wrapper_errors += 1
            new = compiler.errors[before:]
            failed += bool(new)
            print(f"{category}/{task_file.stem}: {'COMPILE ERRORS ' + str(len(new)) if new else 'ok'}"
                  + (f" ({wrapper_errors} case(s) stopped in the wrapper)" if wrapper_errors else ""), flush=True)
            for error in new:
                print("   ", error.replace("\n", "\n    "))
    print(f"{len(compiler.seen)} kernel specialisations compiled for sm_90; tasks with compile errors: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
