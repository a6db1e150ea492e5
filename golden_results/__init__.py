"""Golden results shipped with KernelBench-X: per GPU model, baselines measured by ``kernelbenchx golden``
(data only; see README.md here and ``harness/perf/golden.py``)."""
