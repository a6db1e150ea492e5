"""lm-evaluation-harness glue for KernelBench-X: load the packaged dataset, pull the code block out
of each generation, and judge every generation once.

lm-eval scores one document at a time (``process_results``), which would run the harness once per
document, one after another. Its filters, however, see every response of a task at once: the
``extract`` filter pulls out the code and judges all of it in one harness run (parallel workers),
caching each sample's result; ``process_results`` then reads the cache and returns per-document
metrics, which lm-eval averages (``aggregation: mean``) and reports with standard errors, and logs
per sample (``--log_samples``: the ``verdicts`` entry of each document).
"""

from __future__ import annotations

from typing import Any

import datasets

import harness
from harness.api import evaluate_code, metric_dict, pass_at_k
from harness.run.submissions import extract_code

RATES = ("exe_rate", "exe_core_rate", "case_pass_rate", "call_rate")  # per document: mean over its samples
PASS_K = (1, 5, 10)                    # pass@k per document, for k up to its number of samples (repeats)
_JUDGED: dict[tuple[str, str], dict[str, Any]] = {}  # (task id, code) -> that sample's result


def load(config: str = "all", **_: object) -> datasets.DatasetDict:
    """The packaged dataset (offline) as lm-eval expects it."""
    return datasets.DatasetDict({"test": datasets.load_dataset(harness.dataset_path(), config, split="test")})


def extract(resps, docs):
    """Filter: model responses -> Python source (fences, end tokens and trailing tests stripped);
    every extracted sample of the task is judged here, in one harness run."""
    codes = [[extract_code(r) for r in rs] for rs in resps]
    judge([(doc["task_id"], code) for doc, samples in zip(docs, codes) for code in samples])
    return codes


def judge(pairs: list[tuple[str, str]]) -> None:
    """Judge the (task id, code) pairs not judged yet, in one run, and cache their results."""
    todo = sorted({pair for pair in pairs if pair not in _JUDGED})
    if not todo:
        return
    references = [task for task, _ in todo]
    summary, results = evaluate_code([code for _, code in todo], references)
    public = metric_dict(summary, results, references)["results"]
    for pair, [result], [row] in zip(todo, results, public):
        _JUDGED[pair] = {"exe": result.correct, "exe_core": result.correct_core,
                         "case_pass": result.case_pass_fraction, "call": result.call.ok,
                         "log": {key: row[key] for key in ("verdict", "call", "exe", "exe_core", "case_pass_fraction",
                                                           "perf", "speedup", "detail")}}


def _samples(results) -> list[str]:
    # per document, lm-eval hands over the filtered responses of each request: [[code, ...]]
    flat: list[str] = []
    for item in results:
        flat.extend(_samples(item) if isinstance(item, (list, tuple)) else [item])
    return flat


def process_results(doc, results) -> dict[str, Any]:
    """Per-document metrics from the cached verdicts (judged now if the filter did not run)."""
    pairs = [(doc["task_id"], code) for code in _samples(results)] or [(doc["task_id"], "")]
    judge(pairs)
    judged = [_JUDGED[pair] for pair in pairs]
    n = len(judged)
    out: dict[str, Any] = {
        "exe_rate": sum(j["exe"] for j in judged) / n,
        "exe_core_rate": sum(j["exe_core"] for j in judged) / n,
        "case_pass_rate": sum(j["case_pass"] for j in judged) / n,
        "call_rate": sum(j["call"] for j in judged) / n,
        "verdicts": [j["log"] for j in judged],
    }
    correct = sum(j["exe"] for j in judged)
    out.update({f"pass@{k}": pass_at_k(n, correct, k) for k in PASS_K if k <= n})
    return out


def ok_share(items) -> float:
    """Aggregation of ``verdicts``: the share of all samples whose verdict is ok; the metric exists to
    put each sample's verdict into --log_samples."""
    verdicts = [v["verdict"] for doc in items for v in doc]
    return sum(v == "ok" for v in verdicts) / len(verdicts) if verdicts else 0.0
