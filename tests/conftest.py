"""Shared test helpers. GPU-only tests are marked ``gpu`` and skipped without CUDA."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
SHARED = ROOT.parent / "shared"


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA GPU (run on the device)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


needs_shared = pytest.mark.skipif(not (SHARED / "upstream").exists(),
                                  reason="../shared (upstream facts) is not present on this machine")


def run_cli(*args: str, check: bool = True, timeout: float = 1500, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``kernelbenchx`` as a user would (a separate process); ``env`` adds variables. The checkout
    comes first on the path, then whatever the path held (packages installed beside the system's,
    as on the GPU machine)."""
    path = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = subprocess.run([sys.executable, "-m", "harness.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, **(env or {}), "PYTHONPATH": path})
    if check and proc.returncode != 0:
        raise AssertionError(f"kernelbenchx {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def load_metrics(out: Path) -> list[dict]:
    return json.loads((out / "metrics.json").read_text())


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path
