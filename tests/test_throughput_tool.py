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
