"""Triton's cache in a worker serves only what that process's Triton wrote: a file planted in the
job's cache (by a writer that raises no audit event: torch.from_file, torch.save) is never loaded
as a compiled kernel or launcher."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import triton
import triton.language as tl

from conftest import ROOT, load_metrics, run_cli, write_jsonl
from harness.sandbox.triton_cache import OwnWritesCacheManager, install_own_writes_cache
from test_compile_times import _compile_for_sm90


@triton.jit
def _negate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, -tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


PLANTED = b"planted by the submission"


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    from triton import knobs
    if not hasattr(getattr(knobs, "cache", None), "manager_class"):
        pytest.skip(f"Triton {triton.__version__} has no cache manager knob (3.4 and later do)")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    before = knobs.cache.manager_class
    yield tmp_path
    knobs.cache.manager_class = before


def _poison_every_binary(root: Path) -> int:
    planted = 0
    for path in root.rglob("*.cubin"):
        path.write_bytes(PLANTED)
        planted += 1
    return planted


def test_a_planted_kernel_binary_is_loaded_by_the_plain_cache_and_not_by_the_workers(cache_dir):
    from triton import knobs
    compiled = _compile_for_sm90(_negate_kernel)
    assert compiled.asm["cubin"] != PLANTED
    assert _poison_every_binary(cache_dir) == 1
    # Triton's own cache takes the planted file for the compiled kernel (what the worker must not do)
    assert _compile_for_sm90(_negate_kernel).asm["cubin"] == PLANTED
    assert install_own_writes_cache() and knobs.cache.manager_class is OwnWritesCacheManager
    again = _compile_for_sm90(_negate_kernel)
    assert again.asm["cubin"] != PLANTED and again.asm["cubin"] == compiled.asm["cubin"]


GUARDED_CACHE = """
import sys
from pathlib import Path
from harness.sandbox.guard import _make_hook, policy_for
from harness.sandbox.triton_cache import CACHE_EVENT, OwnWritesCacheManager
sys.addaudithook(_make_hook(policy_for(Path(sys.argv[1]), []), {}))
manager = OwnWritesCacheManager("ab" * 32)
path = manager.put(b"built here", "__triton_launcher.so")
assert manager.get_file("__triton_launcher.so") == path, "its own file, unchanged"
assert OwnWritesCacheManager("ab" * 32).get_file("__triton_launcher.so") == path, "another manager's"
group = manager.put_group("k.json", {"__triton_launcher.so": path})
assert manager.get_group("k.json") == {"__triton_launcher.so": path}
Path(path).write_bytes(b"planted")  # changed by a writer that is not the manager
assert manager.get_file("__triton_launcher.so") is None and manager.get_group("k.json") is None
planted = Path(manager._make_path("other.so"))
planted.write_bytes(b"planted")
assert manager.get_file("other.so") is None, "a file it never put"
try:
    sys.audit(CACHE_EVENT, "put", str(planted), "forged", None)
except PermissionError as exc:
    print("forged event:", exc)
assert manager.get_file("other.so") is None
print("checked")
"""


def test_the_guard_serves_only_what_the_process_put_there_unchanged(cache_dir):
    """Under the guard's hook (as in a worker): a file the manager put is served again, to any
    manager of the process, until its bytes change; a file it never put is not; the event that
    records a file is refused from any code but the manager's."""
    job = cache_dir / "job"
    (job / "triton-cache").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-c", GUARDED_CACHE, str(job)], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "TRITON_CACHE_DIR": str(job / "triton-cache")},
                          timeout=300)
    assert done.returncode == 0 and "checked" in done.stdout, done.stdout + done.stderr
    assert "forged event: guard: the submission may not raise the harness's Triton-cache event" in done.stdout


REPORTS_ITS_CACHE = """
import triton


def relu(input, inplace=False):
    raise RuntimeError(f"cache manager: {triton.knobs.cache.manager_class.__name__}")
"""


def test_a_worker_runs_the_submission_with_the_own_writes_cache(tmp_path):
    from triton import knobs
    if not hasattr(getattr(knobs, "cache", None), "manager_class"):
        pytest.skip(f"Triton {triton.__version__} has no cache manager knob (3.4 and later do)")
    preds = write_jsonl(tmp_path / "p.jsonl", [{"file": "Activation/relu.py", "predict": REPORTS_ITS_CACHE}])
    run_cli("eval", str(preds), "--out", str(tmp_path / "out"), "-q", "--no-perf", check=False)
    record = load_metrics(tmp_path / "out")[0]
    assert "cache manager: OwnWritesCacheManager" in record["call"]["detail"], record["call"]
