"""Where the data shipped with the package lives: task files, the built dataset, golden results.

Found with :mod:`importlib.resources`, so an installed copy (wheel or editable) and a source
checkout resolve them the same way, from any working directory.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _package_dir(package: str, *parts: str) -> Path:
    # Task files are executed by path and golden results written in place, so callers need a real
    # directory: the package is installed unzipped (setuptools' default), where files() is a Path.
    return Path(str(files(package).joinpath(*parts)))


def tasks_dir() -> Path:
    """``harness/tasks``: one folder per category, one file per task."""
    return _package_dir("harness", "tasks")


def dataset_dir() -> Path:
    """The built Hugging Face dataset (parquet per category and its card)."""
    return _package_dir("harness", "hf_dataset")


def golden_results_dir() -> Path:
    """``golden_results``: measured baselines, one folder per GPU model."""
    return _package_dir("golden_results")


def metric_dir() -> Path:
    """The ``evaluate`` metric module's folder (what ``evaluate.load`` is given)."""
    return _package_dir("kernelbenchx_metric")
