"""The worker: runs ONE untrusted submission in its own process (``python -m harness.sandbox.worker JOB FD``).

Order matters: everything the harness needs (torch, triton, the task, its inputs) is set up first;
then the process confines itself (confine.py), installs the integrity monitors, and only then
imports the submission. Facts go back to the parent as events on file descriptor ``FD`` (see
harness/protocol.py) and tensors in ``outputs.pt`` in the job dir; the parent judges.
Expected outputs never exist in this process.
"""

from __future__ import annotations

import importlib.util
import sys
import traceback
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from harness import protocol
from harness.protocol import EventWriter
from harness.verdicts import ERROR, HARNESS_ERROR, INTEGRITY

SUBMISSION_MODULE = "kbx_submission"
ENTRY_ALIAS = "kernel_function"
MAX_ERROR_FRAMES = 8


def _exception_chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from or during, innermost last (an interpreter or
    compiler error wraps the one raised at the kernel's own line)."""
    chain: list[BaseException] = []
    while exc is not None and exc not in chain and len(chain) < 8:
        chain.append(exc)
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return chain


def format_error(exc: BaseException, submission_path: str) -> str:
    """Exception type and message plus the traceback frames in the submission's own file (its
    wrapper's and kernel's lines, from the whole exception chain); harness, torch and
    Triton-internal frames are dropped."""
    frames: list[traceback.FrameSummary] = []
    for link in _exception_chain(exc):  # the wrapper's call first, the kernel's line last
        frames += [f for f in traceback.extract_tb(link.__traceback__)
                   if f.filename == submission_path and (f.lineno, f.name) not in {(g.lineno, g.name) for g in frames}]
    text = "".join(traceback.format_list(frames[-MAX_ERROR_FRAMES:])).replace(submission_path, "<submission>")
    message = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    if isinstance(exc, PermissionError):
        message = f"sandbox: the submission tried to write outside its job directory: {message}"
    return (text + message)[-4000:]


def _status_of(exc: BaseException) -> str:
    """A denied write outside the job dir is the sandbox stopping tampering, not an ordinary error."""
    if isinstance(exc, PermissionError):
        return INTEGRITY
    return ERROR


def _prebind_dynamo_wrappers(torch_module: Any) -> None:
    """Importing ``torch._dynamo`` (which a submission may do, e.g. via ``torch.compile``) rebinds
    ``torch.manual_seed`` to a wrapper, which the API snapshot would report as tampering. Installing
    the same lazy wrapper now has the same effect, and the later import then leaves it alone; this
    costs nothing, where importing ``torch._dynamo`` itself costs seconds per worker."""
    if torch_module.manual_seed is torch_module.random.manual_seed:
        torch_module.manual_seed = torch_module._disable_dynamo(torch_module.manual_seed)


def load_submission(path: Path):
    spec = importlib.util.spec_from_file_location(SUBMISSION_MODULE, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[SUBMISSION_MODULE] = module
    spec.loader.exec_module(module)
    return module


def run(job: dict, reporter: EventWriter) -> None:
    job_dir = Path(job["job_dir"])
    submission = job_dir / protocol.SUBMISSION_FILE
    reporter.emit(protocol.STAGE, stage=protocol.SETUP)

    from harness.sandbox.confine import confine, set_limits
    set_limits(job.get("memory_limit"), **({"file_bytes": job["file_limit"]} if job.get("file_limit") else {}))
    import torch
    _prebind_dynamo_wrappers(torch)
    if job["interpret"]:
        from harness.sandbox.interpreter_compat import install as install_interpreter_fixes
        install_interpreter_fixes()
    from harness.invoke import call_case, clone_case
    from harness.precision import pin_precision
    from harness.sandbox.autotune import config_count, find_autotuners, pinned_configs
    from harness.sandbox.integrity import LaunchCounter, TorchOpMonitor, api_snapshot, changed_apis
    from harness.task import get_task

    pin_precision(torch)
    device = job["device"]
    task = get_task(job["task_id"])
    cases = task.correctness_cases(job["seed"], device)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)

    sandbox = confine(job_dir)
    launches = LaunchCounter()
    launches.install()
    snapshot = api_snapshot()

    reporter.emit(protocol.STAGE, stage=protocol.LOAD, sandbox=sandbox)
    try:
        module = load_submission(submission)
    except BaseException as exc:  # noqa: BLE001 - SystemExit / KeyboardInterrupt from a submission too
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=_status_of(exc), detail=format_error(exc, str(submission)))
        return
    patched = changed_apis(snapshot)
    if patched:
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=INTEGRITY,
                      detail=f"monkeypatch: the submission rebinds {', '.join(patched[:5])} at import")
        return
    fn = getattr(module, task.entry, None) or getattr(module, ENTRY_ALIAS, None)
    if not callable(fn):
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=ERROR,
                      detail=f"no entry function: define `def {task.entry}(...)` (or `{ENTRY_ALIAS}`) at top level")
        return

    autotuners = find_autotuners(module)
    on_gpu = device.startswith("cuda")
    if on_gpu:
        from harness.sandbox.gpu_trace import KernelTrace, triton_kernel_names
        triton_names = triton_kernel_names(module)
    records: list[dict] = []
    configs: list[str] = []
    reporter.emit(protocol.STAGE, stage=protocol.CALL, cases=len(cases), configs=config_count(autotuners))
    for index in range(config_count(autotuners)):
        with pinned_configs(autotuners, index) as pins:
            configs.append(pins)
            for case_index, case in enumerate(cases):
                args = clone_case(case)
                monitor = TorchOpMonitor(launches, forbid_host_transfer=on_gpu)
                trace = KernelTrace() if on_gpu else nullcontext()
                before = launches.count
                try:
                    sync()  # the clones' copies finish before the trace starts
                    with trace:
                        with monitor:
                            record = call_case(fn, args)
                        sync()  # inside the trace: every kernel the call queued has run
                except BaseException as exc:  # noqa: BLE001
                    reporter.emit(protocol.REPORT, stage=protocol.CALL if index == 0 else protocol.EXE,
                                  status=_status_of(exc),
                                  case=case.describe(), config=pins or None,
                                  detail=format_error(exc, str(submission)))
                    return
                traced = {"gpu_kernels": trace.kernels, "triton_kernels": triton_names} if on_gpu else {}
                records.append({"case": case_index, "config": index, "launches": launches.count - before,
                                "torch_ops": sorted(set(monitor.forbidden)), **traced, **record.to_payload()})
        if index == 0:
            reporter.emit(protocol.STAGE, stage=protocol.EXE)

    patched = changed_apis(snapshot)
    if patched or not launches.intact():
        reporter.emit(protocol.REPORT, stage=protocol.EXE, status=INTEGRITY,
                      detail=f"monkeypatch: the submission rebinds {', '.join(patched[:5]) or 'Triton launch hooks'}")
        return
    torch.save(records, job_dir / protocol.OUTPUTS_FILE)
    reporter.emit(protocol.REPORT, stage=protocol.EXE, status=protocol.RAN, configs=configs, sandbox=sandbox)
    if job.get("perf"):
        serve_perf(task, job, fn, launches, reporter, str(submission))


def serve_perf(task: Any, job: dict, fn: Any, launches: Any, reporter: EventWriter, submission: str) -> None:
    """After exe: answer the parent's perf commands (it sends them only if exe passed)."""
    from harness.perf.server import PerfServer, stdin_commands
    from harness.sandbox.integrity import TorchOpMonitor

    def watch() -> TorchOpMonitor:  # the check call at perf size is watched like exe's calls
        return TorchOpMonitor(launches, forbid_host_transfer=job["device"].startswith("cuda"))

    server = PerfServer(task, job["seed"], job["device"], {protocol.CANDIDATE: fn}, reporter.emit,
                        launches=launches, monitor=watch)
    try:
        server.serve(stdin_commands())
    except BaseException as exc:  # noqa: BLE001 - e.g. out of memory or an illegal access at perf sizes
        reporter.emit(protocol.REPORT, stage=protocol.PERF, status=_status_of(exc), detail=format_error(exc, submission))


def main(argv: list[str] | None = None) -> int:
    job, reporter = protocol.start_child(argv if argv is not None else sys.argv[1:])
    try:
        run(job, reporter)
    except BaseException as exc:  # noqa: BLE001 - report harness-side failures instead of dying silently
        reporter.emit(protocol.REPORT, stage=protocol.SETUP, status=HARNESS_ERROR, detail="".join(traceback.format_exception(exc))[-4000:])
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
