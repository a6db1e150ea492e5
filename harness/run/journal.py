"""The run journal: one JSON line per finished job, flushed and fsynced, so nothing is lost on a
crash and ``--resume`` can skip what is done. The first line is a header naming the run's settings;
resuming under other settings is refused rather than mixing results."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from pathlib import Path
from typing import Any

from harness.config import StageLimits
from harness.verdicts import JobResult

JOURNAL_NAME = "journal.jsonl"


class JournalError(Exception):
    """The output directory holds a journal that cannot be continued as asked."""


def _recorded_header(out_dir: Path) -> dict:
    """The header of the journal under ``out_dir`` ({} where there is none)."""
    try:
        with open(out_dir / JOURNAL_NAME, encoding="utf-8", errors="replace") as f:
            header = json.loads(f.readline(1 << 20))
    except (OSError, ValueError, RecursionError):
        return {}
    return header if isinstance(header, dict) and header.get("kind") == "header" else {}


def recorded_seed(out_dir: Path) -> int | None:
    """The seed in the header of the journal under ``out_dir`` (None: no journal, or none recorded),
    so that resuming a run drawn with a random seed goes on with the same one."""
    seed = _recorded_header(out_dir).get("seed")
    return seed if type(seed) is int else None


def recorded_limits(out_dir: Path) -> StageLimits | None:
    """The stage limits in the header of the journal under ``out_dir`` (None: none recorded), so
    that resuming a run goes on with its own unless others are given."""
    limits = _recorded_header(out_dir).get("limits")
    names = set(StageLimits.__dataclass_fields__)
    if not (isinstance(limits, dict) and set(limits) == names
            and all(type(v) in (int, float) and v > 0 for v in limits.values())):
        return None
    return StageLimits(**{k: float(v) for k, v in limits.items()})


class Journal:
    """Append-only JSONL of :class:`JobResult` s."""

    def results_for(self, jobs: list) -> list[JobResult]:
        """The recorded results of ``jobs`` (those done), each naming where this run read its job
        (a resumed run's predictions may have moved to another file or line since)."""
        return [dataclasses.replace(self.done[j.key], source=j.source) for j in jobs if j.key in self.done]

    def __init__(self, out_dir: Path, header: dict[str, Any], resume: bool) -> None:
        self.path = out_dir / JOURNAL_NAME
        self._lock = threading.Lock()
        self.done: dict[str, JobResult] = {}
        self.write_error: str | None = None  # the first failed append
        out_dir.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and self.path.stat().st_size > 0:
            if not resume:
                raise JournalError(f"{self.path} already holds results: pass --resume to continue that run, "
                                   "or choose another --out")
            self._load(header)
        else:
            self._write_line({"kind": "header", **header})

    def _load(self, header: dict[str, Any]) -> None:
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        try:
            old = json.loads(lines[0]) if lines else {}
        except (ValueError, RecursionError):
            old = None
        if not isinstance(old, dict) or old.get("kind") != "header":
            raise JournalError(f"{self.path} does not start with a run's header line: it is not a journal this "
                               "harness wrote (or its first line was damaged); use another --out")
        # settings a verdict depends on (journals from before a setting was recorded: its default then)
        for key, default in (("seed", None), ("mode", None), ("fail_fast", False), ("perf", header.get("perf")),
                             ("compile_baseline", header.get("compile_baseline")), ("limits", header.get("limits"))):
            if old.get(key, default) != header.get(key, default):
                raise JournalError(f"{self.path} was written with {key}={old.get(key, default)!r}, this run has "
                                   f"{key}={header.get(key)!r}: resume with the same settings or use another --out")
        complete = True
        for line in lines[1:]:
            try:
                result = JobResult.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError, RecursionError):
                complete = False  # a line cut short by a kill (or not one of ours): that job simply runs again
                continue
            self.done[result.key] = result
        if not complete or not self.path.read_bytes().endswith(b"\n"):
            self._rewrite([json.loads(lines[0])] + [r.to_json() for r in self.done.values()])

    def _rewrite(self, rows: list[dict]) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        os.replace(tmp, self.path)

    def _write_line(self, row: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def append(self, result: JobResult) -> None:
        """Record ``result``; if the journal cannot be written (a full disk), the result is kept in
        memory for this run's reports and ``write_error`` says why (a resume would redo that job)."""
        with self._lock:
            self.done[result.key] = result
            try:
                self._write_line(result.to_json())
            except OSError as exc:
                self.write_error = self.write_error or f"{self.path}: {exc.strerror or exc}"
