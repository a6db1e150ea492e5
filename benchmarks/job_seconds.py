"""Write a GPU's ``job_seconds.json`` (golden_results/<gpu>/) from a native run of the bundled solutions.

Per task: the seconds its solution's job took in one worker process (the parent's record of the
worker's stages, spawn to report: set-up, import, every call and exe). Measure with ``--shards 1``;
from another run, a job spread over N processes counts N times its seconds (about an upper bound of
one process's), and the seconds carry that run's load (golden_results/h100/ is a full suite's). A run
reads it to start long jobs first and to decide which jobs to spread over several processes
(harness/run/shards.py, harness/perf/golden.py expected_job_seconds); it says nothing about kernel
speed.

    python benchmarks/job_seconds.py RUN_DIR/metrics.json golden_results/h200/job_seconds.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

WORKER_STAGES = ("spawn_s", "setup_s", "load_s", "call_s", "exe_s")


def main(metrics: Path, out: Path) -> None:
    jobs = json.loads(metrics.read_text())
    seconds, several = {}, []
    for job in jobs:
        processes = (job.get("info") or {}).get("processes", 1)
        if processes != 1:
            several.append(f"{job['task_id']} ({processes})")
        timing = job["info"].get("timing") or {}
        seconds[job["task_id"]] = round(processes * sum(timing.get(k, 0.0) for k in WORKER_STAGES), 2)
    summary_file = metrics.with_name(metrics.name.replace("metrics", "summary"))  # beside it, as the run wrote it
    summary = json.loads(summary_file.read_text())
    out.write_text(json.dumps({"measured": {k: summary.get(k) for k in ("versions", "started", "seed", "mode")},
                               "how": "benchmarks/job_seconds.py over a --no-perf run of solutions/"
                                      + (f" (run in several processes, seconds times their count: {', '.join(several)})" if several
                                         else ""),
                               "seconds": dict(sorted(seconds.items()))}, indent=1) + "\n")
    print(f"{len(seconds)} tasks, {sum(seconds.values()):.0f} s in all, longest "
          f"{max(seconds, key=seconds.get)} {max(seconds.values()):.1f} s -> {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
