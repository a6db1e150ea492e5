"""Every task's tests discriminate: plausible wrong versions of each bundled solution (wrong constant,
wrong axis, missing edge case, off-by-one mask, ...) must fail exe. Variants are kept as edits to
the solution's source in ``tests/wrong_variants/<Category>/<name>.py`` (``VARIANTS = {label: (old,
new) | [(old, new), ...]}``), so they follow the solution and fail loudly when it changes under them."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from conftest import ROOT, load_metrics, run_cli, write_jsonl
from harness.task import all_tasks, select_tasks

VARIANTS_DIR = Path(__file__).parent / "wrong_variants"
MIN_VARIANTS = 2
# Comma-separated task-id substrings: run only those tasks' variants (a GPU run split over calls).
TASKS_ENV = "KERNELBENCHX_VARIANT_TASKS"


def _variants(task) -> dict:
    path = VARIANTS_DIR / task.category / f"{task.name}.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location(f"_variants_{task.category}_{task.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.VARIANTS


def _mutate(source: str, edits) -> str:
    edits = [edits] if isinstance(edits[0], str) else edits
    for old, new in edits:
        assert old in source, f"variant edit no longer applies: {old!r} not in the solution"
        source = source.replace(old, new, 1)
    return source


UNMODIFIED = "(unmodified solution)"


def _all_variants() -> list[tuple[str, str, str]]:
    """Every variant, plus each task's unmodified solution as a control in the same run: a variant's
    failure counts only if the run passes the code it was derived from."""
    rows = []
    for task in select_tasks(w for w in os.environ.get(TASKS_ENV, "").split(",") if w):
        solution = (ROOT / "solutions" / task.category / f"{task.name}.py").read_text()
        rows.append((task.id, UNMODIFIED, solution))
        for label, edits in _variants(task).items():
            rows.append((task.id, label, _mutate(solution, edits)))
    return rows


def test_every_task_has_wrong_variants():
    thin = {t.id: len(_variants(t)) for t in all_tasks().values() if len(_variants(t)) < MIN_VARIANTS}
    assert not thin, f"tasks with fewer than {MIN_VARIANTS} wrong variants: {thin}"


@pytest.fixture(scope="module")
def variants_run(tmp_path_factory):
    rows = _all_variants()
    tmp = tmp_path_factory.mktemp("variants")
    preds = write_jsonl(tmp / "variants.jsonl",
                        [{"file": task_id, "predict": code, "sample_id": i} for i, (task_id, _, code) in enumerate(rows)])
    out = tmp / "out"
    # about 1,150 jobs in the interpreter: allow an hour on a slow two-core machine; each job has 240 s per
    # stage (the interpreter takes up to 80 s for the SVD solution alone on two loaded cores)
    # --fail-fast: a variant only has to fail, so it stops at its first wrong case (the controls, which
    # pass, run every case)
    run_cli("eval", str(preds), "--out", str(out), "-q", "--timeout", "240", "--no-perf", "--fail-fast", timeout=3600)
    by_sample = {(m["task_id"], m["sample_id"]): m for m in load_metrics(out)}
    return [(task_id, label, by_sample[(task_id, i)]) for i, (task_id, label, _) in enumerate(rows)]


def test_unmodified_solutions_pass_in_the_variants_run(variants_run):
    failed = [f"{task_id}: {m['verdict']}" for task_id, label, m in variants_run if label == UNMODIFIED and not m["exe_ok"]]
    assert not failed, f"controls failed, so the variants' failures prove nothing: {failed}"


def test_every_wrong_variant_fails_exe(variants_run):
    passed = [f"{task_id}: {label}" for task_id, label, m in variants_run if label != UNMODIFIED and m["exe_ok"]]
    assert not passed, f"wrong variants that passed exe (tests not discriminating): {passed}"
