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
import dataclasses
import sys
from pathlib import Path
from triton import knobs
from harness.sandbox.guard import _make_hook, policy_for
from harness.sandbox.triton_cache import CACHE_EVENT, OwnWritesCacheManager, install_own_writes_cache
from test_compile_times import _compile_for_sm90, _scale_kernel
job = Path(sys.argv[1])
hits = []
knobs.compilation.listener = lambda **seen: hits.append(seen.get("cache_hit"))
policy = policy_for(job, [])  # (the tests' own files count as a library's here: no submission runs)
policy = dataclasses.replace(policy, trusted_dirs=policy.trusted_dirs + (sys.argv[2],))
sys.addaudithook(_make_hook(policy, {}))
assert install_own_writes_cache()
first = _compile_for_sm90(_scale_kernel)
_compile_for_sm90(_scale_kernel)
assert hits == [False, True], f"Triton's own files, unchanged, served again: {hits}"
planted = 0
for binary in (job / "triton-cache").rglob("*.cubin"):
    binary.write_bytes(b"planted")  # changed by a writer that is not Triton
    planted += 1
assert planted == 1
third = _compile_for_sm90(_scale_kernel)
assert hits[-1] is False and third.asm["cubin"] == first.asm["cubin"], "a changed file is not served"
manager = OwnWritesCacheManager("ab" * 32)
other = Path(manager._make_path("other.so"))
other.write_bytes(b"planted")
assert manager.get_file("other.so") is None, "a file Triton never put"
try:
    sys.audit(CACHE_EVENT, "put", str(other), None)
except PermissionError as exc:
    print("forged event:", exc)
class Base:
    @staticmethod
    def put(self, data, filename, binary=True):
        return str(other)
assert type(manager).put(manager, b"", "other.so", True, sys.audit, Base) == str(other)
assert manager.get_file("other.so") is None, "a put Triton's code did not ask for records nothing"
import functools
from triton.compiler.compiler import LazyDict
lazy = LazyDict({})  # Triton's code that calls whatever it is handed, on a line that names no put
lazy.add(functools.partial(manager.put, b"planted", "lazy.so"), ())
try:
    lazy.get()
except TypeError:  # (the dict it merges the path into)
    pass
assert manager.get_file("lazy.so") is None, "a put handed to Triton code that calls what it is handed records nothing"
print("checked")
"""


def test_the_guard_serves_only_what_the_process_put_there_unchanged(cache_dir):
    """Under the guard's hook (as in a worker): a compiled kernel's files Triton put are served again
    (a cache hit) until their bytes change; a file Triton never put is not, nor one the manager's
    put recorded when called by anything but Triton's code on a line that calls put (the compiler's
    LazyDict.get calls what it is handed); the event is refused from any code but the manager's."""
    job = cache_dir / "job"
    (job / "triton-cache").mkdir(parents=True)
    done = subprocess.run([sys.executable, "-c", GUARDED_CACHE, str(job), str(ROOT / "tests")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join((str(ROOT), str(ROOT / "tests"))),
                               "TRITON_CACHE_DIR": str(job / "triton-cache")},
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
