"""The environments the parent gives its child processes.

A worker gets a scrubbed environment (no tokens, keys or proxies) whose home, temp and Triton cache
directories are inside its own job directory; the trusted baseline process gets the parent's
environment, pinned to the job's GPU.
"""

from __future__ import annotations

import os
import pwd
import tempfile
from pathlib import Path

import harness
from harness.config import ENV_PARENT_PID

# Variables a worker needs; everything else is dropped.
_KEEP_EXACT = {"PATH", "LANG", "LC_ALL", "TZ", "LD_LIBRARY_PATH", "SYSTEMROOT", "PYTHONHASHSEED"}
_KEEP_PREFIXES = ("CUDA_", "NVIDIA_", "TRITON_", "OPENBLAS_", "OMP_", "MKL_", "PTXAS", "NCCL_")
_DROP = {"TRITON_CACHE_DIR", "TRITON_HOME", "TRITON_DUMP_DIR", "TRITON_OVERRIDE_DIR"}


def harness_pythonpath() -> str:
    """The folder the ``harness`` package is imported from (children see nothing else on their path)."""
    return str(Path(harness.__file__).resolve().parent.parent)


# Folders the system needs readable (the CUDA driver, Triton's compiler, the interpreter's
# libraries): a private folder that holds one of them (a home of "/") is never hidden.
_SYSTEM_DIRS = ("/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc", "/opt", "/proc", "/sys", "/dev")


def private_dirs() -> list[str]:
    """The folders of this machine that hold the user's or other runs' data and that a worker has
    no need to read: the temp dir (this process's: a worker's is its job dir, so it is resolved
    here, in the parent), the user's home (the password database's and ``$HOME``), ``/dev/shm``,
    ``/var/tmp`` and ``/run/user/<uid>``. The worker hides them (sandbox/confine.py), except the
    folders its Python imports from; those that do not exist, or hold a system folder, are left out."""
    candidates = [tempfile.gettempdir(), os.environ.get("HOME", ""), "/dev/shm", "/var/tmp", f"/run/user/{os.getuid()}"]
    try:
        candidates.append(pwd.getpwuid(os.getuid()).pw_dir)
    except KeyError:  # a uid with no entry (a container's): $HOME is all there is
        pass
    found: list[str] = []
    for candidate in candidates:
        if not candidate or not os.path.isdir(candidate):
            continue
        real = os.path.realpath(candidate)
        holds_system = any(s == real or s.startswith(real.rstrip("/") + "/") for s in _SYSTEM_DIRS)
        if not holds_system and real not in found:
            found.append(real)
    return found


def physical_gpu(slot: str | None) -> str | None:
    """The CUDA_VISIBLE_DEVICES entry for torch index ``slot`` as the parent sees it."""
    if slot is None:
        return None
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return visible.split(",")[int(slot)].strip() if visible else slot


def worker_env(job_dir: Path, *, interpret: bool, visible_device: str | None,
               pythonpath: str | None = None) -> dict[str, str]:
    """A scrubbed environment for a worker whose private directory is ``job_dir``."""
    env = {k: v for k, v in os.environ.items()
           if (k in _KEEP_EXACT or k.startswith(_KEEP_PREFIXES)) and k not in _DROP}
    home = job_dir / "home"
    env.update({
        "HOME": str(home), "TMPDIR": str(job_dir / "tmp"), "TRITON_CACHE_DIR": str(job_dir / "triton-cache"),
        "PYTHONPATH": pythonpath or harness_pythonpath(), "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1", ENV_PARENT_PID: str(os.getpid()),
    })
    env.pop("TRITON_INTERPRET", None)
    if interpret:
        env["TRITON_INTERPRET"] = "1"
    visible = visible_devices(interpret=interpret, visible_device=visible_device)
    if visible is not None:
        env["CUDA_VISIBLE_DEVICES"] = visible
    for sub in ("home", "tmp", "triton-cache"):
        (job_dir / sub).mkdir(parents=True, exist_ok=True)
    return env


def visible_devices(*, interpret: bool, visible_device: str | None) -> str | None:
    """A worker's ``CUDA_VISIBLE_DEVICES``: none in CPU mode, else the job's GPU (None: the parent's
    own setting, or none)."""
    if interpret:
        return ""
    return visible_device if visible_device is not None else os.environ.get("CUDA_VISIBLE_DEVICES")


def baseline_env(slot: str | None) -> dict[str, str]:
    """The trusted baseline process: the parent's environment on the job's GPU."""
    env = dict(os.environ, PYTHONPATH=harness_pythonpath(), PYTHONUNBUFFERED="1", **{ENV_PARENT_PID: str(os.getpid())})
    env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")  # many run at once; no pool per process
    if slot is not None:
        env["CUDA_VISIBLE_DEVICES"] = physical_gpu(slot)
    else:
        env["TRITON_INTERPRET"] = "1"
    return env
