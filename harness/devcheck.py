"""Quick in-process check for task authors: ``python -m harness.devcheck Category/name.py solution.py``.

Runs a *trusted* solution against a task's reference on its correctness cases, in this process
(no sandbox; never use it on untrusted code). Sets TRITON_INTERPRET=1 when no CUDA GPU is present.
"""

from __future__ import annotations

import importlib.util
import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if len(args) != 2:
        print(__doc__)
        return 2
    task_key, solution_path = args
    import torch
    if not torch.cuda.is_available():
        os.environ["TRITON_INTERPRET"] = "1"
    from harness.compare import compare_outputs
    from harness.task import get_task

    task = get_task(task_key)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    spec = importlib.util.spec_from_file_location("_devcheck_solution", solution_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, task.entry, None) or getattr(module, "kernel_function")
    failures = 0
    for case, check_case in zip(task.correctness_cases(0, device), task.correctness_cases(0, device)):
        expected = task.reference(*case.args, **case.kwargs)
        got = fn(*check_case.args, **check_case.kwargs)
        custom = task.custom_check
        msg = custom(case, got, expected) if custom else compare_outputs(got, expected, task.tolerances)
        print(("FAIL " if msg else "ok   ") + case.describe() + (f"\n     {msg}" if msg else ""))
        failures += bool(msg)
    print(f"{task.id}: {failures} failing case(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
