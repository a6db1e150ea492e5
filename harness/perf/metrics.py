"""Perf metrics from raw measurements: per case, per job (task sample), per run.

Per case: medians and IQRs, TFLOP/s, GB/s, % of the measured roofline, speedups against each
baseline timed in the same run (eager, torch.compile) and against the stored golden results. Per
job: the geometric mean of each speedup over the task's cases. Per run: geometric mean speedup over
jobs whose perf passed, fast_p (share of *all* jobs that are correct and more than p times faster
than eager), the share of correct kernels slower than eager. A size that fails fails the job's perf
verdict, so a speedup never averages over a subset of sizes.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from harness.protocol import CANDIDATE, COMPILE, EAGER
from harness.perf.roofline import roofline_ms
from harness.perf.timing import TimingStats

FAST_P = (0.0, 1.0, 1.5, 2.0)
# A case measured faster than its roofline bound by more than this factor is not believed. The
# bound uses the copy bandwidth measured once per GPU and each task's cost model; on the H200's
# golden results honest kernels reach up to 1.03x of it on streaming ops (a kernel can stream a
# little faster than torch's copy) and 1.27x where a cost model counts more bytes than the fastest
# kernel must move (conv2d, expand_where), so 1.5x leaves room for both.
ROOFLINE_MARGIN = 1.5
# A case timed faster than this share of the GPU time its traced check call's kernels took is not
# believed. The timed median covers the whole call and the busy time only its kernels, so honest
# solutions sit at or above 1; on the H200 (2026-12-04, 650 cases of 180 bundled solutions) the
# lowest was 0.71 (grid_sample_with_affine: its traced call slower than its timed ones), the 1st
# percentile 0.97. At 0.5 a wrapper can inflate its speedup by at most 2x over what its watched
# kernels do.
TIMED_OVER_CHECK_MIN = 0.5
BASELINES = (EAGER, COMPILE)


def geomean(values: Iterable[float]) -> float | None:
    values = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else float(f"{x:.{digits}g}")


def case_metrics(raw: dict[str, Any], roofline: dict[str, Any] | None, golden: dict[str, Any] | None,
                 samples: bool = False) -> dict[str, Any]:
    """Metrics of one perf case from its raw samples (see run/perf_stage.py); with ``samples``, each
    side's milliseconds per repetition too (``samples_ms``, in the order timed: rounds of
    ``reps / rounds``), ``kept_rep``, the candidate's repetition whose result was judged, and
    ``kept_reps``, every one kept in turn up to it (each result cloned on the GPU when kept)."""
    stats = {side: TimingStats.of(ms) for side, ms in raw["samples_ms"].items() if ms}
    cand = stats[CANDIDATE].median_ms
    out: dict[str, Any] = {"label": raw["label"], "describe": raw["describe"], "dtype": raw.get("dtype"),
                           "flops": raw.get("flops"), "bytes": raw.get("bytes")}
    for side, s in stats.items():
        out[side] = {k: v if k == "reps" else _r(v) for k, v in s.to_json().items()}
        if side in raw.get("host_bound_reps", {}):  # timed while the host still issued the call (timing.py)
            out[side]["host_bound_reps"] = raw["host_bound_reps"][side]
        if samples:
            out[side]["samples_ms"] = [_r(ms) for ms in raw["samples_ms"][side]]
    if samples:
        out["kept_rep"], out["kept_reps"] = raw.get("kept_rep"), raw.get("kept_reps")
    out["runtime_ms"] = _r(cand)
    out["rounds"] = raw.get("rounds")
    seconds = cand * 1e-3
    out["tflops"] = _r(raw["flops"] / seconds / 1e12) if raw.get("flops") else None
    out["gbs"] = _r(raw["bytes"] / seconds / 1e9) if raw.get("bytes") else None
    for side in BASELINES:
        out[f"speedup_vs_{side}"] = _r(stats[side].median_ms / cand) if side in stats else None
    if COMPILE in raw.get("first_call_s", {}):
        out["compile_s"] = raw["first_call_s"][COMPILE]  # compile + first call, never timed
    if raw.get("unavailable"):
        out["unavailable"] = raw["unavailable"]
    if roofline and raw.get("bytes") is not None:
        bound = roofline_ms(raw.get("flops") or 0.0, raw["bytes"], raw.get("dtype") or "float32", roofline)
        out["roofline_ms"] = _r(bound)
        out["roofline_pct"] = _r(100.0 * bound / cand)
    busy = raw.get("check_gpu_busy_ms")
    if busy:
        # The timed repetitions are not watched, so a wrapper that runs other (library) kernels
        # whenever it is not watched is timed at their speed: its median then falls below the GPU
        # time its own watched check call's kernels took (timed_faster_than_checked).
        out["check_gpu_busy_ms"] = _r(busy)
        out["timed_over_check_busy"] = _r(cand / busy)
    if golden:
        out["golden"] = golden
        for side, ms in golden.items():
            out[f"speedup_vs_golden_{side}"] = _r(ms / cand) if ms else None
    return out


def implausible_timing(metrics: dict[str, Any]) -> str | None:
    """Why a job's timings are not believed, or ``None``: a case more than ``ROOFLINE_MARGIN`` times
    faster than the fastest any kernel could do it on this GPU (faster_than_roofline), or timed at
    less than ``TIMED_OVER_CHECK_MIN`` of the GPU time its own watched check call's kernels took
    (timed_faster_than_checked: other work ran when unwatched)."""
    for case in metrics.get("cases", []):
        pct = case.get("roofline_pct")
        if pct and pct > 100.0 * ROOFLINE_MARGIN:
            return (f"faster_than_roofline - case {case['describe']} took {case['runtime_ms']} ms, "
                    f"{pct / 100:.1f}x faster than its roofline bound of {case['roofline_ms']} ms "
                    f"(bytes / measured bandwidth, FLOPs / measured peak)")
        ratio = case.get("timed_over_check_busy")
        if ratio is not None and ratio < TIMED_OVER_CHECK_MIN:
            return (f"timed_faster_than_checked - case {case['describe']} was timed at {case['runtime_ms']} ms, "
                    f"but its traced check call kept the GPU busy {case['check_gpu_busy_ms']} ms "
                    f"({ratio:.2f}x; honest solutions are at 0.7x or more): the timed repetitions did "
                    "other work than the watched call")
    return None


def job_metrics(raw: dict[str, Any], roofline: dict[str, Any] | None,
                golden_cases: dict[str, dict[str, float]] | None = None, samples: bool = False) -> dict[str, Any]:
    """Per-case metrics and per-job geometric means; upstream's key names are kept too
    (``runtime_ms``, ``gbs``, ``tflops`` per case; ``speedup`` = geomean speedup vs eager);
    ``samples``: see ``case_metrics``."""
    golden_cases = golden_cases or {}
    cases = [case_metrics(c, roofline, golden_cases.get(c["label"]), samples) for c in raw["cases"]]
    out: dict[str, Any] = {"cases": cases}
    speedup_keys = sorted({k for c in cases for k in c if k.startswith("speedup_vs_")})
    for key in speedup_keys:
        values = [c.get(key) for c in cases]
        # Only when every case has it: a geomean over a subset of sizes would flatter.
        out[key] = _r(geomean(values)) if all(values) else None
    out["speedup"] = out.get("speedup_vs_eager")
    out["roofline_pct"] = _r(geomean(c.get("roofline_pct") for c in cases)) if roofline else None
    out["runtime_ms"] = [c["runtime_ms"] for c in cases]
    out["gbs"] = [c["gbs"] for c in cases]
    out["tflops"] = [c["tflops"] for c in cases]
    out["rounds"] = raw.get("rounds")
    out["lock_wait_s"] = raw.get("lock_wait_s")
    return out


def run_metrics(jobs: list[tuple[bool, dict[str, Any] | None]]) -> dict[str, Any]:
    """Aggregates over ``(perf_ok, job_metrics)`` pairs, one per job (all jobs, failed ones too)."""
    n = len(jobs)
    timed = [m for ok, m in jobs if ok and m and m.get("speedup")]
    speedups = [m["speedup"] for m in timed]
    out: dict[str, Any] = {
        "perf_jobs": len(timed),
        "perf_rate": round(len(timed) / n, 4) if n else 0.0,
        "geomean_speedup_vs_eager": _r(geomean(speedups)),
        "avg_speedup": _r(geomean(speedups)),  # upstream's name; a geometric mean here
        "slower_than_eager": round(sum(s < 1.0 for s in speedups) / len(speedups), 4) if speedups else None,
    }
    for p in FAST_P:
        out[f"fast_{p:g}"] = round(sum(s > p for s in speedups) / n, 4) if n else 0.0
    for key in ("speedup_vs_compile", "speedup_vs_golden_eager", "speedup_vs_golden_compile",
                "speedup_vs_golden_triton", "roofline_pct"):
        # Over the jobs that have this baseline (torch.compile may fail on a reference; golden
        # results may lack a task): the count says how many.
        values = [m[key] for m in timed if m.get(key)]
        out[f"geomean_{key}"] = _r(geomean(values))
        out[f"jobs_with_{key}"] = len(values)
    return out
