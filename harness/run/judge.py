"""Turn what a worker did into stage verdicts (runs in the trusted parent)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import NamedTuple

from harness import protocol
from harness.bounded_io import load_tensors
from harness.compare import judge_saved
from harness.invoke import CallRecord, saved_payload_limit, saved_tensor_limit
from harness.run.process import WorkerOutcome
from harness.run.reference import PassInputs
from harness.task import Task
from harness.taskdef import Case, tensor_leaves
from harness.tiers import CORE, EDGE, case_traits
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
# Kernels of the ops a wrapper may run (integrity.py ALLOWED_WRAPPER_OPS): copies and casts, constant
# fills, arange. Not those whose work depends on values (a mask, indices): masked_fill, scatter's
# fill, index_copy, nonzero carry "fill", "copy" or "zero" in their names too, and are compute.
# (complex_kernel_cuda: torch.complex, a real and an imaginary part interleaved; im2col, flip and
# roll: rearranging copies, named after PyTorch's CUDA sources, not yet seen in a native trace)
DATA_MOVEMENT_MARKERS = ("copy", "Copy", "FillFunctor", "arange", "range_factory", "complex_kernel_cuda",
                         "im2col_kernel", "flip_kernel", "roll_cuda_kernel")
# (copysign's kernel names hold "copy" but compute)
VALUE_DEPENDENT_MARKERS = ("masked", "scatter", "index", "gather", "nonzero", "where", "copysign")
PAYLOAD_KEYS = frozenset({"case", "config", "output", "args_after", "kwargs_after", "aliases"})
MAX_NAMES = 64           # kernel or op names in one list of a worker's facts


def _not_run(reason: str) -> StageResult:
    return StageResult(SKIPPED, reason)


class Judgement(NamedTuple):
    """The call and exe verdicts of one worker run, and the verdict of every case it ran (each a
    dict: label, tier, config, status, reason, traits; empty when the run ended before its report)."""

    call: StageResult
    exe: StageResult
    cases: tuple | list = ()


FATAL_ERROR = "Fatal Python error"  # how faulthandler (enabled in the worker) begins its report of a native crash


def crash_text(stderr_tail: str, limit: int = 1000) -> str:
    """What of a dead worker's stderr goes into its verdict: from faulthandler's report of the
    crash on (the innermost frames come first there, so the last ``limit`` characters would show
    only the worker's own outermost frames), else the end of the stream."""
    text = stderr_tail.strip()
    start = text.rfind(FATAL_ERROR)
    return text[start:start + limit] if start >= 0 else text[-limit:]


def judge_worker(task: Task, outcome: WorkerOutcome, inputs: PassInputs) -> Judgement:
    """Verdicts for one worker run (or the outcomes of a job's workers merged into one, see
    run/shards.py). The calls the worker finished are judged even when it then timed out, crashed
    or raised (partial credit), never when it broke the protocol or an integrity rule."""
    report = outcome.report

    def kept() -> list[dict]:
        verdicts = judge_calls(task, inputs, outcome.call_files, outcome.calls, _configs(report),
                               names_in((report or {}).get("triton_kernels")))
        return [] if isinstance(verdicts, str) else _public(verdicts)

    if outcome.protocol_error:
        return _failed_at(outcome.stage, StageResult(INTEGRITY, f"protocol: {outcome.protocol_error}"))
    if outcome.stopped_early and (report or {}).get("status") != INTEGRITY:
        return _judge_stopped(task, outcome, inputs)
    if outcome.timed_out:
        return _failed_at(outcome.stage, StageResult(TIMEOUT, f"{outcome.stage} stage exceeded its time limit"), kept())
    if report is None:
        detail = outcome.crash_reason()
        if outcome.stderr_tail.strip():
            detail += "\n" + crash_text(outcome.stderr_tail)
        return _failed_at(outcome.stage, StageResult(CRASHED, detail), kept())
    status = report.get("status")
    # Where a failure happened is the parent's own record of the stages it let pass (each once,
    # forward only, see process.py), not the stage the report names.
    stage = outcome.stage
    detail = str(report.get("detail", ""))[:MAX_DETAIL_CHARS]
    if report.get("case"):
        detail = f"case {str(report['case'])[:200]}" + (f" with config {str(report['config'])[:300]}" if report.get("config") else "") + f":\n{detail}"
    if status == HARNESS_ERROR:
        if outcome.stage in (protocol.SPAWN, protocol.SETUP):  # before the submission was loaded
            return Judgement(StageResult(HARNESS_ERROR, detail), _not_run("harness error"))
        return _failed_at(stage, StageResult(ERROR, f"the worker failed after loading the submission:\n{detail}"), kept())
    if status == INTEGRITY:
        return _failed_at(stage, StageResult(status, detail))
    if status == ERROR:
        return _failed_at(stage, StageResult(status, detail), kept())
    if status != protocol.RAN:
        return _failed_at(stage, StageResult(ERROR, f"unexpected worker report {str(status)[:80]!r}"))
    configs = report.get("configs") or [""]
    if not isinstance(configs, list) or not 0 < len(configs) <= MAX_CONFIGS:
        return Judgement(StageResult(OK), StageResult(INTEGRITY, f"protocol: the worker reported {len(configs) if isinstance(configs, list) else 'no list of'} autotune configs (at most {MAX_CONFIGS})"))
    uncovered = None if len(outcome.calls) == report.get("calls") else \
        f"{len(outcome.calls)} calls made, {str(report.get('calls'))[:20]} reported"
    if uncovered is None:
        uncovered = _passes_not_whole(outcome.calls, inputs, len(configs))
    if uncovered:
        return Judgement(StageResult(OK), StageResult(INTEGRITY, f"protocol: {uncovered}"))
    verdicts = judge_calls(task, inputs, outcome.call_files, outcome.calls, _configs(report),
                           names_in(report.get("triton_kernels")))
    return _stages_from(verdicts)


def _passes_not_whole(calls: list[dict], inputs: PassInputs, n_configs: int) -> str | None:
    """Why the calls are not whole config passes, or None: each case called once in each of the
    passes ``0..k-1``, ``k`` the same for every case of one process and the largest ``k`` the number
    of configs reported. (A job's processes may run different numbers of passes: an autotuner that
    one builds while a call runs adds its own configs' passes in that process alone.) Calls with
    malformed facts are left to :func:`judge_calls`."""
    called: dict[int, list[int]] = {}
    for event in calls:
        facts = event.get("facts")
        if not (isinstance(facts, list) and len(facts) > 1 and type(facts[0]) is int and type(facts[1]) is int):
            return None
        called.setdefault(facts[0], []).append(facts[1])
    passes: dict[int, int] = {}
    for case in range(inputs.count):
        configs = sorted(called.get(case, []))
        if configs != list(range(len(configs))) or not configs:
            return f"case {case} was called in config passes {configs[:8]}, not once in each pass from the first"
        if passes.setdefault(inputs.process_of(case), len(configs)) != len(configs):
            return "the cases of one worker process were called in different numbers of config passes"
    if len(called) != inputs.count or max(passes.values(), default=0) != n_configs:
        return f"{len(calls)} calls made; {inputs.count} cases in {n_configs} config pass(es) reported"
    return None


def _stages_from(verdicts: list[dict] | str, note: str = "") -> Judgement:
    """The call and exe verdicts of a job from the verdicts of its calls (a string: why they are malformed)."""
    if isinstance(verdicts, str):
        return Judgement(StageResult(OK), StageResult(INTEGRITY, f"worker outputs malformed: {verdicts}"))
    first_config = [v for v in verdicts if v["config"] == 0]
    if first_config and all(v["status"] == ERROR for v in first_config):
        return Judgement(StageResult(ERROR, first_config[0]["detail"] + note), _not_run("call did not pass"),
                         _public(verdicts))
    for status in (INTEGRITY, ERROR, WRONG):
        failed = next((v for v in verdicts if v["status"] == status), None)
        if failed:
            return Judgement(StageResult(OK), StageResult(status, failed["detail"] + note), _public(verdicts))
    return Judgement(StageResult(OK), StageResult(OK), _public(verdicts))


def _judge_stopped(task: Task, outcome: WorkerOutcome, inputs: PassInputs) -> Judgement:
    """A job the parent stopped at a wrong call (fail-fast): the calls its processes finished, judged
    as usual, with the kernel names its call-stage event carried (it sent no report)."""
    started = outcome.call_stage()
    verdicts = judge_calls(task, inputs, outcome.call_files, outcome.calls, [],
                           names_in(started.get("triton_kernels")))
    judgement = _stages_from(verdicts, f"\n(stopped at this job's first wrong case: fail-fast; "
                                       f"{len(outcome.calls)} call(s) made)")
    if isinstance(verdicts, str):
        return judgement
    listed = list(judgement.cases) + _not_reached(task, inputs, verdicts, started.get("configs"))
    position = {case.label: n for n, case in reversed(list(enumerate(inputs.of(0)[0])))}
    # in the task's order, as a job that ran them all lists them (fail-fast calls them cheapest first)
    return judgement._replace(cases=sorted(listed, key=lambda c: (c["config"], position.get(c["label"], len(position)))))


def _not_reached(task: Task, inputs: PassInputs, verdicts: list[dict], configs: object) -> list[dict]:
    """The calls a stopped job did not make, as skipped cases: core credit needs every core case
    judged, and a job stopped at its first case (an edge one) had none
    (tests/adversarial/failfast_core_credit_without_core_cases.py). Each config the worker said it
    would run, at least the first (the count is the worker's word: fewer only lists fewer)."""
    n_configs = configs if type(configs) is int and 0 < configs <= MAX_CONFIGS else 1
    cases, _ = inputs.of(0)  # labels and tiers are the same in every pass
    missing = Counter((c.label, cfg) for c in cases for cfg in range(n_configs))
    missing -= Counter((v["label"], v["config"]) for v in verdicts)
    skipped = []
    for case in cases:
        traits = case_traits(case, task.module)
        for cfg in range(n_configs):
            if missing[(case.label, cfg)] > 0:
                missing[(case.label, cfg)] -= 1
                skipped.append({"label": case.label, "tier": EDGE if traits else CORE, "config": cfg, "status": SKIPPED,
                                "reason": "not run: fail-fast stopped the job at a wrong case", "traits": traits})
    return skipped


def fails_numerically(task: Task, inputs: PassInputs, event: dict, path: Path, kernel_names: object) -> bool:
    """Whether one reported call is wrong (its outputs differ from the reference): fail-fast's test,
    made as each call is reported, with the kernel names its worker announced at the call stage
    (on a GPU, a call judged without them ran "no kernel other than PyTorch's" and was never wrong:
    fail-fast stopped nothing natively). The final report may name more kernels (those launched
    from a class or a closure), so a call can only look more like library work here, never less: a
    call wrong here is wrong in the final judgement too. Anything unexpected answers False: the
    job then runs on and the final judgement (which judges every call again) decides."""
    try:
        verdicts = judge_calls(task, inputs, [path], [event], [], names_in(kernel_names))
    except Exception:  # noqa: BLE001 - whatever the worker sent, the follow loop must not break
        return False
    return isinstance(verdicts, list) and len(verdicts) == 1 and verdicts[0]["status"] == WRONG


def _configs(report: dict | None) -> list[str]:
    configs = (report or {}).get("configs")
    return [str(c)[:300] for c in configs[:MAX_CONFIGS]] if isinstance(configs, list) else []


def _failed_at(stage: str | None, result: StageResult, cases: list[dict] | None = None) -> Judgement:
    if stage in protocol.CALL_STAGES or stage is None:
        return Judgement(result, _not_run("call did not pass"), cases or [])
    return Judgement(StageResult(OK), result, cases or [])


def judge_calls(task: Task, inputs: PassInputs, files: list[Path], calls: list[dict],
                configs: list[str], triton_names: list[str]) -> list[dict] | str:
    """The verdict of every call the worker reported done (its signed ``call_done`` events, in
    order, each with its tensor file in ``files``): integrity (Triton did the work), its error if it
    raised, else its numerics from the call's tensor file, whose SHA-256 the event names. A string
    says why the calls are malformed."""
    verdicts, seen = [], set()
    for n, (event, path) in enumerate(zip(calls, files)):
        fact = _fact(event.get("facts"), inputs.count, MAX_CONFIGS)
        if isinstance(fact, str):
            return fact
        if (fact[0], fact[1]) in seen:
            return "a call is reported twice"
        seen.add((fact[0], fact[1]))
        payload = None
        cases, expected = inputs.of(fact[1], fact[0])  # the values that config's pass was given
        if fact[5] is None:
            try:
                payload = load_tensors(path, saved_payload_limit([expected[fact[0]]]),
                                       sha256=str(event.get("outputs_sha256", "")),
                                       max_tensors=saved_tensor_limit(expected[fact[0]]))
            except Exception as exc:  # noqa: BLE001 - a submission may have tampered with the file
                return f"the outputs of call {n} are unreadable ({type(exc).__name__}: {str(exc)[:300]})"
            problem = _malformed(payload, fact[0], fact[1])
            if problem:
                return problem
        verdicts.append(_judge_case(task, cases, expected, configs, fact, payload, triton_names))
    return verdicts


def _judge_case(task: Task, cases: list[Case], expected: list[CallRecord], configs: list[str], fact: tuple,
                payload: dict | None, triton_names: list[str]) -> dict:
    """The verdict of one call: ``{label, tier, config, status, reason, traits, detail}``."""
    index, cfg, launches, torch_ops, gpu_runs, error = fact
    case, ref = cases[index], expected[index]
    where = _where(cases, index, configs, cfg)
    traits = case_traits(case, task.module)
    library = library_kernels(list(gpu_runs or {}), triton_names)
    own_runs = triton_kernels_ran(gpu_runs, triton_names) if gpu_runs is not None else 0
    status, detail = OK, ""
    if launches == 0 and error is None and _has_work(case, ref):
        status, detail = INTEGRITY, f"no_triton_launch - no Triton kernel was launched in {where}"
    elif gpu_runs is not None and error is None and _has_work(case, ref) and not own_runs:
        status, detail = INTEGRITY, (f"gpu_trace - {launches} Triton launch(es) counted, but the GPU ran no kernel "
                                     f"other than PyTorch's in {where}")
    elif gpu_runs is not None and own_runs > launches:
        # each launch runs one kernel: more runs under the submission's kernels' names than launches
        # means another kernel (a library's) runs under one of those names
        status, detail = INTEGRITY, (f"gpu_trace - {own_runs} runs of kernels named "
                                     f"like the submission's for {launches} Triton launch(es) in {where}")
    elif torch_ops:
        # an operator outside aten's names is a custom one (torch.library): its body is unseen work
        custom = "; a custom operator's body is not seen (torch.library.custom_op and triton_op run it below the " \
                 "op monitor): call the Triton kernel from the wrapper itself, directly or through " \
                 "torch.library.wrap_triton" if "::" in torch_ops[0] and not torch_ops[0].startswith(("aten::", "prims::")) else ""
        status, detail = INTEGRITY, (f"torch_fallback:{torch_ops[0]} - the wrapper ran PyTorch compute "
                                     f"({', '.join(torch_ops[:4])}) in {where}{custom}")
    elif library:
        status, detail = INTEGRITY, (f"gpu_trace - the GPU ran PyTorch/library compute kernels during the call "
                                     f"({'; '.join(k[:100] for k in library[:2])}) in {where}")
    elif error is not None:
        status, detail = ERROR, f"{where}:\n{error[:MAX_DETAIL_CHARS]}"
    else:
        try:
            msg = judge_saved(payload, ref, task.tolerances, task.custom_check, case)
        except Exception as exc:  # noqa: BLE001 - what the submission returned broke the comparison
            status, detail = INTEGRITY, f"{where}: the output could not be judged ({type(exc).__name__}: {str(exc)[:300]})"
        else:
            if msg:
                status, detail = WRONG, f"{where}: {msg}"
    reason = detail.strip().splitlines()[-1][:200] if detail else ""
    return {"label": case.label, "tier": EDGE if traits else CORE, "config": cfg, "status": status,
            "reason": reason, "traits": traits, "detail": detail}


def _public(verdicts: list[dict]) -> list[dict]:
    """Case verdicts as stored per job (without the full detail, which the stage carries)."""
    return [{k: v for k, v in verdict.items() if k != "detail"} for verdict in verdicts]


def _where(cases: list[Case], index: int, configs: list[str], config: int) -> str:
    label = configs[config] if config < len(configs) else ""
    return f"case {cases[index].describe()}" + (f" with config {label}" if label else "")


def own_kernel_names(triton_names: list[str]) -> set[str]:
    """The names the submission's Triton kernels run under (its ``@triton.jit`` functions'): Python
    identifiers only, and none that looks like a library kernel's (naming one's kernel after one
    excuses nothing)."""
    return {n for n in triton_names if n.isidentifier() and not any(m in n for m in LIBRARY_ONLY_MARKERS)}


def library_kernels(kernels: list[str], triton_names: list[str]) -> list[str]:
    """The kernels among ``kernels`` that are neither the submission's Triton kernels nor data
    movement (copies, fills): an allow-list, so PyTorch's compute is caught whatever its kernels are
    named (runtime-compiled "jiterator" kernels and some of PyTorch's own carry no library's naming)."""
    own = own_kernel_names(triton_names)
    return [k for k in kernels if k not in own and not _data_movement(k)]


def triton_kernels_ran(runs: dict[str, int], triton_names: list[str]) -> int:
    """How many of the traced kernel runs were the submission's Triton kernels."""
    own = own_kernel_names(triton_names)
    return sum(count for name, count in runs.items() if name in own)


def _data_movement(name: str) -> bool:
    return any(m in name for m in DATA_MOVEMENT_MARKERS) and not any(m in name for m in VALUE_DEPENDENT_MARKERS)


def names_in(value: object) -> list[str]:
    """A list of names from a worker's event (anything else counts as none)."""
    if isinstance(value, list) and all(isinstance(n, str) for n in value):
        return [n[:300] for n in value[:MAX_NAMES]]
    return []


def _fact(item: object, n_cases: int, n_configs: int) -> tuple | str:
    """One call's facts from its ``call_done`` event (``[case, config, launches, torch_ops, gpu_runs,
    error]``; ``gpu_runs`` maps each traced GPU kernel to how often it ran, ``None`` off the GPU;
    ``error`` is the text of what the call raised, ``None`` if it returned), or why they are not that."""
    if not (isinstance(item, list) and len(item) == 6):
        return "a call's facts have the wrong shape"
    case, config, launches, ops, runs, error = item
    if not (type(case) is int and type(config) is int and 0 <= case < n_cases and 0 <= config < n_configs):
        return "a call names no case of this task"
    if not (type(launches) is int and launches >= 0):
        return "a launch count is not a count"
    if not (isinstance(ops, list) and all(isinstance(n, str) for n in ops)):
        return "the list of wrapper ops is not one"
    if runs is not None and not (isinstance(runs, dict) and len(runs) <= MAX_NAMES
                                 and all(type(c) is int and c > 0 for c in runs.values())):
        return "the GPU kernel counts are not counts"
    if error is not None and not isinstance(error, str):
        return "an error is not text"
    return (case, config, launches, [n[:200] for n in ops[:MAX_NAMES]],
            None if runs is None else {str(k)[:300]: c for k, c in runs.items()},
            None if error is None else error[:MAX_DETAIL_CHARS])


def _malformed(record: object, case: int, config: int) -> str | None:
    """Why a loaded call payload is not the one of call ``(case, config)`` as the worker writes it."""
    if not isinstance(record, dict) or not PAYLOAD_KEYS <= set(record):
        return "a call record lacks its fields"
    if record["case"] != case or record["config"] != config:
        return "a call record names another call"
    if not (isinstance(record["aliases"], (list, tuple)) and isinstance(record["args_after"], (list, tuple))
            and isinstance(record["kwargs_after"], dict)):
        return "a call record has the wrong shape"
    return None


def _has_work(case: Case, expected: CallRecord) -> bool:
    """Whether a correct wrapper must launch a kernel: not when every expected output is empty or
    one value throughout (attention over no keys and dropout with p=1 give zeros, a power with
    exponent 0 gives ones: a wrapper may return a filled buffer, a fill being an allowed op, and gains
    nothing it could not get with a dummy launch), nor when every input is empty (filling a freshly
    allocated result, e.g. the sum over an empty dim, is allocation); yes for other outputs made from
    non-empty inputs, or from no tensors at all (random numbers, ranges)."""
    inputs = tensor_leaves(list(case.args) + [v for k, v in case.kwargs.items() if not k.startswith("out")])
    outputs = tensor_leaves(expected.output)
    if outputs and all(_one_value(t) for t in outputs):
        return False
    return not inputs or any(t.numel() > 0 for t in inputs)


def _one_value(tensor: object) -> bool:
    """Whether ``tensor`` is empty or holds one value throughout (NaN never counts as one)."""
    if tensor.numel() == 0:
        return True
    flat = tensor.reshape(-1)
    return bool((flat == flat[0]).all())
