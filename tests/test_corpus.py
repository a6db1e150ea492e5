"""Bad and cheating submissions each get the right verdict and reason, in one run, without
disturbing the other jobs (a good solution evaluated alongside them still passes)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import harness
from conftest import CORPUS, ROOT, load_metrics, run_cli, write_jsonl

# corpus file -> (overall verdict, the stage that fails, a phrase the reason must contain)
EXPECTED = {
    "syntax_error": ("error", "call", "syntax error at line 2"),
    "no_entry": ("error", "call", "no entry function"),
    "wrong_numbers": ("wrong", "exe", "elements differ"),
    "nan_output": ("wrong", "exe", "NaN where the reference is not"),
    "all_zeros": ("wrong", "exe", "all zeros"),
    "wrong_dtype": ("wrong", "exe", "dtype torch.float64 != expected torch.float32"),
    "wrong_shape": ("wrong", "exe", "shape"),
    "infinite_loop": ("timeout", "call", "call stage exceeded its time limit"),
    "exit_at_import": ("crashed", "call", "exited with code 0 during load"),
    "segfault": ("crashed", "call", "segmentation fault"),
    "huge_allocation": ("error", "call", "alloc"),
    "torch_only": ("integrity", "exe", "no_triton_launch"),
    "trivial_kernel_plus_torch": ("integrity", "exe", "torch_fallback:gelu"),
    "monkeypatch_torch": ("integrity", "call", "monkeypatch: the submission rebinds torch.nn.functional.gelu"),
    "monkeypatch_compare": ("integrity", "call", "may not open"),   # importing the harness opens its files
    "write_harness_files": ("integrity", "call", "a file of the harness"),
    "autotune_one_bad_config": ("wrong", "exe", "with config _gelu[BLOCK=256"),
    # the same autotuner kept out of the module's names (closure -> object -> dict -> list)
    "autotune_bad_config_out_of_sight": ("wrong", "exe", "with config _gelu[BLOCK=256"),
    # an autotuner built afresh in every call: pinned at its first launch in each pass
    "autotune_bad_config_built_in_call": ("wrong", "exe", "with config _gelu[BLOCK=256"),
    # ... and one that empties its own configs list of the bad config during its first call
    "autotune_bad_config_dropped_in_call": ("wrong", "exe", "with config _gelu[BLOCK=256"),
    "kernel_error": ("error", "call", "power of 2"),
    "good_autotuned": ("ok", None, ""),
    "good_libdevice": ("ok", None, ""),
    "good_libdevice_stubs": ("ok", None, ""),
    "good_tutorial_device": ("ok", None, ""),
    "good_autotune_global_configs": ("ok", None, ""),
    "good_common_idioms": ("ok", None, ""),
    "good_device_queries": ("ok", None, ""),
    "good_wrapper_data_movement": ("ok", None, ""),
    "good_libdevice_cuda_names": ("ok", None, ""),
    "good_kernel_factory": ("ok", None, ""),
    "good_finalizers_on_results": ("ok", None, ""),
}
BAD_LINES = [
    ("{not json", "not a valid JSON object"),
    (json.dumps({"file": "Activation/no_such_task.py", "predict": "def f(): pass"}), "unknown task"),
    (json.dumps({"file": "Activation/gelu.py", "predict": "```python\n```"}), "empty code"),
    (json.dumps({"file": "Activation/gelu.py"}), "no code"),
]


def _harness_digest() -> str:
    h = hashlib.sha256()
    for p in sorted(Path(harness.__file__).parent.rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("corpus")
    rows = [{"file": "Activation/gelu.py", "predict": (CORPUS / f"{name}.py").read_text(), "sample_id": i}
            for i, name in enumerate(EXPECTED)]
    good = (ROOT / "solutions" / "Activation" / "gelu.py").read_text()
    rows.append({"file": "gelu", "predict": f"```python\n{good}```", "sample_id": len(rows)})
    path = write_jsonl(tmp / "preds.jsonl", rows)
    with open(path, "a") as f:
        f.write("\n".join(line for line, _ in BAD_LINES) + "\n")
    before = _harness_digest()
    out = tmp / "out"
    proc = run_cli("eval", str(path), "--out", str(out), "--timeout", "30", "-q")
    return {"metrics": load_metrics(out), "summary": json.loads((out / "summary.json").read_text()),
            "stdout": proc.stdout, "digest_before": before, "digest_after": _harness_digest()}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_verdict_and_reason(corpus_run, name):
    verdict, stage, phrase = EXPECTED[name]
    sample = list(EXPECTED).index(name)
    [rec] = [m for m in corpus_run["metrics"] if m["task_id"] == "Activation/gelu.py" and m["sample_id"] == sample]
    assert rec["verdict"] == verdict, rec
    if stage:
        assert rec[stage]["status"] == verdict
        assert phrase in rec[stage]["detail"], rec[stage]["detail"]


def test_error_detail_shows_the_submissions_own_lines(corpus_run):
    """A kernel that Triton rejects: the reason names the kernel's line (as a frame of the submission,
    or in the compiler's message) and the wrapper's call, and no harness, torch or Triton frames."""
    sample = list(EXPECTED).index("kernel_error")
    [rec] = [m for m in corpus_run["metrics"] if m["task_id"] == "Activation/gelu.py" and m["sample_id"] == sample]
    detail = rec["call"]["detail"]
    assert 'File "<submission>", line 17, in gelu' in detail, detail
    assert "tl.arange(0, 100)" in detail, detail
    assert "site-packages" not in detail and "/harness/" not in detail and "/triton/" not in detail, detail


def test_a_native_crash_shows_where_and_is_retried_on_a_gpu_only(corpus_run):
    """A segfault's verdict carries the Python stack of the crash (the worker's faulthandler), whose
    innermost frame is the submission's line; on a GPU the job ran twice (a native crash is retried
    once: run/runner.py) and crashed both times, in the interpreter once."""
    sample = list(EXPECTED).index("segfault")
    [rec] = [m for m in corpus_run["metrics"] if m["task_id"] == "Activation/gelu.py" and m["sample_id"] == sample]
    detail = rec["call"]["detail"]
    assert "Fatal Python error: Segmentation fault" in detail and "line 26 in gelu" in detail, detail
    if rec["mode"] == "gpu":
        assert "segmentation fault (SIGSEGV)" in rec["info"]["retried_after_crash"], rec["info"]
    else:
        assert "retried_after_crash" not in rec["info"], rec["info"]


def test_good_solution_unaffected(corpus_run):
    good = [m for m in corpus_run["metrics"] if m["sample_id"] == len(EXPECTED) and m["task_id"] == "Activation/gelu.py"]
    assert [m["verdict"] for m in good] == ["ok"]


@pytest.mark.parametrize("line,phrase", BAD_LINES)
def test_bad_input_lines_are_failed_jobs_naming_file_and_line(corpus_run, line, phrase):
    lineno = len(EXPECTED) + 2 + [l for l, _ in BAD_LINES].index(line)
    [rec] = [m for m in corpus_run["metrics"] if m["source"].endswith(f"preds.jsonl:{lineno}")]
    assert rec["verdict"] == "error"
    assert f"preds.jsonl:{lineno}" in rec["call"]["detail"] and phrase in rec["call"]["detail"]


def test_harness_files_untouched(corpus_run):
    assert corpus_run["digest_before"] == corpus_run["digest_after"]


def test_summary_counts(corpus_run):
    s = corpus_run["summary"]
    assert s["jobs"] == len(EXPECTED) + 1 + len(BAD_LINES)
    good = sum(1 for verdict, _, _ in EXPECTED.values() if verdict == "ok")
    assert s["exe_pass"] == good + 1  # the good_* submissions and the bundled solution
    assert s["invalid"] == 3  # the lines that name no known task
