"""The trusted baseline process of a perf job (``python -m harness.baseline JOB FD``).

It runs only harness code: the task's eager PyTorch reference and, when asked, ``torch.compile`` of
it, on the same perf inputs as the candidate (same seeds, same GPU), timed round by round in
alternation with the candidate. It also judges the candidate's result on the check set. Keeping the
baselines out of the submission's process means a submission cannot slow them down (by patching
PyTorch or its dispatcher) to look faster.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    job = json.loads(Path(args[0]).read_text())
    from harness.worker import Reporter
    reporter = Reporter(int(args[1]))
    try:
        import torch
        from harness.perf import PerfServer, stdin_commands
        from harness.task import get_task
        from harness.worker import pin_precision

        pin_precision(torch)
        task = get_task(job["task_id"])
        sides = {"eager": task.reference}
        if job.get("compile"):
            sides["compile"] = _compiled(torch, task.reference)
        reporter.emit("stage", stage="ready")
        PerfServer(task, job["seed"], job["device"], sides, reporter.emit, trusted=True,
                   optional=("compile",)).serve(stdin_commands())
    except BaseException as exc:  # noqa: BLE001 - report instead of dying silently
        reporter.emit("report", stage="perf", status="harness_error",
                      detail="".join(traceback.format_exception(exc))[-4000:])
        return 3
    return 0


def _compiled(torch, reference):
    """``torch.compile`` of the reference as a user tuning for speed would use it: one static-shape
    graph per perf case (a shape change would otherwise switch it to a slower dynamic-shape graph),
    with room for every case's recompilation."""
    import torch._dynamo
    config = torch._dynamo.config
    for name in ("recompile_limit", "cache_size_limit"):  # renamed across torch versions
        if hasattr(config, name):
            setattr(config, name, max(getattr(config, name), 64))
    return torch.compile(reference, dynamic=False)


if __name__ == "__main__":
    sys.exit(main())
