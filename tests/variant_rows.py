"""The wrong variants of the bundled solutions (``tests/wrong_variants/<Category>/<name>.py``, each
``VARIANTS = {label: (old, new) | [(old, new), ...]}``: edits to the solution's source) and the rows
of the one run that judges them beside the unmodified solutions (conftest.py's ``variants_run``)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from conftest import ROOT
from harness.task import select_tasks

ROOT = Path(__file__).resolve().parent.parent
VARIANTS_DIR = Path(__file__).parent / "wrong_variants"
# Comma-separated task-id substrings: run only those tasks' variants (a GPU run split over calls).
TASKS_ENV = "KERNELBENCHX_VARIANT_TASKS"


def variants_of(task) -> dict:
    path = VARIANTS_DIR / task.category / f"{task.name}.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location(f"_variants_{task.category}_{task.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.VARIANTS


def mutate(source: str, edits) -> str:
    edits = [edits] if isinstance(edits[0], str) else edits
    for old, new in edits:
        assert old in source, f"variant edit no longer applies: {old!r} not in the solution"
        source = source.replace(old, new, 1)
    return source


UNMODIFIED = "(unmodified solution)"


def selected_tasks() -> list:
    """The tasks whose variants run: those ``$KERNELBENCHX_VARIANT_TASKS`` names (all if unset)."""
    return list(select_tasks(w for w in os.environ.get(TASKS_ENV, "").split(",") if w))


def all_rows() -> list[tuple[str, str, str]]:
    """``(task id, label, code)`` of every variant of the selected tasks (``$KERNELBENCHX_VARIANT_TASKS``, default all), plus each task's unmodified solution as a control in the same run: a variant's
    failure counts only if the run passes the code it was derived from."""
    rows = []
    for task in selected_tasks():
        solution = (ROOT / "solutions" / task.category / f"{task.name}.py").read_text()
        rows.append((task.id, UNMODIFIED, solution))
        for label, edits in variants_of(task).items():
            rows.append((task.id, label, mutate(solution, edits)))
    return rows
