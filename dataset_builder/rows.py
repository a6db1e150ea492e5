"""One dataset row per task: everything needed to prompt a model and to evaluate its answer."""

from __future__ import annotations

import inspect
from pathlib import Path

from harness.prompt import build_prompt
from harness.task import Task

SOLUTIONS_DIR = Path(__file__).resolve().parent.parent / "solutions"

COLUMNS = ("task_id", "category", "name", "entry_point", "signature", "prompt", "description",
           "reference_code", "difficulty", "dtypes", "task_source", "solution", "source_sha")


def task_row(task: Task) -> dict:
    """The row for ``task`` (column order as in ``COLUMNS``)."""
    solution = SOLUTIONS_DIR / task.category / f"{task.name}.py"
    return {
        "task_id": task.id,
        "category": task.category,
        "name": task.name,
        "entry_point": task.entry,
        "signature": task.signature,
        "prompt": build_prompt(task),
        "description": task.description,
        "reference_code": inspect.getsource(task.reference),
        "difficulty": task.difficulty,
        "dtypes": list(task.dtypes),
        "task_source": task.path.read_text(encoding="utf-8"),
        "solution": solution.read_text(encoding="utf-8") if solution.exists() else None,
        "source_sha": task.source_hash,
    }
