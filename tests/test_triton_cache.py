"""Triton's cache in a worker serves only what that process's Triton wrote: a file planted in the
job's cache (by a writer that raises no audit event: torch.from_file, torch.save) is never loaded
as a compiled kernel or launcher."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import triton
import triton.language as tl

from conftest import load_metrics, run_cli, write_jsonl
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


def test_the_manager_answers_only_with_files_it_wrote(cache_dir):
    manager = OwnWritesCacheManager("ab" * 32)
    planted = Path(manager._make_path("__triton_launcher.so"))
    planted.write_bytes(PLANTED)
    group = Path(manager._make_path("__grp__k.json"))
    group.write_text(json.dumps({"child_paths": {"k.json": str(planted)}}))
    assert manager.get_file("__triton_launcher.so") is None and manager.get_group("k.json") is None
    path = manager.put(b"built here", "__triton_launcher.so")
    assert manager.get_file("__triton_launcher.so") == path and Path(path).read_bytes() == b"built here"
    # a second manager of the same key (a later build) builds again rather than take it
    assert OwnWritesCacheManager("ab" * 32).get_file("__triton_launcher.so") is None


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
