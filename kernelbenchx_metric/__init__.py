"""The KernelBench-X ``evaluate`` metric lives in ``kernelbenchx_metric.py`` beside this file.

Load it offline with ``evaluate.load(harness.metric_path())`` (or ``kernelbenchx_metric.load()``).
"""

from pathlib import Path

PATH = str(Path(__file__).resolve().parent)


def load(**kwargs):
    """``evaluate.load`` on this folder (offline, from any directory)."""
    import evaluate
    return evaluate.load(PATH, **kwargs)
