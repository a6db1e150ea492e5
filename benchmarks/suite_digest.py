"""What a device script prints of a suite run with perf (benchmarks/device_suite.sh,
benchmarks/device_levers.sh): its jobs and verdicts, the per-stage breakdown, how busy the timing
lock was, the comparison with the golden results, the GPU's memory in use (an ``nvidia-smi`` log)
and each job's perf-memory peaks against its estimate.

    python3 benchmarks/suite_digest.py RUN_DIR [GPU_MEMORY_CSV]

RUN_DIR holds ``throughput.json`` and ``suite_with_perf/journal.jsonl`` (throughput.py --out).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def memory_in_use(csv_path: Path) -> str | None:
    """Median, 90th percentile and most of the GPU memory in use (MiB) over an nvidia-smi log of
    ``timestamp, memory.used, memory.total, utilization`` lines."""
    used = sorted(float(line.split(",")[1].split()[0]) for line in csv_path.read_text().splitlines()
                  if line.count(",") >= 3 and "MiB" in line)
    if not used:
        return None
    return (f"GPU memory used (MiB) over {len(used)} samples: median {used[len(used) // 2]:.0f}, "
            f"90th percentile {used[int(len(used) * 0.9)]:.0f}, max {used[-1]:.0f}")


def peaks_against_estimates(journal: Path) -> str | None:
    """The median and largest ratio of a job's two perf processes' allocator peaks to its estimated
    footprint (``info.perf_peak_mb``, ``info.perf_footprint_mb``)."""
    ratios = []
    for line in journal.read_text().splitlines():
        row = json.loads(line)
        info = row.get("info") or {}
        peak, footprint = info.get("perf_peak_mb") or {}, info.get("perf_footprint_mb")
        if footprint and peak:
            ratios.append((round(sum(peak.values()) / footprint, 3), footprint, peak, row.get("task_id")))
    if not ratios:
        return None
    ratios.sort(key=lambda r: r[0])
    return f"perf peak / footprint over {len(ratios)} jobs: median {ratios[len(ratios) // 2][0]}, max {ratios[-1]}"


def digest(run_dir: Path, memory_csv: Path | None = None) -> list[str]:
    tp = json.loads((run_dir / "throughput.json").read_text())["suite"]["with_perf"]
    lines = [str({k: tp.get(k) for k in ("wall_s", "resumed", "exit", "cut", "jobs", "verdicts")}),
             f"time_breakdown_s {tp.get('time_breakdown_s')}",
             f"timing lock {tp.get('timing_lock')}"]
    golden = tp.get("against_golden") or {}
    lines.append(f"against golden {({k: v for k, v in golden.items() if k != 'jobs'})}")
    if memory_csv is not None and memory_csv.exists():
        lines.append(memory_in_use(memory_csv) or "GPU memory: no samples")
    journal = run_dir / "suite_with_perf" / "journal.jsonl"
    if journal.exists():
        lines.append(peaks_against_estimates(journal) or "perf peaks: none recorded")
    return lines


if __name__ == "__main__":
    print("\n".join(digest(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)))
