"""Write the wrong variants of some tasks (tests/wrong_variants/, as tests/variant_rows.py builds
them) as a predictions JSONL, without the unmodified solutions: the input of a fail-fast timing.

    python benchmarks/variants_jsonl.py OUT.jsonl TASK_SUBSTRING [TASK_SUBSTRING ...]
    KERNELBENCHX_SEED=0 kernelbenchx eval OUT.jsonl --out RUN --fail-fast --timeout 240 -q

(benchmarks/results/2026-12-06-cpu-ci-time: the LinearAlgebra tasks and four factorisation fusions.)
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, wanted = Path(argv[0]), argv[1:]
    os.environ["KERNELBENCHX_VARIANT_TASKS"] = ",".join(wanted)
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]
    from variant_rows import UNMODIFIED, all_rows

    rows = [(task, code) for task, label, code in all_rows() if label != UNMODIFIED]
    out.write_text("".join(json.dumps({"file": task, "predict": code, "sample_id": i}) + "\n"
                           for i, (task, code) in enumerate(rows)))
    print(f"{len(rows)} wrong variants of {len({task for task, _ in rows})} tasks in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
