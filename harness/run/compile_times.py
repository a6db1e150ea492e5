"""The Triton compile times a job's worker processes reported (harness/sandbox/compile_times.py),
checked and summed for ``metrics.json`` (``info.triton_compile``). Informational: a worker may
report anything here, so figures of the wrong shape are dropped and no verdict reads them."""

from __future__ import annotations

import math
from typing import Any

from harness.protocol import COMPILE_TIMES_MAX_KERNELS as MAX_KERNELS
from harness.protocol import COMPILE_TIMES_MAX_NAME as MAX_NAME


def merged_compile_times(reports: list[Any]) -> dict | None:
    """The compile times of a job's worker processes' reports, checked and summed (a process's
    figures of the wrong shape are left out); None when no process reported any."""
    kernels: dict[str, list] = {}
    found = False
    for report in reports:
        data = report.get("triton_compile") if isinstance(report, dict) else None
        entries = data.get("kernels") if isinstance(data, dict) else None
        if not isinstance(entries, dict):
            continue
        found = True
        for name, value in list(entries.items())[:MAX_KERNELS]:
            if not (isinstance(name, str) and isinstance(value, list) and len(value) == 2
                    and type(value[0]) is int and type(value[1]) in (int, float)
                    and 0 <= value[0] < 1_000_000 and math.isfinite(value[1]) and 0 <= value[1] < 1e6):
                continue
            entry = kernels.setdefault(name[:MAX_NAME], [0, 0.0])
            entry[0] += value[0]
            entry[1] += float(value[1])
    if not found:
        return None
    return {"seconds": round(sum(s for _, s in kernels.values()), 3), "compiles": sum(n for n, _ in kernels.values()),
            "kernels": {name: [n, round(s, 3)] for name, (n, s) in sorted(kernels.items())[:MAX_KERNELS]}}
