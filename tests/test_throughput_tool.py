"""benchmarks/throughput.py's comparison of a perf run with the golden results: the share within 2%
and a likely cause for each job outside (the numbers issue 12's perf point is judged by)."""

from __future__ import annotations

import importlib.util
import json

from conftest import ROOT
from harness.perf.golden import GoldenResults
from harness.task import get_task

_spec = importlib.util.spec_from_file_location("kbx_throughput", ROOT / "benchmarks" / "throughput.py")
throughput = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(throughput)


def _job(task_id: str, triton_ms: float, eager_ms: float, golden: dict | None, iqr_ms: float = 0.0,
         host_bound_reps: int = 0) -> dict:
    case = {"label": "c0", "runtime_ms": triton_ms, "eager": {"median_ms": eager_ms}, "golden": golden,
            "candidate": {"median_ms": triton_ms, "iqr_ms": iqr_ms, "host_bound_reps": host_bound_reps}}
    return {"task_id": task_id, "perf_ok": True, "perf_metrics": {"cases": [case]}}


def test_each_job_outside_two_percent_gets_a_likely_cause():
    jobs = [_job("Activation/relu.py", 1.00, 2.0, {"triton": 1.01, "eager": 2.0}),                 # within 2%
            _job("Activation/gelu.py", 1.00, 2.0, {"triton": 1.30, "eager": 2.4}),                 # eager moved too
            _job("Activation/silu.py", 1.00, 2.0, {"triton": 1.30, "eager": 2.0}, iqr_ms=0.2),     # wide spread
            _job("Activation/tanh.py", 1.00, 2.0, {"triton": 1.30, "eager": 2.01}),                # Triton only
            _job("Activation/elu.py", 1.00, 2.0, None),                                            # no golden
            _job("Activation/selu.py", 1.00, 2.0, {"triton": 1.30, "eager": 2.0}, iqr_ms=0.2,      # host time in
                 host_bound_reps=4)]                                                               # some reps
    found = throughput.against_golden(jobs)
    assert found["compared"] == 5 and found["within_2pct"] == 1 and found["no_golden"] == ["Activation/elu.py"]
    causes = {task: c["cause"] for task, c in found["outside_2pct_causes"].items()}
    assert causes == {"Activation/gelu.py": "golden run disturbed", "Activation/silu.py": "noisy",
                      "Activation/tanh.py": "triton side only", "Activation/selu.py": "host-bound"}
    assert found["outside_2pct_causes"]["Activation/selu.py"]["host_bound_reps"] == 4
    assert found["settle"] == {"recorded": 0, "waited": 0, "total_wait_s": 0.0, "not_quiet": []}
    assert found["outside_2pct"]["Activation/tanh.py"] == 1.3


def test_the_waits_for_a_quiet_gpu_are_summed():
    jobs = [_job("Activation/relu.py", 1.0, 2.0, None), _job("Activation/gelu.py", 1.0, 2.0, None),
            _job("Activation/silu.py", 1.0, 2.0, None)]
    jobs[0]["info"] = {"perf_settle": {"quiet": True, "waited_s": 0.0002, "probes": 5, "slowest_us": 40.0}}
    jobs[1]["info"] = {"perf_settle": {"quiet": True, "waited_s": 1.5, "probes": 900, "slowest_us": 2100.0}}
    jobs[2]["info"] = {"perf_settle": {"quiet": False, "waited_s": 10.0, "probes": 4000, "slowest_us": 3000.0}}
    assert throughput.against_golden(jobs)["settle"] == {"recorded": 3, "waited": 2, "total_wait_s": 11.5,
                                                         "not_quiet": ["Activation/silu.py"]}


def test_the_timing_lock_s_use_is_summed_from_the_timed_windows():
    jobs = [_job("Activation/relu.py", 1.0, 2.0, None), _job("Activation/gelu.py", 1.0, 2.0, None),
            _job("Activation/silu.py", 1.0, 2.0, None)]
    jobs[0]["info"] = {"perf_timed_window": [100.0, 102.0], "timing": {"perf_timed_parent_wait_s": 0.5}}
    jobs[1]["info"] = {"perf_timed_window": [106.0, 110.0], "timing": {}}
    jobs[2]["info"] = {}  # not timed (its perf failed, or a run without perf)
    assert throughput.timing_lock_use(jobs) == {"held_s": 6.0, "span_s": 10.0, "held_share": 0.6, "parent_wait_s": 0.5}
    assert throughput.timing_lock_use(jobs[2:]) == {}


def test_a_finished_run_is_compared_with_golden_results_measured_since(tmp_path):
    task = get_task("Activation/relu.py")
    path = tmp_path / "h200" / task.category / f"{task.name}.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"task_id": task.id, "task_perf_sha": task.perf_source_hash,
                                "measured": {"date": "2026-12-03T16:24:05Z"},
                                "cases": [{"label": "c0", "triton": 1.005, "eager": 2.0}]}))
    (tmp_path / "h200" / "provenance.json").write_text("{}")
    job = _job(task.id, 1.00, 2.0, {"triton": 1.5, "eager": 2.0})   # the run compared with older ones
    assert throughput.against_golden([job])["within_2pct"] == 0
    again = throughput.against_golden([job], GoldenResults.find(tmp_path / "h200"))
    assert again["within_2pct"] == 1 and again["median_abs_change"] == 0.005


def test_two_modes_are_found_only_where_the_times_split():
    steady = [1.0 + 0.001 * (i % 7) for i in range(40)]
    assert throughput.two_modes(steady) is None
    split = [1.0 + 0.001 * (i % 5) for i in range(30)] + [1.2 + 0.001 * (i % 5) for i in range(10)]
    modes = throughput.two_modes(split)
    assert modes["fast_ms"] == 1.002 and modes["slow_ms"] == 1.202 and modes["slow_share"] == 0.25
    assert 1.004 < modes["threshold_ms"] < 1.2
    # a few outliers are not a mode (under a tenth of the repetitions), nor are too few samples
    assert throughput.two_modes(steady + [1.5, 1.6]) is None and throughput.two_modes(split[:8]) is None


def test_a_case_in_two_modes_says_when_the_slow_ones_came():
    def case(samples, kept, kept_reps=None):
        return {"label": "c0", "runtime_ms": sorted(samples)[len(samples) // 2], "kept_rep": kept,
                "kept_reps": kept_reps or [kept], "candidate": {"median_ms": 1.0, "iqr_ms": 0.0, "samples_ms": samples}}
    # slow from the repetition after a kept one on (not the last kept): one lasting switch
    lasting = throughput.case_modes(case([1.0] * 12 + [1.3] * 28, kept=30, kept_reps=[3, 11, 30]))
    assert lasting["switches"] == 1 and lasting["switch_at"] == 12 and lasting["after_kept"] is True
    elsewhere = throughput.case_modes(case([1.0] * 12 + [1.3] * 28, kept=30, kept_reps=[3, 30]))
    assert elsewhere["switch_at"] == 12 and elsewhere["after_kept"] is False
    # slow on every other repetition: one of the two input sets
    alternating = throughput.case_modes(case([1.0, 1.3] * 20, kept=0))
    assert alternating["switches"] == 39 and alternating["input_set_match"] == 1.0
    assert throughput.case_modes(case([1.0] * 40, kept=3)) is None
    assert throughput.case_modes({"label": "c0", "candidate": {"median_ms": 1.0}}) is None  # run without samples
    # the cause of a job outside 2% whose candidate has two modes, and no host-bound repetitions
    job = {"task_id": "Activation/relu.py", "perf_ok": True,
           "perf_metrics": {"cases": [{**case([1.0] * 12 + [1.3] * 28, kept=11), "eager": {"median_ms": 2.0},
                                       "golden": {"triton": 1.0, "eager": 2.0}}]}}
    found = throughput.against_golden([job])["outside_2pct_causes"]["Activation/relu.py"]
    assert found["cause"] == "two modes" and found["modes"]["c0"]["slow_share"] == 0.7


def test_the_suite_digest_reads_the_gpu_memory_log_and_the_peaks(tmp_path):
    spec = importlib.util.spec_from_file_location("kbx_suite_digest", ROOT / "benchmarks" / "suite_digest.py")
    digest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(digest)
    log = tmp_path / "gpu_memory.csv"
    log.write_text("".join(f"2026/12/06 19:34:{i:02d}.000, {used} MiB, 81559 MiB, 5 %\n"
                           for i, used in enumerate([100, 300, 200, 900, 400])) + "nvidia-smi: a line that is no sample\n")
    assert digest.memory_in_use(log) == "GPU memory used (MiB) over 5 samples: median 300, 90th percentile 900, max 900"
    journal = tmp_path / "journal.jsonl"
    rows = [{"task_id": "a", "info": {"perf_footprint_mb": 100, "perf_peak_mb": {"candidate": 40, "baseline": 50}}},
            {"task_id": "b", "info": {"perf_footprint_mb": 100, "perf_peak_mb": {"candidate": 50, "baseline": 250}}},
            {"task_id": "c", "info": {}}, {"kind": "header"}]
    journal.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert digest.peaks_against_estimates(journal) == (
        "perf peak / footprint over 2 jobs: median 3.0, max (3.0, 100, {'candidate': 50, 'baseline': 250}, 'b')")
