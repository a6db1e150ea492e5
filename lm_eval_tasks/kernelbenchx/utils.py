"""lm-evaluation-harness glue for KernelBench-X: load the packaged dataset, pull the code block out
of each generation, and score all generations of a task in one harness run (parallel workers)."""

from __future__ import annotations

import datasets

import harness
from harness.api import evaluate_code
from harness.run.submissions import extract_code

_RUNS: dict[tuple, dict] = {}
METRICS = ("exe_rate", "exe_core_rate", "case_pass_rate", "call_rate")  # each aggregated by its function below


def load(config: str = "all", **_: object) -> datasets.DatasetDict:
    """The packaged dataset (offline) as lm-eval expects it."""
    return datasets.DatasetDict({"test": datasets.load_dataset(harness.dataset_path(), config, split="test")})


def extract(resps, docs):
    """Filter: model responses -> Python source (fences, end tokens and trailing tests stripped)."""
    return [[extract_code(r) for r in rs] for rs in resps]


def process_results(doc, results):
    code = results[0]
    while isinstance(code, (list, tuple)):  # the filter keeps one list of samples per document
        code = code[0] if code else ""
    item = (doc["task_id"], code)
    return {metric: item for metric in METRICS}


def _summary(items) -> dict:
    key = tuple(tuple(item) for item in items)  # lm-eval may hand the pairs back as lists
    if key not in _RUNS:  # every metric aggregates the same items: run the harness once
        summary, _ = evaluate_code([code for _, code in items], [task for task, _ in items])
        _RUNS[key] = summary
    return _RUNS[key]


def exe_rate(items) -> float:
    return _summary(items)["exe_rate"]


def exe_core_rate(items) -> float:
    return _summary(items)["exe_core_rate"]


def case_pass_rate(items) -> float:
    return _summary(items)["case_pass_rate"]


def call_rate(items) -> float:
    return _summary(items)["call_rate"]
