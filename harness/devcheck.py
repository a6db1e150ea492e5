"""Quick in-process check for task authors (trusted code only; never use it on untrusted code).

    python -m harness.devcheck Category/name.py solution.py [--variants VARIANTS.py]

Runs the solution against the task's reference on its correctness cases, in this process, with the
same judging as ``eval`` (outputs, argument state after the call, in-place/out= aliasing) but
without the sandbox and the integrity checks. With ``--variants`` it instead applies each wrong
variant (see tests/test_wrong_variants.py) and reports whether the task's cases catch it. Sets
TRITON_INTERPRET=1 when no CUDA GPU is present.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from pathlib import Path


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _failures(task, fn, device: str, verbose: bool) -> int:
    from harness.compare import judge_call
    from harness.invoke import call_case, clone_case
    from harness.run.reference import compute_reference

    failures = 0
    expected = compute_reference(task, 0, device)
    for case, ref in zip(task.correctness_cases(0, device), expected):
        try:
            got = call_case(fn, clone_case(case))
            msg = judge_call(got, ref, task.tolerances, task.custom_check, case)
        except Exception as exc:  # noqa: BLE001 - report and go on
            msg = f"{type(exc).__name__}: {exc}"
        if verbose:
            print(("FAIL " if msg else "ok   ") + case.describe() + (f"\n     {msg}" if msg else ""))
        failures += bool(msg)
    return failures


def _entry(module, task):
    return getattr(module, task.entry, None) or getattr(module, "kernel_function")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.devcheck", description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("solution", type=Path)
    parser.add_argument("--variants", type=Path, default=None)
    args = parser.parse_args(argv)
    import torch
    if not torch.cuda.is_available():
        os.environ["TRITON_INTERPRET"] = "1"
    from harness.task import get_task

    task = get_task(args.task)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.variants is None:
        failures = _failures(task, _entry(_load(args.solution, "_devcheck_solution"), task), device, True)
        print(f"{task.id}: {failures} failing case(s)")
        return 1 if failures else 0

    source = args.solution.read_text()
    variants = _load(args.variants, "_devcheck_variants").VARIANTS
    uncaught = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, edits) in enumerate(variants.items()):
            edits = [edits] if isinstance(edits[0], str) else edits
            code = source
            for old, new in edits:
                if old not in code:
                    print(f"STALE  {label}: {old!r} is not in the solution")
                    uncaught += 1
                    break
                code = code.replace(old, new, 1)
            else:
                path = Path(tmp) / f"variant_{i}.py"
                path.write_text(code)
                try:
                    n = _failures(task, _entry(_load(path, f"_devcheck_variant_{i}"), task), device, False)
                except Exception as exc:  # noqa: BLE001 - an import-time failure also fails exe
                    n, label = 1, f"{label} ({type(exc).__name__} at import)"
                print(("caught " if n else "MISSED ") + f"{label}" + (f" ({n} failing cases)" if n else ""))
                uncaught += not n
    print(f"{task.id}: {len(variants)} variant(s), {uncaught} not caught")
    return 1 if uncaught else 0


if __name__ == "__main__":
    raise SystemExit(main())
