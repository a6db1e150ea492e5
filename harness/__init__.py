"""KernelBench-X: tasks and an isolated evaluation harness for LLM-generated Triton kernels.

Layout (docs/ARCHITECTURE.md): the authoring vocabulary and shared protocol modules sit at this
level; ``sandbox/`` runs inside the untrusted worker process, ``perf/`` times and models
performance, ``run/`` is the trusted parent's orchestration, ``report/`` turns results into files
and tables; ``cli``, ``api`` and ``prompt`` are the faces users call.
"""

__version__ = "0.1.0"


def dataset_path() -> str:
    """Path to pass to ``datasets.load_dataset`` (works offline, from any directory)."""
    from harness.shipped import dataset_dir
    return str(dataset_dir())


def metric_path() -> str:
    """Path to pass to ``evaluate.load`` for the KernelBench-X metric (works offline)."""
    from harness.shipped import metric_dir
    return str(metric_dir())
