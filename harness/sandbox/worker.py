"""The worker: runs ONE untrusted submission in its own process (``python -m harness.sandbox.worker JOB FD``).

Order matters: everything the harness needs (torch, triton, the task, every harness module it
will use) is set up first; then the process confines itself (confine.py), installs the integrity
monitors and takes the module snapshot, arms the guard (guard.py) and drops the harness's modules
from ``sys.modules``, and only then imports the submission. The run's seed, and so every input, comes
from the parent only after the import (``imported`` event, ``inputs`` command). Facts go back to the
parent as signed events on file descriptor ``FD`` (see harness/protocol.py): one ``call_done`` per
call (its tensors in ``call_<n>.pt`` in the job dir, named by SHA-256), then the final report; the
parent judges. Expected outputs never exist in this process.
"""

from __future__ import annotations

import faulthandler
import gc
import hashlib
import importlib.util
import io
import os
import sys
import traceback
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from harness import protocol
from harness.bounded_io import freeze_serialization, save_tensors
from harness.protocol import EventWriter
from harness.sandbox.native_threads import pool_thread_problem
from harness.sandbox.pinned_host import PinnedHostWatch
from harness.verdicts import ERROR, HARNESS_ERROR, INTEGRITY

SUBMISSION_MODULE = "kbx_submission"
ENTRY_ALIAS = "kernel_function"
MAX_ERROR_FRAMES = 8
MAX_CALL_ERROR = 1500  # characters of a call's error sent with it (every call may raise)


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
    # A kernel that calls a failing @jit helper raises a compiler error that names only the call
    # site; the reason is in the innermost exception of the chain: keep it.
    root = _exception_chain(exc)[-1]
    root_message = "".join(traceback.format_exception_only(type(root), root)).strip()
    if root is not exc and root_message and str(root) not in message:
        message += f"\ncaused by: {root_message}"
    if isinstance(exc, PermissionError) and not str(exc).startswith(("guard:", "monkeypatch:", "tampering:", "host data:")):
        message = ("sandbox: the system refused the submission (writing outside its job directory, reading a "
                   "file hidden from it, making anything but folders and regular files there, or a privileged "
                   f"operation): {message}")
    return (text + message)[-4000:]


def _status_of(exc: BaseException) -> str:
    """A refused primitive (the guard, a denied write, rebinding found after a call) is the harness
    stopping tampering, not an ordinary error."""
    if isinstance(exc, PermissionError):
        return INTEGRITY
    return ERROR


class Tampering(PermissionError):
    """The submission rebound functions or classes the harness's own code relies on."""


def _prebind_dynamo_wrappers(torch_module: Any) -> None:
    """Importing ``torch._dynamo`` (which a submission may do, e.g. via ``torch.compile``) rebinds
    ``torch.manual_seed`` to a wrapper, which the module snapshot would report as tampering. Installing
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


def _sha256_of(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None  # the import fails on it too, and says why


def _protected_paths(job: dict) -> list[Path]:
    """What the submission must not read: other jobs (the scratch root), the run's output folder and
    prediction sources (the parent's list), the task files, the dataset, golden results, bundled
    solutions and the metric (the harness package is added by the guard's policy)."""
    from harness import shipped
    paths = [Path(p) for p in job.get("protected", [])]
    paths += [shipped.tasks_dir(), shipped.dataset_dir(), shipped.golden_results_dir(), shipped.metric_dir()]
    solutions = shipped.golden_results_dir().parent / "solutions"
    return paths + ([solutions] if solutions.is_dir() else [])


def prepare_process(device: str, interpret: bool) -> Any:
    """What a worker does before anything of its job: torch's wrappers and precision settings, the
    interpreter's rules (CPU mode), and the device's CUDA context. Idempotent, so the job's setup
    runs it whether or not a spare did (``prewarm``). Returns the torch module."""
    import torch
    from harness.sandbox.guard import import_lazy_library_modules
    _prebind_dynamo_wrappers(torch)
    import_lazy_library_modules()  # (already done where the fork server preloaded them)
    if interpret:
        from harness.sandbox import native_rules
        from harness.sandbox.interpreter_compat import install as install_interpreter_fixes
        install_interpreter_fixes()
        native_rules.install()  # what a GPU's compiler refuses fails here too
    from harness.precision import pin_precision
    pin_precision(torch)
    if device.startswith("cuda"):
        # The CUDA context is made now: once confined (Landlock), the driver's first use fails
        # (cudaGetDeviceCount: "OS call failed"), and the inputs are drawn only after the import.
        torch.zeros(1, device=device)
    return torch


def prewarm(spec: dict) -> None:
    """A spare of the fork server (sandbox/forkserver.py), before it knows its job: the steps of
    ``prepare_process`` for ``spec`` (``device``, ``interpret``), which on a GPU are most of a
    worker's setup (its CUDA context). Nothing here depends on a job or a submission."""
    prepare_process(str(spec["device"]), bool(spec["interpret"]))


def run(job: dict, reporter: EventWriter) -> None:
    job_dir = Path(job["job_dir"])
    submission = job_dir / protocol.SUBMISSION_FILE
    reporter.emit(protocol.STAGE, stage=protocol.SETUP)
    device = job["device"]
    on_gpu = device.startswith("cuda")

    from harness.sandbox.confine import confine, needed_folders, set_limits
    # A native crash (a segfault in a library, the profiler, or the submission's own doing) then
    # leaves the Python stack of the crash in the job's stderr, which goes into the verdict.
    faulthandler.enable(all_threads=True)
    set_limits(job.get("memory_limit"), **({"file_bytes": job["file_limit"]} if job.get("file_limit") else {}))
    torch = prepare_process(device, job["interpret"])  # done already in a prewarmed spare
    from harness.gpu_memory_cap import cap_gpu_memory
    # the GPU memory the run's budget gives call/exe; perf raises it to the job's share (perf/server.py)
    cap_gpu_memory(device, job.get("gpu_memory_cap"))
    freeze_serialization()  # how results are saved: as it is before the submission is imported
    from harness.invoke import call_case, clone_case
    from harness.taskdef import map_tensors, tensor_leaves
    from harness.sandbox.autotune import AutotunePins, find_autotuners
    from harness.sandbox.compile_times import CompileTimes, compile_summary
    from harness.sandbox.triton_cache import install_own_writes_cache
    from harness.sandbox.dispatch_rules import seal_dispatch_rules
    from harness.sandbox.gpu_trace import KernelTrace, triton_kernel_names
    from harness.sandbox.frozen_types import freeze_for_worker
    from harness.sandbox.guard import (CodeBarrier, arm, import_environment_check, install_proxies, policy_for,
                                       record_no_lazy_call_stacks, scrub_modules, torchscript_fusers_off,
                                       watch_dispatch_keys)
    from harness.sandbox.integrity import STAND_IN_CODES, LaunchCounter, ModeStacks, ModuleSnapshot, TorchOpMonitor
    from harness.sandbox.launch_check import LaunchCheck
    from harness.task import get_task
    from harness.perf.server import PerfServer, stdin_commands  # nothing is imported once the guard is armed
    if on_gpu:
        import torch.autograd.profiler  # noqa: F401 - the trace's code is in the snapshot below

    task = get_task(job["task_id"])
    commands = stdin_commands()  # bound to this process's stdin now, before the submission could swap it
    collector_off, collector_on = gc.disable, gc.enable  # bound before the submission could rebind them
    sync = torch.cuda.synchronize if on_gpu else (lambda: None)
    clone = torch.Tensor.clone  # a method of a library type: the guard keeps it from being rebound
    protected = _protected_paths(job)
    policy = policy_for(job_dir, protected)

    # Landlock: these unreadable even to native code; so are the user's and other runs' folders
    # (the parent's list), except what the worker reads from them (a virtual environment in the
    # home). Those are not the guard's: it knows no exceptions, and the submission's imports read there.
    private = [Path(p) for p in job.get("private", [])]
    sandbox = confine(job_dir, hidden=protected + private, visible=needed_folders(outside=protected))
    data_movement = task.data_movement
    compile_times = CompileTimes()  # a knob: installed before the launch check's snapshot of the knobs
    timing_compiles = on_gpu and not job["interpret"] and compile_times.install()
    compiled = compile_times.kernels  # (read as the worker reports: the object itself is within reach)
    install_own_writes_cache()  # a knob too: Triton loads nothing it finds in the job's cache
    # snapshots the environment and Triton's knobs: before the import
    launch_check = LaunchCheck(str(submission), device_tensors_only=on_gpu and not job["interpret"],
                               record_launches=data_movement)
    pins = AutotunePins()  # exe's config passes (an autotuner built during a call is pinned at its first launch)
    # reachable only from here and the guard's hook
    launches = LaunchCounter(check=launch_check.check, autotuner_launched=pins.launched)
    launches.install()
    watching: list[int] = []  # the monitors' stack depths while they watch (TorchOpMonitor, watch_dispatch_keys)
    code_kinds: list = []  # the guard's judgement of whose code is whose, shared with the watches below (arm fills it)
    keys_watched = watch_dispatch_keys(str(submission), watching, policy, code_kinds)
    launch_record = (launch_check.start_recording, launch_check.take_launch_facts) if data_movement else None

    def watch_ops(case: Any) -> TorchOpMonitor:
        """The op monitor of one call on ``case`` (its argument tensors are what it is given; those
        not passed as ``out=`` buffers its inputs)."""
        given = tensor_leaves(list(case.args) + list(case.kwargs.values()))
        inputs = tensor_leaves(list(case.args) + [v for k, v in case.kwargs.items() if not str(k).startswith("out")])
        return TorchOpMonitor(forbid_host_transfer=on_gpu, watching=watching, in_plumbing=launches.in_plumbing,
                              data_movement=data_movement, given=given, launch_record=launch_record,
                              inputs_given=bool(inputs))
    rules_sealed = seal_dispatch_rules((TorchOpMonitor,))  # (it runs a mode: before the proxies)
    torchscript_fusers_off()
    originals = install_proxies()
    record_no_lazy_call_stacks()
    snapshot = ModuleSnapshot(also={task.module.__name__: task.module})
    modes = ModeStacks()
    host_memory = PinnedHostWatch()  # before the import: what the job takes from here on counts
    barrier = CodeBarrier(code_kinds)  # none of the submission's code runs while results are saved
    frozen = freeze_for_worker()  # last before arming: no class attribute of the harness's is set afterwards
    arm(policy, originals, launch_check.compiler_state_changed, launches.router(), import_environment_check(snapshot.changed),
        STAND_IN_CODES, barrier)
    scrub_modules()
    sandbox += "+guard" + ("+keys" if keys_watched else "") + ("+frozen" if frozen else "") + ("+rules" if rules_sealed else "") + \
        ("+pinned" if host_memory.active else "")

    # which code this process imports: the parent checks it is the job's own (run/runner.py)
    reporter.emit(protocol.STAGE, stage=protocol.LOAD, sandbox=sandbox, source_sha256=_sha256_of(submission))
    try:
        module = load_submission(submission)
    except BaseException as exc:  # noqa: BLE001 - SystemExit / KeyboardInterrupt from a submission too
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=_status_of(exc), detail=format_error(exc, str(submission)))
        return
    try:
        _unchanged(snapshot, modes, launch_check, "at import", host_memory)
    except PermissionError as exc:
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=INTEGRITY, detail=str(exc))
        return
    fn = getattr(module, task.entry, None) or getattr(module, ENTRY_ALIAS, None)
    if not callable(fn):
        reporter.emit(protocol.REPORT, stage=protocol.LOAD, status=ERROR,
                      detail=f"no entry function: define `def {task.entry}(...)` (or `{ENTRY_ALIAS}`) at top level")
        return
    # The run's seed arrives only now: the submission's import-time code ran in a process that
    # held nothing its inputs could be derived from.
    reporter.emit(protocol.IMPORTED)
    seed = _seed_from(commands)

    def draw(config: int) -> list:
        """One pass's inputs, drawn by the task file's code with nothing of the submission's
        rebound and none of its code running (the barrier; no collection, whose finalizers would
        be its code): a hook there would see the inputs unwatched (task_module_hook_relu.py)."""
        _unchanged(snapshot, modes, launch_check, "before the inputs were drawn")
        collector_off()
        try:
            with barrier("drawing the inputs"):
                return task.correctness_cases(seed, device, config)
        finally:
            collector_on()

    try:
        cases = draw(0)
    except PermissionError as exc:  # (the guard's refusal, tampering)
        reporter.emit(protocol.REPORT, stage=protocol.CALL, status=INTEGRITY, detail=str(exc))
        return
    # A job may be split across several workers (run/shards.py): this one calls only its share of
    # the cases, named by their index in the task's list (the facts it reports use that index).
    share = job.get("cases")
    selected = [i for i in share if 0 <= i < len(cases)] if isinstance(share, list) else list(range(len(cases)))

    pins.add(find_autotuners(module))
    triton_names = triton_kernel_names(module) if on_gpu else []
    # per call, a signed call_done event: facts [case, config, launches, torch_ops, {GPU kernel: times it
    # ran} or None, the error it raised or None] and the SHA-256 of the file holding its tensors; every
    # case is called even when an earlier one raised, and what is done is kept if the worker dies
    calls = 0
    configs: list[str] = []
    # the kernel names go with the call stage too: a job the parent stops early (fail-fast) has no report
    reporter.emit(protocol.STAGE, stage=protocol.CALL, cases=len(selected), configs=pins.config_count(),
                  triton_kernels=triton_names)
    index = 0
    # one pass per config of the autotuner that has most; one first launched in a pass adds passes
    while index < pins.config_count():
        if index:  # each config's pass is given values of its own (Task.correctness_cases)
            try:
                cases = draw(index)
            except PermissionError as exc:
                reporter.emit(protocol.REPORT, stage=protocol.EXE, status=INTEGRITY, detail=str(exc))
                return
        with pins.pinned(index) as pinned:
            for case_index in selected:
                case = cases[case_index]
                args = clone_case(case)
                monitor = watch_ops(args)
                trace = KernelTrace() if on_gpu else nullcontext()
                before = launches.count
                payload, error = None, None
                try:
                    sync()  # the clones' copies finish before the trace starts
                    with trace:
                        with monitor:
                            depth = modes.dispatch_depth()
                            try:
                                record = call_case(fn, args)
                            except Exception as exc:  # noqa: BLE001 - the case fails; the others still run
                                error = exc
                            else:
                                # No collection until the result is saved: a collection runs the
                                # submission's gc callbacks and finalizers, which, once the monitors
                                # stop, could rewrite the result unseen before its bytes are written.
                                collector_off()
                                monitor.call_returned(tensor_leaves([record.output]))
                                # Still watched: no mode of the submission's may answer the reads,
                                # and its values are rebuilt from exact types (no subclass code runs).
                                modes.check(depth)
                                # ...and copied into tensors of the harness's own: whatever of the
                                # submission's runs after the monitors stop (a hook in code the harness
                                # calls next: a check, the saving) can still write to the tensors it
                                # returned, not to what is saved (tests/adversarial/fix_up_*.py)
                                payload = map_tensors(record.to_payload(), clone)
                        _unchanged(snapshot, modes, launch_check, "during the call", host_memory)  # before library code runs for the harness
                        sync()  # inside the trace: every kernel the call queued has run
                except BaseException as exc:  # noqa: BLE001 - tampering, a refused primitive, an exit: the job ends
                    error = exc
                if error is not None and (_status_of(error) == INTEGRITY or not isinstance(error, Exception)):
                    _report_stop(reporter, index, case, pinned.describe(), error, submission)
                    return
                facts = [case_index, index, launches.count - before, sorted(set(monitor.forbidden)),
                         trace.runs if on_gpu else None,
                         None if error is None else format_error(error, str(submission))[-MAX_CALL_ERROR:]]
                try:
                    with barrier("saving a call's outputs"):
                        digest = None if payload is None else _save_outputs(
                            {"case": case_index, "config": index, **payload}, job_dir / protocol.call_outputs_file(calls))
                except BaseException as exc:  # noqa: BLE001 - a refusal here is the submission's doing
                    if isinstance(exc, OSError) and _status_of(exc) != INTEGRITY:
                        raise  # (the disk: the harness's to report)
                    # torch's saving ran something the submission planted in its state (a flag whose
                    # truth test is a callable of its own): the guard refused what that asked for,
                    # the barrier its code, or the library failed on what it found there
                    _report_stop(reporter, index, case, pinned.describe(), exc if _status_of(exc) == INTEGRITY else
                                 Tampering(f"saving the call's outputs failed ({type(exc).__name__}: {str(exc)[:200]}): "
                                           "only the harness's and the libraries' code runs there"), submission)
                    return
                finally:
                    collector_on()
                reporter.emit(protocol.CALL_DONE, index=calls, facts=facts, outputs_sha256=digest)
                calls += 1
            configs.append(pinned.describe())  # at the pass's end: with what its calls first launched
        if index == 0:
            reporter.emit(protocol.STAGE, stage=protocol.EXE)
        index += 1

    patched = snapshot.changed()
    if patched or not launches.intact():
        reporter.emit(protocol.REPORT, stage=protocol.EXE, status=INTEGRITY,
                      detail=f"monkeypatch: the submission rebinds {', '.join(patched) or 'Triton launch hooks'}")
        return
    # the kernels it launched as well (one kept in a class or a closure is not among the module's names)
    launched = sorted(set(triton_names) | launches.names) if on_gpu else []
    reporter.emit(protocol.REPORT, stage=protocol.EXE, status=protocol.RAN, configs=configs, sandbox=sandbox,
                  calls=calls, triton_kernels=launched,
                  **({"triton_compile": compile_summary(compiled)} if timing_compiles else {}))
    if job.get("perf"):
        server = PerfServer(task, seed, device, {protocol.CANDIDATE: fn}, reporter.emit, launches=launches,
                            monitor=watch_ops,  # watched like exe's calls
                            tampered=lambda: _unchanged(snapshot, modes, launch_check, "during perf"),
                            trace=KernelTrace if on_gpu else None, modes_clear=modes.check, barrier=barrier)
        serve_perf(server, commands, reporter, str(submission))


def _seed_from(commands: Any) -> int:
    """The run's seed, from the parent's first command."""
    command = next(commands, None)
    if not isinstance(command, dict) or command.get("cmd") != protocol.CMD_INPUTS:
        raise RuntimeError(f"expected the {protocol.CMD_INPUTS!r} command, got {str(command)[:200]}")
    return int(command["seed"])


def serve_perf(server: Any, commands: Any, reporter: EventWriter, submission: str) -> None:
    """After exe: answer the parent's perf commands (it sends them only if exe passed)."""
    try:
        server.serve(commands)
    except BaseException as exc:  # noqa: BLE001 - e.g. out of memory or an illegal access at perf sizes
        reporter.emit(protocol.REPORT, stage=protocol.PERF, status=_status_of(exc), detail=format_error(exc, submission))


# The collector's own list of callbacks (gc.callbacks rebound later would not be the one it runs)
_GC_CALLBACKS = gc.callbacks


def _unchanged(snapshot: Any, modes: Any, launch_check: Any, when: str, host_memory: Any = None) -> None:
    """Raise :class:`Tampering` if the submission rebound code the harness is about to rely on, left
    a torch mode of its own active (outside the monitors), changed what steers Triton's compiler,
    started a thread of PyTorch's task pool (native_threads.py), left a garbage-collector
    callback (one runs at any allocation of the harness's, between its checks: with a torch mode it
    pushed there, monitor_taken_via_integrity_globals.py swapped a name the next monitor was built
    from; neither torch nor Triton registers one), or (``pinned``: at import and in checked calls;
    perf stages its own results in pinned memory) took page-locked host memory (pinned_host.py)."""
    if _GC_CALLBACKS:
        raise Tampering(f"tampering: {len(_GC_CALLBACKS)} garbage-collector callback(s) registered {when} "
                        "(they run between the harness's own steps)")
    patched = snapshot.changed()
    if patched:
        raise Tampering(f"monkeypatch: the submission rebinds {', '.join(patched)} {when}")
    modes.check()
    changed = launch_check.compiler_state_changed()
    if changed:
        raise Tampering(changed)
    threads = pool_thread_problem()
    if threads:
        raise Tampering(threads)
    host = host_memory.problem(when) if host_memory is not None else None
    if host:
        raise Tampering(host)


def _report_stop(reporter: Any, index: int, case: Any, pins: str, error: BaseException, submission: Path) -> None:
    """Report the stage a call ended the job in (a refusal, tampering, an exit): call for the first
    configuration's calls, exe after."""
    reporter.emit(protocol.REPORT, stage=protocol.CALL if index == 0 else protocol.EXE, status=_status_of(error),
                  case=case.describe(), config=pins or None, detail=format_error(error, str(submission)))


# What _save_outputs calls, bound before the submission is imported: a module attribute or a
# builtin looked up at the call could be one the submission swapped for the moment of the save
# (pathlib's write_bytes calls the builtin memoryview: exe_result_forged_in_save.py).
_BYTES_IO, _SHA256, _MEMORYVIEW, _LEN, _STR = io.BytesIO, hashlib.sha256, memoryview, len, str
_OS_OPEN, _OS_WRITE, _OS_CLOSE = os.open, os.write, os.close
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


def _save_outputs(payload: dict, path: Path) -> str:
    """Write a call's tensors where the parent reads them; returns the file's SHA-256, which the
    signed call_done event carries (so the parent reads exactly these bytes)."""
    buffer = _BYTES_IO()
    save_tensors(payload, buffer)
    data = buffer.getvalue()
    fd = _OS_OPEN(_STR(path), _WRITE_FLAGS, 0o600)
    try:
        with _MEMORYVIEW(data) as view:
            done = 0
            while done < _LEN(data):
                done += _OS_WRITE(fd, view[done:done + (64 << 20)])
    finally:
        _OS_CLOSE(fd)
    return _SHA256(data).hexdigest()


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
