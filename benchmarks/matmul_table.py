"""TFLOP/s of each timed case of the matmul-like tasks in a run, against the dense peak the roofline
takes for the case's compute dtype (the measured torch.mm peak; for int8 the larger of torch._int_mm's
and twice the 16-bit peak, see harness/perf/roofline.py). Usage:
    python benchmarks/matmul_table.py RUN_DIR/metrics.json ROOFLINE_JSON [CATEGORY ...]
Prints a Markdown table (default categories: MatrixMultiply and Quantization)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from harness.perf.roofline import roofline_ms


def main(argv: list[str]) -> int:
    metrics, roofline = json.loads(Path(argv[0]).read_text()), json.loads(Path(argv[1]).read_text())
    categories = tuple(argv[2:]) or ("MatrixMultiply", "Quantization")
    peaks = roofline["matmul_flops_per_s"]
    print(f"dense peaks measured ({roofline.get('measured')}): "
          + ", ".join(f"{k} {v / 1e12:.0f} TFLOP/s" for k, v in peaks.items()))
    print()
    print("| task | case | dtype | ms | TFLOP/s | % of the dtype's peak | % of roofline | vs eager |")
    print("|---|---|---|---|---|---|---|---|")
    for job in sorted(metrics, key=lambda j: j["task_id"]):
        if not job["task_id"].startswith(categories):
            continue
        for case in (job.get("perf_metrics") or {}).get("cases", []):
            dtype, tflops = case.get("dtype") or "float32", case.get("tflops")
            peak = 1e15 / (roofline_ms(1e15, 0.0, dtype, roofline) * 1e-3)  # FLOP/s the roofline allows
            pct = f"{100 * tflops * 1e12 / peak:.1f}" if tflops else "-"
            print(f"| {job['task_id']} | {case['describe']} | {dtype} | {case['runtime_ms']} | {tflops} | {pct} | "
                  f"{case.get('roofline_pct')} | {case.get('speedup_vs_eager')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
