"""Shared test helpers. GPU-only tests are marked ``gpu`` and skipped without CUDA."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
# The runs the tests make use seed 0 (reproducible verdicts) unless a test says otherwise; the
# product draws a random seed per run (tests/test_seed.py).
os.environ.setdefault("KERNELBENCHX_SEED", "0")
CORPUS = Path(__file__).resolve().parent / "corpus"
SHARED = ROOT.parent / "shared"


def pytest_collection_modifyitems(config, items):
    if any("variants_run" in getattr(item, "fixturenames", ()) for item in items) and not config.option.collectonly \
            and _VariantsRun.low_priority_holds():
        _VariantsRun.start(config)
        # the tests that wait for it last: every other test runs beside it first
        items[:] = sorted(items, key=lambda item: "variants_run" in getattr(item, "fixturenames", ()))
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run on the device)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def pytest_sessionfinish(session, exitstatus):
    _VariantsRun.stop()


needs_shared = pytest.mark.skipif(not (SHARED / "upstream").exists(),
                                  reason="../shared (upstream facts) is not present on this machine")


def run_cli(*args: str, check: bool = True, timeout: float = 1500, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``kernelbenchx`` as a user would (a separate process); ``env`` adds variables. The checkout
    comes first on the path, then whatever the path held (packages installed beside the system's,
    as on the GPU machine)."""
    path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, **(env or {}), "PYTHONPATH": path})
    if check and proc.returncode != 0:
        raise AssertionError(f"kernelbenchx {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="session")
def variants_run(tmp_path_factory) -> "_RunRows":
    """One run of every wrong variant (tests/variant_rows.py) beside each task's unmodified solution:
    ``(task id, label, metrics record)`` per row, and the run's summary and printed table as
    ``variants_run.summary`` / ``.stdout``. The unmodified solutions are the controls of the variants
    and also the bundled-solutions run of tests/test_solutions.py (one interpreter run of them, not two).
    The run starts in the background when the tests that use it are collected (:class:`_VariantsRun`)."""
    run = _VariantsRun.running or _VariantsRun.start(None, tmp_path_factory.mktemp("variants"))
    proc, rows, out = run.finish()
    by_sample = {(m["task_id"], m["sample_id"]): m for m in load_metrics(out)}
    return _RunRows([(task_id, label, by_sample[(task_id, i)]) for i, (task_id, label, _) in enumerate(rows)],
                    json.loads((out / "summary.json").read_text()), proc.stdout)


class _VariantsRun:
    """The variants run as a background process, started as soon as the tests are collected. It is
    about half of the suite's time (some 1,150 interpreter jobs), and the other tests leave much of a
    two-core machine idle (processes starting, waits on workers): run beside them at the lowest
    priority (nice 19, which its workers keep in their own sessions: harness/niceness.py), it takes
    that idle time without taking the CPU from tests that time things. Where that priority cannot
    be had, it runs when the first test asks for it, as before."""

    running: "_VariantsRun | None" = None
    NICENESS = 19

    @classmethod
    def low_priority_holds(cls) -> bool:
        """Whether a process that starts a session of its own (as each worker does) keeps the
        niceness it was started with (the kernel's per-session scheduling groups honour it)."""
        if not Path("/proc/self/autogroup").exists():
            return True  # no such groups: a process's niceness is all there is
        probe = ("import os; os.setsid(); from harness.niceness import keep_niceness; keep_niceness(); "
                 "print(open('/proc/self/autogroup').read())")
        proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT,
                              preexec_fn=lambda: os.nice(cls.NICENESS))
        return proc.returncode == 0 and proc.stdout.split()[-1:] == [str(cls.NICENESS)]

    def __init__(self, tmp: Path) -> None:
        from variant_rows import all_rows

        self.rows = all_rows()
        preds = write_jsonl(tmp / "variants.jsonl", [{"file": task_id, "predict": code, "sample_id": i}
                                                     for i, (task_id, _, code) in enumerate(self.rows)])
        self.out = tmp / "out"
        # each job has 240 s per stage (the interpreter takes up to 80 s for the SVD solution alone on
        # two loaded cores). --fail-fast: a variant only has to fail, so it stops at its first wrong
        # case (the controls, which pass, run every case). Perf is left to the GPU's own runs (on a
        # CPU it is skipped anyway, and the summary says why).
        no_perf = ["--no-perf"] if torch.cuda.is_available() else []
        path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
        self.args = ["eval", str(preds), "--out", str(self.out), "-q", "--timeout", "240", *no_perf, "--fail-fast"]
        # its output goes to files: a pipe nobody reads until the end could fill and stop it
        self.logs = (tmp / "stdout.txt", tmp / "stderr.txt")
        # a process group of its own (to be killed as one), in the tests' session: a session of its
        # own would be a scheduling group of its own at nice 0 (harness/niceness.py)
        with open(self.logs[0], "w") as stdout, open(self.logs[1], "w") as stderr:
            self.proc = subprocess.Popen([sys.executable, "-m", "harness.cli", *self.args], stdout=stdout, stderr=stderr,
                                         cwd=ROOT, process_group=0, env={**os.environ, "PYTHONPATH": path},
                                         preexec_fn=lambda: os.nice(self.NICENESS))

    @classmethod
    def start(cls, config: pytest.Config | None, tmp: Path | None = None) -> "_VariantsRun":
        if cls.running is None:
            factory = getattr(config, "_tmp_path_factory", None)
            cls.running = cls(tmp or (factory.mktemp("variants") if factory else Path(tempfile.mkdtemp(prefix="variants"))))
        return cls.running

    def finish(self) -> tuple[subprocess.CompletedProcess, list, Path]:
        """Wait for the run (an hour at most: a slow two-core machine) and return it, its rows and
        its output folder; a run that failed fails the tests that use it."""
        try:
            self.proc.wait(timeout=3600)
        except subprocess.TimeoutExpired:
            _VariantsRun.stop()
            raise
        stdout, stderr = (log.read_text() for log in self.logs)
        done = subprocess.CompletedProcess(self.proc.args, self.proc.returncode, stdout, stderr)
        if done.returncode != 0:
            raise AssertionError(f"kernelbenchx {' '.join(self.args)} exited {done.returncode}\n{stdout}\n{stderr}")
        return done, self.rows, self.out

    @classmethod
    def stop(cls) -> None:
        """End a run still going (an interrupted session): its process group, workers included."""
        run = cls.running
        if run is not None and run.proc.poll() is None:
            try:
                os.killpg(run.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            run.proc.wait()


class _RunRows(list):
    """The rows of a run, with its summary and printed table."""

    def __init__(self, rows: list, summary: dict, stdout: str) -> None:
        super().__init__(rows)
        self.summary = summary
        self.stdout = stdout


def load_metrics(out: Path) -> list[dict]:
    return json.loads((out / "metrics.json").read_text())


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


_RELU_AFTER_EXE = '''
import torch
import triton
import triton.language as tl

_calls = [0]


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=offs < n)


@triton.jit
def _bump_first(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) + 1.0)


def relu(input, inplace=False):
    _calls[0] += 1
    after_exe = _calls[0] > EXE_CALLS
    if after_exe:
        BEFORE
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    if after_exe:
        AFTER
    return y.view(input.shape)
'''


def relu_changed_after_exe(before: str = "pass", after: str = "pass") -> str:
    """A correct Triton ReLU submission that, once the exe cases of ``Activation/relu.py`` are
    done (in its perf stage), also runs the statement ``before`` at the start of each call and
    ``after`` before returning a new tensor (``x``, ``y``: the input and the result; ``_bump_first``
    adds 1 to a tensor's first element)."""
    from harness.task import get_task
    exe_calls = len(get_task("Activation/relu.py").correctness_cases(0, "cpu"))
    return (_RELU_AFTER_EXE.replace("EXE_CALLS", str(exe_calls)).replace("BEFORE", before)
            .replace("AFTER", after))
