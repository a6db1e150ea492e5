"""How long Triton compiled a job's kernels, as Triton's compilation listener reports it.

A job's call stage is mostly Triton compiling: each case with new shapes, strides or sizes can
make a new specialisation of a kernel, and each is compiled (benchmarks/results/
2026-12-07-h100-call-cost). ``metrics.json`` gives each native job's compile seconds and count per
kernel (``info.triton_compile``) and the summary their sum, so a slow job's time is explained.

The worker installs :class:`CompileTimes` as ``triton.knobs.compilation.listener`` (Triton 3.4 and
later) before the submission is imported, where the launch check's snapshot of the knobs keeps it
from being replaced. These are the worker's figures, informational only: no verdict rests on them
(the parent checks and sums them: harness/run/compile_times.py).
"""

from __future__ import annotations

from typing import Any

from harness.protocol import COMPILE_TIMES_MAX_KERNELS as MAX_KERNELS
from harness.protocol import COMPILE_TIMES_MAX_NAME as MAX_NAME


class CompileTimes:
    """Triton's compilation listener: per kernel name, how many compiles (not cache hits) and
    their seconds (front end, every lowering stage, storing the results)."""

    def __init__(self) -> None:
        self.kernels: dict[str, list] = {}  # name -> [compiles, seconds]

    def __call__(self, *, src: Any = None, metadata: Any = None, metadata_group: Any = None, times: Any = None,
                 cache_hit: bool = False, **_: Any) -> None:
        if cache_hit:
            return
        try:  # called inside Triton's compile: whatever goes wrong here, the compile goes on
            micros = times.ir_initialization + sum(us for _, us in times.lowering_stages) + times.store_results
            name = str(metadata.get("name", "?"))[:MAX_NAME]
            entry = self.kernels.get(name)
            if entry is None:
                if len(self.kernels) >= MAX_KERNELS:
                    return
                entry = self.kernels[name] = [0, 0.0]
            entry[0] += 1
            entry[1] += micros / 1e6
        except Exception:  # noqa: BLE001 - another Triton's shapes: unrecorded
            return

    def install(self) -> bool:
        """Become Triton's compilation listener; False where this Triton has none."""
        from triton import knobs
        section = getattr(knobs, "compilation", None)
        if section is None or not hasattr(section, "listener"):
            return False
        section.listener = self
        return True


def compile_summary(kernels: dict) -> dict:
    """``{"seconds": total, "compiles": count, "kernels": {name: [compiles, seconds]}}`` of a
    :class:`CompileTimes`' ``kernels``, taken by the worker before the import. The submission can
    reach the listener (a knob of Triton's) and what it holds: only entries of plain types are read,
    so no code of its own runs as the worker reports."""
    found = {}
    for name, entry in list(dict.items(kernels))[:MAX_KERNELS] if type(kernels) is dict else ():
        if type(name) is str and type(entry) is list and len(entry) == 2 \
                and type(entry[0]) is int and type(entry[1]) is float:
            found[name] = [entry[0], round(entry[1], 3)]
    return {"seconds": round(sum(s for _, s in found.values()), 3), "compiles": sum(n for n, _ in found.values()),
            "kernels": found}
