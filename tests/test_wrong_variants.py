"""Every task's tests discriminate: plausible wrong versions of each bundled solution (wrong constant,
wrong axis, missing edge case, off-by-one mask, ...) must fail exe. Variants are kept as edits to
the solution's source in ``tests/wrong_variants/<Category>/<name>.py`` (``VARIANTS = {label: (old,
new) | [(old, new), ...]}``), so they follow the solution and fail loudly when it changes under them."""

from __future__ import annotations

from harness.task import all_tasks
from variant_rows import UNMODIFIED, variants_of

MIN_VARIANTS = 2


def test_every_task_has_wrong_variants():
    thin = {t.id: len(variants_of(t)) for t in all_tasks().values() if len(variants_of(t)) < MIN_VARIANTS}
    assert not thin, f"tasks with fewer than {MIN_VARIANTS} wrong variants: {thin}"


def test_unmodified_solutions_pass_in_the_variants_run(variants_run):
    failed = [f"{task_id}: {m['verdict']}" for task_id, label, m in variants_run if label == UNMODIFIED and not m["exe_ok"]]
    assert not failed, f"controls failed, so the variants' failures prove nothing: {failed}"


def test_every_wrong_variant_fails_exe(variants_run):
    passed = [f"{task_id}: {label}" for task_id, label, m in variants_run if label != UNMODIFIED and m["exe_ok"]]
    assert not passed, f"wrong variants that passed exe (tests not discriminating): {passed}"
