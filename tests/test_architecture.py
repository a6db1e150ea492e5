"""The layering contract (pyproject.toml, [tool.importlinter]; docs/ARCHITECTURE.md) holds, and it
would catch a cycle, an upward import and a trusted import of sandbox code if one were added."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("harness", "dataset_builder", "kernelbenchx_metric")
CYCLES = "No import cycles, function-level imports included"
NO_SANDBOX = "Trusted code never imports from the sandbox (its modules run only in child processes)"
LAYERS = "Dependencies point one way: faces -> run -> sandbox | report -> perf"

LINT = "import sys; from importlinter.cli import lint_imports_command; sys.argv = ['lint-imports', 'pyproject.toml', '--no-cache']; lint_imports_command()"


def lint(root: Path) -> tuple[int, dict[str, str]]:
    """Run import-linter on the packages under ``root``; returns its exit code and each contract's
    outcome (KEPT or BROKEN) by name."""
    env = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "400"}
    proc = subprocess.run([sys.executable, "-c", LINT], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)
    outcomes = {}
    for line in proc.stdout.splitlines():
        for word in ("KEPT", "BROKEN"):
            if line.rstrip().endswith(" " + word):
                outcomes[line.rstrip()[: -len(word) - 1].strip()] = word
    return proc.returncode, outcomes


def copy_tree(dest: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, dest / package,
                        ignore=shutil.ignore_patterns("__pycache__", "tasks", "hf_dataset", "*.md"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def test_layering_contract_holds():
    code, outcomes = lint(ROOT)
    assert code == 0, outcomes
    assert {CYCLES, NO_SANDBOX, LAYERS} <= set(outcomes), outcomes
    assert set(outcomes.values()) == {"KEPT"}, outcomes


# Each deliberate breach: the files added to a copy of the tree, and the contract that must break.
BREACHES = {
    "cycle through function-level imports": (
        {"harness/_cycle_a.py": "def f():\n    from harness import _cycle_b\n    return _cycle_b\n",
         "harness/_cycle_b.py": "def g():\n    from harness import _cycle_a\n    return _cycle_a\n"},
        CYCLES),
    "trusted parent code importing sandbox code": (
        {"harness/run/_peek.py": "from harness.sandbox import integrity\n"}, NO_SANDBOX),
    "perf importing the run layer above it": (
        {"harness/perf/_upward.py": "from harness.run import runner\n"}, LAYERS),
}


@pytest.mark.parametrize("breach", sorted(BREACHES))
def test_layering_contract_fails_on_a_breach(tmp_path, breach):
    files, contract = BREACHES[breach]
    root = copy_tree(tmp_path)
    code, before = lint(root)
    assert code == 0 and before.get(contract) == "KEPT", before  # the copy alone is clean
    for rel, text in files.items():
        (root / rel).write_text(text)
    code, after = lint(root)
    assert code != 0
    assert after.get(contract) == "BROKEN", after
