"""The installed package, not the source checkout: a wheel built from the repo carries every task,
the Hugging Face dataset and the golden results, and finds them from where it is installed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap

from conftest import ROOT
from harness.task import all_tasks

NOT_SOURCES = shutil.ignore_patterns(".git", ".venv*", "venv", "runs", "build", "dist", "*.egg-info",
                                     "__pycache__", ".pytest_cache")


def test_wheel_carries_tasks_dataset_and_golden_results(tmp_path):
    source, wheels, site = tmp_path / "src", tmp_path / "wheels", tmp_path / "site"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)  # build from a copy: the checkout stays untouched
    pip = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", str(source), "--no-deps", "-w", str(wheels)], check=True, timeout=900)
    subprocess.run([*pip, "install", "--no-deps", "--target", str(site), *map(str, wheels.glob("*.whl"))],
                   check=True, timeout=300)
    code = textwrap.dedent("""
        import json, pathlib, harness
        from harness.perf.golden import GoldenResults, golden_root
        from harness.task import all_tasks
        tasks = all_tasks()
        golden = GoldenResults.find(golden_root() / "h200")
        parquet = sorted(p.name for p in pathlib.Path(harness.dataset_path()).rglob("*.parquet"))
        print(json.dumps({"harness": harness.__file__, "tasks": sorted(tasks), "parquet": parquet,
                          "golden_root": str(golden_root()),
                          "golden_tasks": sorted(i for i, t in tasks.items() if golden and golden.cases(t))}))
    """)
    # Only the installed copy is importable: PYTHONPATH comes before the editable install's finder.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(site), "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["harness"].startswith(str(site)), out["harness"]
    assert out["golden_root"].startswith(str(site)), out["golden_root"]
    assert out["tasks"] == sorted(all_tasks())
    categories = {t.split("/")[0] for t in out["tasks"]}
    assert {p.removesuffix(".parquet") for p in out["parquet"]} >= categories
    # every task's golden results ship, but those of tasks still waiting for a GPU run (pending.json)
    pending = ROOT / "golden_results" / "h200" / "pending.json"
    waiting = set(json.loads(pending.read_text())["tasks"]) if pending.exists() else set()
    assert out["golden_tasks"] == sorted(set(out["tasks"]) - waiting)
