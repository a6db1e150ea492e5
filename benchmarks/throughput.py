"""Throughput of the harness (issue 14): where a suite run's time goes, and how fast a warm evaluator
answers one small submission, alone and under 16 concurrent HTTP clients.

    python benchmarks/throughput.py --out runs/throughput [--parts suite,warm,serve] [--repeats 20]

Parts (each writes its numbers into OUT/throughput.json, and a table to stdout):
- ``suite``: ``kernelbenchx eval solutions`` with ``--no-perf`` and with perf (perf only on a GPU):
  wall time, jobs, and the summed per-stage breakdown (summary.json's ``time_breakdown_s``);
- ``warm``: a warm ``harness.api.Evaluator``; ``--repeats`` sequential submissions of the bundled
  ReLU, call+exe and (on a GPU) with perf: latency p50 / p95 / max;
- ``serve``: ``kernelbenchx serve``'s server in this process, 16 clients posting the same ReLU
  ``--repeats`` times each: latency p50 / p95 / max, requests per second, failed requests.
Runs on the CPU too (interpreter), where the numbers describe the interpreter, not a GPU.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
TASK = "Activation/relu.py"


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"n": len(ordered), "p50_s": round(statistics.median(ordered), 3), "p95_s": round(pick(0.95), 3),
            "max_s": round(ordered[-1], 3)}


def suite(out: Path, gpu: bool) -> dict:
    results = {}
    for name, extra in (("call_exe", ["--no-perf"]), ("with_perf", [])):
        if name == "with_perf" and not gpu:
            results[name] = {"skipped": "no GPU"}
            continue
        run_dir = out / f"suite_{name}"
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(ROOT / "solutions"), "--out",
                               str(run_dir), "-q", *extra], cwd=ROOT, capture_output=True, text=True)
        wall = time.monotonic() - started
        summary = json.loads((run_dir / "summary.json").read_text()) if proc.returncode == 0 else {}
        results[name] = {"wall_s": round(wall, 1), "exit": proc.returncode, "jobs": summary.get("jobs"),
                         "exe_rate": summary.get("exe_rate"), "time_breakdown_s": summary.get("time_breakdown_s"),
                         "stderr_tail": proc.stderr[-500:] if proc.returncode else ""}
    return results


def warm(repeats: int, gpu: bool) -> dict:
    from harness.api import Evaluator
    results = {}
    for name, perf in (("call_exe", False), ("with_perf", True)):
        if perf and not gpu:
            results[name] = {"skipped": "no GPU"}
            continue
        started = time.monotonic()
        with Evaluator(perf=perf) as ev:
            opened = time.monotonic() - started
            ev.submit(TASK, RELU).result()  # the first job warms the reference cache and compile caches
            latencies, verdicts = [], []
            for _ in range(repeats):
                t = time.monotonic()
                verdicts.append(ev.submit(TASK, RELU).result()["verdict"])
                latencies.append(time.monotonic() - t)
        results[name] = {"open_s": round(opened, 2), **_percentiles(latencies),
                         "verdicts": sorted(set(verdicts))}
    return results


def serve(repeats: int, clients: int, gpu: bool) -> dict:
    from harness.api import Evaluator
    from harness.serve import EvaluationServer, shutdown
    evaluator = Evaluator(perf=gpu, max_pending=4 * clients)
    server = EvaluationServer(("127.0.0.1", 0), evaluator, max_timeout=300)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    body = json.dumps({"task_id": TASK, "code": RELU}).encode()
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        for _ in range(repeats):
            t = time.monotonic()
            request = urllib.request.Request(server.url + "/evaluate", data=body,
                                             headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=900) as answer:
                    verdict = json.loads(answer.read())["verdict"]
                    ok = verdict == "ok"
            except (urllib.error.URLError, OSError, ValueError) as exc:
                ok, verdict = False, f"{type(exc).__name__}: {exc}"
            with lock:
                latencies.append(time.monotonic() - t)
                if not ok:
                    failures.append(str(verdict)[:200])

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - started
    shutdown(server)
    return {"clients": clients, "requests": len(latencies), "wall_s": round(wall, 1),
            "requests_per_s": round(len(latencies) / wall, 2), **_percentiles(latencies),
            "failed": len(failures), "failures": sorted(set(failures))[:5]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--parts", default="suite,warm,serve")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args(argv)
    import torch
    gpu = torch.cuda.is_available()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {"gpu": torch.cuda.get_device_name(0) if gpu else None, "date": time.strftime("%Y-%m-%dT%H:%M:%S")}
    parts = args.parts.split(",")
    if "suite" in parts:
        report["suite"] = suite(out, gpu)
    if "warm" in parts:
        report["warm"] = warm(args.repeats, gpu)
    if "serve" in parts:
        report["serve"] = serve(max(1, args.repeats // 4), args.clients, gpu)
    (out / "throughput.json").write_text(json.dumps(report, indent=2))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
