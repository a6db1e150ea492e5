"""The trusted parent's orchestration: parse and route submissions (``submissions.py``), schedule jobs
on workers (``runner.py``), start and watch child processes (``process.py``, ``zygote.py``,
``environment.py``), compute expected outputs (``reference.py``), judge what a worker produced
(``judge.py``), drive the perf stage (``perf_stage.py``) and journal each result (``journal.py``).
Nothing here imports from ``harness.sandbox``: untrusted code runs only in child processes."""
