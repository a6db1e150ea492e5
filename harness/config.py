"""Run configuration: modes, per-stage time limits, the settings of one run, and every environment
variable the harness reads (all named ``KERNELBENCHX_*``)."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

# -- modes -----------------------------------------------------------------------------------------
INTERPRETER = "interpreter"   # no GPU: Triton's CPU interpreter, call and exe only
GPU = "gpu"                   # native on CUDA GPUs, with perf

# -- environment variables -------------------------------------------------------------------------
ENV_WORKERS = "KERNELBENCHX_WORKERS"                      # default for --workers
ENV_GOLDEN_MACHINE = "KERNELBENCHX_GOLDEN_MACHINE"        # golden folder to compare with (e.g. h200)
ENV_GOLDEN_RESULTS_DIR = "KERNELBENCHX_GOLDEN_RESULTS_DIR"  # another golden results root
ENV_NO_ZYGOTE = "KERNELBENCHX_NO_ZYGOTE"                  # 1: a new interpreter per job (weaker containment)
ENV_NO_SPARES = "KERNELBENCHX_NO_SPARES"                  # 1: no prewarmed spare workers (each job forked)
ENV_PERF_ON_CPU = "KERNELBENCHX_PERF_ON_CPU"              # 1: run the perf protocol on CPU (harness tests)
ENV_SANDBOX = "KERNELBENCHX_SANDBOX"                      # "audit": skip Landlock (tests of the fallback)
ENV_PARENT_PID = "KERNELBENCHX_PARENT_PID"                # set for child processes: die with this parent
ENV_SEED = "KERNELBENCHX_SEED"                            # default seed of the test inputs (else a random one)


WORKER_FILE_LIMIT = 1 << 30  # the largest file a worker may write (RLIMIT_FSIZE), perf results aside


@dataclass
class StageLimits:
    """Seconds allowed per worker stage. ``call``/``exe`` cover all cases (and configs)."""

    setup: float = 180.0
    load: float = 60.0
    call: float = 300.0
    exe: float = 300.0
    perf: float = 300.0   # warm-up, timing and check at perf sizes (waiting for the GPU not counted)

    def for_stage(self, stage: str) -> float:
        return float(getattr(self, stage, self.call))

    @classmethod
    def with_timeout(cls, timeout: float | None) -> "StageLimits":
        """The defaults, with ``timeout`` seconds for call and exe each when given, and the import of
        the submission (load) held to it too: a module that spins at import held a request's worker
        slot for the default 60 s whatever time limit the request asked for."""
        limits = cls()
        if timeout:
            limits.call = limits.exe = float(timeout)
            limits.load = min(limits.load, float(timeout))
        return limits


@dataclass
class RunConfig:
    """Settings of one evaluation run."""

    out_dir: Path
    seed: int | None = None            # None: KERNELBENCHX_SEED, else a fresh random one (see resolve_seed)
    resume: bool = False
    mode: str | None = None            # GPU | INTERPRETER; None = GPU when CUDA is available
    gpus: list[int] | None = None      # GPU indices (default: all visible)
    workers: int | None = None         # interpreter workers, or workers per GPU (default: one per CPU core, at most 4 on CPU, 16 per GPU)
    limits: StageLimits = field(default_factory=StageLimits)
    memory_limit: int | None = 8 << 30  # address-space cap per interpreter worker
    keep_job_dirs: bool = False
    perf: bool = True                  # time jobs that pass exe (GPU only, see run/perf_stage.py)
    compile_baseline: bool = False     # also time torch.compile of the reference
    golden_dir: Path | None = None     # stored golden results to compare with (default: auto-detect)
    remeasure_roofline: bool = False   # measure the GPU's ceilings even if cached
    fail_fast: bool = False            # stop a job at its first wrong case (its case counts cover only those run)
    perf_samples: bool = False         # keep every timed repetition's milliseconds in perf_metrics (diagnostics)
    shards: int | None = None          # worker processes per job (None: by expected cost and free cores, GPU only)
    shard_target_s: float = 10.0       # automatic sharding aims at about this many seconds per process
    spares: int = 1                    # prewarmed workers kept per GPU (each process of a shared-out job can start in one)
    backend: str = "local"             # "local" | "ray" (run/ray_backend.py)
    ray_address: str | None = None     # with backend "ray": "auto", "ray://host:port", None = a local Ray
    job_disk_bytes: int | None = None  # the most a job's directory may hold (None: its largest file allowed + 4 GiB, run/disk.py)
    # files and folders no worker may read beyond the defaults (the prediction sources; the run's
    # output folder, the tasks and the user's private folders are hidden anyway: run/runner.py)
    hidden_paths: list[Path] = field(default_factory=list)

    def resolved_mode(self) -> str:
        if self.mode:
            return self.mode
        import torch
        return GPU if torch.cuda.is_available() else INTERPRETER


def resolve_seed(seed: int | None, recorded: int | None = None) -> int:
    """The seed a run uses: ``seed`` when given, else the one a resumed run recorded, else
    ``KERNELBENCHX_SEED``, else a fresh random one. A seed known in advance lets a submission carry
    the answers to every input it will be given (a table built offline from the public tasks), so
    the default is a secret each run draws and records in its summary; give one to repeat a run."""
    if seed is not None:
        return int(seed)
    if recorded is not None:
        return recorded
    value = os.environ.get(ENV_SEED, "").strip()
    if value:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{ENV_SEED}={value!r} is not an integer seed") from None
    return draw_seed()


def seed_given(seed: int | None) -> bool:
    """Whether a seed was chosen (``seed``, or ``KERNELBENCHX_SEED``) rather than left to be drawn."""
    return seed is not None or bool(os.environ.get(ENV_SEED, "").strip())


def draw_seed() -> int:
    """A fresh secret seed."""
    return secrets.randbelow(1 << 31)
