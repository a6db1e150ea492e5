"""The trusted baseline process of a perf job (``python -m harness.perf.baseline JOB FD``, or forked
by the fork server with the same arguments).

It runs only harness code: the task's eager PyTorch reference and, when asked, ``torch.compile`` of
it, on the same perf inputs as the candidate (same seeds, same GPU), timed round by round in
alternation with the candidate. It also judges the candidate's result on the check set. Keeping the
baselines out of the submission's process means a submission cannot slow them down (by patching
PyTorch or its dispatcher) to look faster.
"""

from __future__ import annotations

import sys
import traceback

from harness import protocol
from harness.verdicts import HARNESS_ERROR


def main(argv: list[str] | None = None) -> int:
    job, reporter = protocol.start_child(argv if argv is not None else sys.argv[1:])
    try:
        import torch

        from harness.perf.server import PerfServer, stdin_commands
        from harness.precision import pin_precision
        from harness.task import get_task

        pin_precision(torch)
        task = get_task(job["task_id"])
        sides = {protocol.EAGER: task.reference}
        if job.get("compile"):
            sides[protocol.COMPILE] = _compiled(torch, task.reference)
        reporter.emit(protocol.STAGE, stage=protocol.READY)
        PerfServer(task, job["seed"], job["device"], sides, reporter.emit, trusted=True,
                   optional=(protocol.COMPILE,)).serve(stdin_commands())
    except BaseException as exc:  # noqa: BLE001 - report instead of dying silently
        reporter.emit(protocol.REPORT, stage=protocol.PERF, status=HARNESS_ERROR,
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
