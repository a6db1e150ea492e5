"""Performance: GPU timing (``timing.py``), the perf command server both timed processes run
(``server.py``), the trusted baseline process (``baseline.py``), the GPU's measured roofline
(``roofline.py``), golden results per GPU model (``golden.py``) and perf metrics (``metrics.py``)."""
