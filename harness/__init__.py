"""KernelBench-X: tasks and an isolated evaluation harness for LLM-generated Triton kernels."""

from pathlib import Path

__version__ = "0.1.0"

#: The built Hugging Face dataset shipped with the package: ``datasets.load_dataset(str(DATASET_DIR), "all")``.
DATASET_DIR = Path(__file__).resolve().parent / "hf_dataset"


def dataset_path() -> str:
    """Path to pass to ``datasets.load_dataset`` (works offline, from any directory)."""
    return str(DATASET_DIR)


def metric_path() -> str:
    """Path to pass to ``evaluate.load`` for the KernelBench-X metric (works offline)."""
    import kernelbenchx_metric
    return str(Path(kernelbenchx_metric.__file__).resolve().parent)
