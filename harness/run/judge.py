"""Turn what a worker did into stage verdicts (runs in the trusted parent)."""

from __future__ import annotations

from pathlib import Path

from harness import protocol
from harness.bounded_io import load_tensors
from harness.compare import judge_call
from harness.invoke import CallRecord, move_like_reference, saved_payload_limit
from harness.run.process import WorkerOutcome
from harness.task import Task
from harness.taskdef import Case, tensor_leaves
from harness.verdicts import (CRASHED, ERROR, HARNESS_ERROR, INTEGRITY, OK, SKIPPED, TIMEOUT, WRONG,
                              StageResult)

MAX_CONFIGS = 128        # autotune configs a worker may report (each is run on every case)
MAX_DETAIL_CHARS = 4000  # of a worker's error text
# GPU kernels (names as the CUDA profiler reports them, see sandbox/gpu_trace.py) that belong to
# PyTorch or the libraries it calls; those that only move or fill memory are what a wrapper may run.
LIBRARY_KERNEL_MARKERS = ("at::native::", "at::cuda::", "cublas", "cudnn", "cutlass", "gemm", "nvjet", "xmma",
                          "cub::", "thrust::")
# Markers no Triton kernel of a submission has reason to carry in its name: naming one's kernel
# after a library kernel does not excuse that library kernel ("gemm" alone is a common name).
LIBRARY_ONLY_MARKERS = tuple(m for m in LIBRARY_KERNEL_MARKERS if m != "gemm")
DATA_MOVEMENT_MARKERS = ("copy", "Copy", "FillFunctor", "fill", "zero", "arange", "range_factory")
PAYLOAD_KEYS = frozenset({"case", "config", "output", "args_after", "kwargs_after", "aliases"})
MAX_NAMES = 64           # kernel or op names in one list of a worker's facts


def _not_run(reason: str) -> StageResult:
    return StageResult(SKIPPED, reason)


def judge_worker(task: Task, outcome: WorkerOutcome, cases: list[Case], expected: list[CallRecord],
                 job_dir: Path) -> tuple[StageResult, StageResult]:
    """(call, exe) verdicts for one worker run."""
    report = outcome.report
    if outcome.protocol_error:
        return _failed_at(outcome.stage, StageResult(INTEGRITY, f"protocol: {outcome.protocol_error}"))
    if outcome.timed_out:
        return _failed_at(outcome.stage, StageResult(TIMEOUT, f"{outcome.stage} stage exceeded its time limit"))
    if report is None:
        detail = outcome.crash_reason()
        if outcome.stderr_tail.strip():
            detail += "\n" + outcome.stderr_tail.strip()[-1000:]
        return _failed_at(outcome.stage, StageResult(CRASHED, detail))
    status = report.get("status")
    # Where a failure happened is the parent's own record of the stages it let pass (each once,
    # forward only, see process.py), not the stage the report names.
    stage = outcome.stage
    detail = str(report.get("detail", ""))[:MAX_DETAIL_CHARS]
    if report.get("case"):
        detail = f"case {str(report['case'])[:200]}" + (f" with config {str(report['config'])[:300]}" if report.get("config") else "") + f":\n{detail}"
    if status == HARNESS_ERROR:
        if outcome.stage in (protocol.SPAWN, protocol.SETUP):  # before the submission was loaded
            return StageResult(HARNESS_ERROR, detail), _not_run("harness error")
        return _failed_at(stage, StageResult(ERROR, f"the worker failed after loading the submission:\n{detail}"))
    if status in (ERROR, INTEGRITY):
        return _failed_at(stage, StageResult(status, detail))
    if status != protocol.RAN:
        return _failed_at(stage, StageResult(ERROR, f"unexpected worker report {str(status)[:80]!r}"))
    configs = report.get("configs") or [""]
    if not isinstance(configs, list) or not 0 < len(configs) <= MAX_CONFIGS:
        return StageResult(OK), StageResult(INTEGRITY, f"protocol: the worker reported {len(configs) if isinstance(configs, list) else 'no list of'} autotune configs (at most {MAX_CONFIGS})")
    return StageResult(OK), judge_outputs(task, cases, expected, job_dir, [str(c)[:300] for c in configs], report)


def _failed_at(stage: str | None, result: StageResult) -> tuple[StageResult, StageResult]:
    if stage in protocol.CALL_STAGES or stage is None:
        return result, _not_run("call did not pass")
    return StageResult(OK), result


def judge_outputs(task: Task, cases: list[Case], expected: list[CallRecord], job_dir: Path,
                  configs: list[str], report: dict) -> StageResult:
    """exe: integrity (Triton did the work) and numerics, for every case under every config. The
    facts come from the worker's signed report; the tensors from ``outputs.pt``, whose SHA-256 the
    report names."""
    facts = _facts(report.get("facts"), len(cases), len(configs))
    if isinstance(facts, str):
        return StageResult(INTEGRITY, f"worker report malformed: {facts}")
    try:
        payloads = load_tensors(job_dir / protocol.OUTPUTS_FILE, saved_payload_limit(expected, copies=len(configs)),
                                sha256=str(report.get("outputs_sha256", "")))
    except Exception as exc:  # noqa: BLE001 - a submission may have tampered with the file
        return StageResult(INTEGRITY, f"worker outputs unreadable ({type(exc).__name__}: {str(exc)[:300]})")
    problem = _malformed(payloads, len(cases), len(configs))
    if problem:
        return StageResult(INTEGRITY, f"worker outputs malformed: {problem}")
    triton_names = names_in(report.get("triton_kernels"))
    for index, cfg, launches, torch_ops, gpu_runs in facts:
        where = _where(cases, index, configs, cfg)
        if launches == 0 and _has_work(cases[index], expected[index]):
            return StageResult(INTEGRITY, f"no_triton_launch - no Triton kernel was launched in {where}")
        if gpu_runs is not None and _has_work(cases[index], expected[index]) and not triton_kernels_ran(gpu_runs):
            return StageResult(INTEGRITY, f"gpu_trace - {launches} Triton launch(es) counted, but the GPU ran no "
                                          f"kernel other than PyTorch's in {where}")
        if torch_ops:
            return StageResult(INTEGRITY, f"torch_fallback:{torch_ops[0]} - the wrapper ran PyTorch compute ({', '.join(torch_ops[:4])}) in {where}")
        library = library_kernels(list(gpu_runs or {}), triton_names)
        if library:
            return StageResult(INTEGRITY, f"gpu_trace - the GPU ran PyTorch/library compute kernels during the call "
                                          f"({'; '.join(k[:100] for k in library[:2])}) in {where}")
    for rec in payloads:
        index, cfg = rec["case"], rec["config"]
        ref = expected[index]
        try:
            cand = move_like_reference(rec, ref)
            msg = judge_call(cand, ref, task.tolerances, task.custom_check, cases[index])
        except Exception as exc:  # noqa: BLE001 - what the submission returned broke the comparison
            return StageResult(INTEGRITY, f"{_where(cases, index, configs, cfg)}: the output could not be judged ({type(exc).__name__}: {str(exc)[:300]})")
        if msg:
            return StageResult(WRONG, f"{_where(cases, index, configs, cfg)}: {msg}")
    return StageResult(OK)


def _where(cases: list[Case], index: int, configs: list[str], config: int) -> str:
    return f"case {cases[index].describe()}" + (f" with config {configs[config]}" if configs[config] else "")


def library_kernels(kernels: list[str], triton_names: list[str]) -> list[str]:
    """The kernels among ``kernels`` that are PyTorch's or a library's compute, not the
    submission's Triton kernels (named after its ``@triton.jit`` functions; a name that looks like
    a library kernel's excuses nothing) nor data movement."""
    own = {n for n in triton_names if not any(m in n for m in LIBRARY_ONLY_MARKERS)}
    return [k for k in kernels if k not in own and _library_named(k) and not _data_movement(k)]


def triton_kernels_ran(runs: dict[str, int]) -> int:
    """How many of the traced kernel runs were Triton kernels (whatever the submission named them):
    a Triton kernel runs under its Python function's name, where PyTorch's and CUDA libraries'
    kernels carry C++ signatures, mangled names or a library's naming."""
    return sum(count for name, count in runs.items()
               if name.isidentifier() and not name.startswith("_Z") and not _library_named(name))


def _library_named(name: str) -> bool:
    return any(m in name for m in LIBRARY_KERNEL_MARKERS)


def _data_movement(name: str) -> bool:
    return any(m in name for m in DATA_MOVEMENT_MARKERS)


def names_in(value: object) -> list[str]:
    """A list of names from a worker's event (anything else counts as none)."""
    if isinstance(value, list) and all(isinstance(n, str) for n in value):
        return [n[:300] for n in value[:MAX_NAMES]]
    return []


def _facts(value: object, n_cases: int, n_configs: int) -> list[tuple] | str:
    """The per-call facts of a worker's report (``[case, config, launches, torch_ops, gpu_runs]``
    each, one per case and config; ``gpu_runs`` maps each traced GPU kernel to how often it ran,
    ``None`` off the GPU), or why they are not that."""
    if not isinstance(value, list) or len(value) != n_cases * n_configs:
        return f"expected facts for {n_cases * n_configs} calls"
    facts, seen = [], set()
    for item in value:
        if not (isinstance(item, list) and len(item) == 5):
            return "a call's facts have the wrong shape"
        case, config, launches, ops, runs = item
        if not (type(case) is int and type(config) is int and 0 <= case < n_cases and 0 <= config < n_configs):
            return "a call names no case of this task"
        if not (type(launches) is int and launches >= 0):
            return "a launch count is not a count"
        if not (isinstance(ops, list) and all(isinstance(n, str) for n in ops)):
            return "the list of wrapper ops is not one"
        if runs is not None and not (isinstance(runs, dict) and len(runs) <= MAX_NAMES
                                     and all(type(c) is int and c > 0 for c in runs.values())):
            return "the GPU kernel counts are not counts"
        seen.add((case, config))
        facts.append((case, config, launches, [n[:200] for n in ops[:MAX_NAMES]],
                      None if runs is None else {str(k)[:300]: c for k, c in runs.items()}))
    if len(seen) != len(facts):
        return "a call is reported twice"
    return facts


def _malformed(records: object, n_cases: int, n_configs: int) -> str | None:
    """Why the loaded payloads are not what the worker protocol produces (``None`` if they are)."""
    if not isinstance(records, list) or len(records) != n_cases * n_configs:
        return f"expected {n_cases * n_configs} records"
    seen = set()
    for rec in records:
        if not isinstance(rec, dict) or not PAYLOAD_KEYS <= set(rec):
            return "a record lacks its fields"
        case, config = rec["case"], rec["config"]
        if not (type(case) is int and type(config) is int and 0 <= case < n_cases and 0 <= config < n_configs):
            return "a record names no case of this task"
        if not (isinstance(rec["aliases"], (list, tuple)) and isinstance(rec["args_after"], (list, tuple))
                and isinstance(rec["kwargs_after"], dict)):
            return "a call record has the wrong shape"
        seen.add((case, config))
    if len(seen) != len(records):
        return "a case is recorded twice"
    return None


def _has_work(case: Case, expected: CallRecord) -> bool:
    """Whether a correct wrapper must launch a kernel: not when the expected output is empty, nor
    when every input is empty (filling a freshly allocated result, e.g. the sum over an empty dim, is
    allocation); yes for non-empty outputs made from non-empty inputs, or from no tensors at all
    (random numbers, ranges)."""
    inputs = tensor_leaves(list(case.args) + [v for k, v in case.kwargs.items() if not k.startswith("out")])
    outputs = tensor_leaves(expected.output)
    if outputs and all(t.numel() == 0 for t in outputs):
        return False
    return not inputs or any(t.numel() > 0 for t in inputs)
