"""Results into files and tables: ``metrics.json`` / ``summary.json`` (``summary.py``), the terminal
table (``table.py``), code-quality signals (``quality.py``) and the Markdown perf report (``markdown.py``)."""
