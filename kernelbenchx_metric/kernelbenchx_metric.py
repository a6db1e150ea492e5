"""KernelBench-X metric: runs LLM-generated Triton kernels against the KernelBench-X tasks."""

import os

import datasets
import evaluate

_CITATION = """\
@article{kernelbenchx2026,
  title   = {KernelBenchX},
  journal = {arXiv preprint arXiv:2605.04956},
  year    = {2026}
}
"""

_DESCRIPTION = """\
Scores Triton kernels written by a model for KernelBench-X tasks. Each prediction is run in an
isolated, sandboxed worker process through three stages: call (the code imports and its entry
function runs on the task's inputs), exe (outputs match the PyTorch reference on fresh seeded inputs
and edge cases, and the work was done by Triton kernels rather than PyTorch), and, on a GPU, perf.
Without a GPU, call and exe run in Triton's CPU interpreter and the result says so (`mode`).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of candidates, one per reference: a code string, or a list of code strings
        (several samples of one task, for pass@k). Markdown fences are stripped.
    references: list of task ids (`"Activation/gelu.py"`, `"Activation/gelu"` or `"gelu"`).
    k: the k of each pass@k to report, as in code_eval (default: 1, 5 and 10 when a reference has
        several samples); a k larger than some reference's number of samples is left out.
    num_workers: worker processes (default: one per CPU core, at most 4 without a GPU; per GPU, one
        per core up to 16).
    seed: seed of the test inputs (default: $KERNELBENCHX_SEED, else a fresh random one per call,
        returned as ``seed``: inputs known in advance could be answered from a table); the same seed
        gives the same verdicts.
    timeout: seconds allowed for each of the call and exe stages of one sample (default 300).
    mode: "gpu" or "interpreter" (default: gpu when CUDA is available).
    perf: time the samples that pass exe, on a GPU (default True; ignored without a GPU).
    compile_baseline: also time torch.compile of the reference (default False).
Returns:
    call_rate, exe_rate: shares of samples passing call and exe (exe: every case of every tier);
    exe_core_rate: share of samples whose core cases pass (what the published benchmark's tests
        exercise: contiguous, non-empty, finite inputs) -- comparable with its numbers;
    case_pass_rate: mean share of a sample's cases that pass (partial credit, a dense reward);
    failure_causes: {cause: samples} for samples not strictly correct, by what failed first
        (non_contiguous, empty_or_0d, nan_inf, inplace_out, wrong_values, error, timeout,
        crashed, integrity:<kind>, ...);
    pass@k: unbiased pass@k for each requested k (default 1, 5, 10 with several samples per
        reference) that every reference has at least k samples for;
    exe_rate/<Category>, exe_core_rate/<Category>, call_rate/<Category>: the same per category;
    mode, seed, perf, workers: how the verdicts were made (workers: processes run at once);
    perf_rate, avg_speedup (geometric mean vs eager PyTorch, same run), fast_0/1/1.5/2 (share of all
        samples correct and more than p times faster than eager), fast_<p>_core (the same over
        core-correct samples; perf is timed for every sample whose core cases pass),
        slower_than_eager: on a GPU;
    mean_maintainability_index, mean_cyclomatic_max, median_sloc: code-quality signals (radon);
    results: per reference, per sample: task_id, verdict, call, exe, exe_core, case_pass_fraction,
        perf, speedup, quality, detail (the first failure's message), cases (every case run: label,
        tier, config, status, reason, traits).
Examples:
    >>> import os, evaluate, harness
    >>> os.environ["HF_ALLOW_CODE_EVAL"] = "1"
    >>> metric = evaluate.load(harness.metric_path())
    >>> from datasets import load_dataset
    >>> row = load_dataset(harness.dataset_path(), "Activation", split="test")[0]
    >>> out = metric.compute(predictions=[row["solution"]], references=[row["task_id"]])
    >>> out["exe_rate"]
    1.0
"""

_WARNING = """
################################################################################
                                  !!!WARNING!!!
################################################################################
The KernelBench-X metric executes untrusted model-generated code. The harness runs each
prediction in a separate, sandboxed process (Landlock where the kernel supports it, time and
memory limits), but no sandbox is perfect: review the isolation notes in the project README.
Once you have read this disclaimer and taken appropriate precautions, set the environment
variable HF_ALLOW_CODE_EVAL="1". Within Python you can do this with:

>>> import os
>>> os.environ["HF_ALLOW_CODE_EVAL"] = "1"
################################################################################\
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class KernelBenchX(evaluate.Metric):
    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features({"predictions": datasets.Sequence(datasets.Value("string")),
                                   "references": datasets.Value("string")}),
                datasets.Features({"predictions": datasets.Value("string"), "references": datasets.Value("string")}),
            ],
            homepage="https://arxiv.org/abs/2605.04956",
            reference_urls=["https://arxiv.org/abs/2605.04956"],
        )

    def _compute(self, predictions, references, k=None, num_workers=None, seed=None, timeout=None, mode=None,
                 perf=True, compile_baseline=False):
        if os.getenv("HF_ALLOW_CODE_EVAL", "0") != "1":
            raise ValueError(_WARNING)
        from harness.api import score

        return score(predictions, references, k=k, workers=num_workers, seed=seed, timeout=timeout, mode=mode,
                     perf=perf, compile_baseline=compile_baseline)
