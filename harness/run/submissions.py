"""Submissions: parse model outputs into jobs, one per (task, sample).

Accepted inputs (upstream-compatible):
- a JSONL file, one object per line: ``{"file": "Activation/gelu.py", "predict": "<code>"}``; ``file``
  may be a bare stem; instead of ``file`` a line may carry an ``instruction`` holding the task's
  prompt (routed by its ``Wrapper Entry Information:`` section); optional ``sample_id``;
- a ``.py`` file named after its task (``gelu.py``, or ``Activation/gelu.py`` by its folder);
- a directory, searched recursively for both;
- a Python list of ``(task, code)`` pairs (API use).

Markdown fences and chat end tokens are stripped, and text after a line of 146 ``#`` is ignored.
Bad input never aborts a run: it becomes a :class:`Job` with ``error`` set, which is recorded as a
failed job naming the file and line.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from harness.files import escape_surrogates
from harness.run.journal import JOURNAL_NAME
from harness.task import TaskError, all_tasks, get_task

SEPARATOR = "#" * 146
MAX_SAMPLE_ID = 1 << 31
# The most code (and whole prediction text taken for code) the parent parses. CPython's parser
# takes time that grows with the square of some inputs' length while it holds the GIL (an f-string
# of many replacement fields: 0.8 s at 100 kB, 67 s at 1 MB on Python 3.11), and every thread of the
# parent waits meanwhile: one prediction froze a server and turned other clients' jobs into
# timeouts. A bundled solution is at most 25 kB; at this length the worst parse is about 0.3 s.
MAX_CODE_CHARS = 64_000
CODE_KEYS = ("predict", "prediction", "completion", "code", "output", "response")
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end|>", "</s>", "<｜end▁of▁sentence｜>")
ENTRY_MARKER = "Wrapper Entry Information:"
DESCRIPTION_MARKER = "Functional Description:"
# a whole line: its indentation, three or more backticks or tildes, an optional language tag (no
# backtick in a backtick fence's, as in CommonMark)
_OPENING_FENCE = re.compile(r"([ \t]*)(?:(`{3,})[^`]*|(~{3,}).*)")


@dataclass
class Job:
    """One submission to evaluate; ``error`` is set when it could not be prepared."""

    task_id: str | None
    code: str
    source: str
    sample_id: int = 0
    error: str | None = None
    extra: dict = field(default_factory=dict)
    # the job's own seed (a warm evaluator's submission draws one: its client sees each record, the
    # error text of a case included, before it sends the next); None: the run's
    seed: int | None = None

    @property
    def code_sha(self) -> str:
        return hashlib.sha256(self.code.encode()).hexdigest()[:16]

    @property
    def key(self) -> str:
        """Stable identity for the journal: task, sample and code."""
        return f"{self.task_id or self.source}#{self.sample_id}@{self.code_sha}"


def fenced_blocks(text: str) -> list[str]:
    """The contents of the markdown code fences in ``text``, as CommonMark reads them, in one pass
    over the lines: an opening line of three or more backticks or tildes and an optional tag, up to a
    line of the same character, at least as many, alone; each content line loses the indentation
    the opening fence had (a fence inside a list item); a fence never closed runs to the end of the
    text (a generation cut by a stop sequence or its token limit)."""
    blocks, current, fence, indent = [], None, "", ""
    for line in text.split("\n"):
        if current is None:
            opening = _OPENING_FENCE.fullmatch(line)
            if opening:
                current, fence, indent = [], opening.group(2) or opening.group(3), opening.group(1)
        elif _closes(line, fence):
            blocks.append("\n".join(current) + "\n" if current else "")
            current = None
        else:
            current.append(_dedented(line, indent))
    if current and not blocks:  # (after a closed block, an unclosed one is a cut-off usage example)
        blocks.append("\n".join(current) + "\n")
    return blocks


def _closes(line: str, fence: str) -> bool:
    bare = line.strip(" \t")
    return len(bare) >= len(fence) and bare == fence[0] * len(bare)


def _dedented(line: str, indent: str) -> str:
    """``line`` less the opening fence's indentation ``indent``, or as many leading spaces of it as
    it has (a tab of the code's own is kept)."""
    if line.startswith(indent):
        return line[len(indent):]
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, len(indent)):]


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        return False
    return True


def _without_trailing_end_tokens(text: str) -> str:
    # by index, one copy at the end (stripping a copy per token was quadratic in their count)
    end = len(text)
    while True:
        while end and text[end - 1].isspace():
            end -= 1
        token = next((t for t in END_TOKENS if end >= len(t) and text.startswith(t, end - len(t))), None)
        if token is None:
            return text[:end]
        end -= len(token)


def extract_code(text: str) -> str:
    """Model output -> Python source: drop the test part; then, unless what is left is already
    Python (whose string literals may hold fences or end tokens), chat end tokens and markdown
    fences."""
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == SEPARATOR:
            text = "\n".join(lines[:i])
            break
    if text.strip() and len(text) <= MAX_CODE_CHARS and _parses(text):
        return text.strip("\n") + "\n"
    bare = _without_trailing_end_tokens(text)  # plain code a chat template ended with its token
    if bare.strip() and len(bare) <= MAX_CODE_CHARS and _parses(bare):
        return bare.strip("\n") + "\n"
    for token in END_TOKENS:
        text = text.replace(token, "")
    blocks = fenced_blocks(text)
    if blocks:
        # [ \t]*, not \s*: \s crosses lines, so a block of blank lines made every line a new start
        # scanned to the end (quadratic, holding the GIL: one prediction froze a server)
        with_defs = [b for b in blocks if re.search(r"^[ \t]*(def|@triton)", b, re.M)]
        text = "\n\n".join(with_defs or blocks)
    return text.strip("\n") + "\n" if text.strip() else ""


def route_instruction(instruction: str) -> str | None:
    """The task id whose entry function the prompt's ``Wrapper Entry Information`` names."""
    if ENTRY_MARKER not in instruction:
        return None
    section = instruction.split(ENTRY_MARKER, 1)[1]
    names = re.findall(r"\b([A-Za-z_]\w*)\s*\(", section)
    by_entry = {t.entry: t.id for t in all_tasks().values()}
    for name in names:
        if name in by_entry:
            return by_entry[name]
    return None


def _prepare(task_key: str | None, raw: str, source: str, sample_id: int | None, counters: dict) -> Job:
    task_id = None
    error = None
    source = escape_surrogates(source)
    task_key = escape_surrogates(task_key) if isinstance(task_key, str) else task_key
    if task_key is None:
        error = "cannot tell which task this is: give `file` (e.g. \"Activation/gelu.py\") or an `instruction` with the task prompt"
    elif not isinstance(task_key, str):
        error = f"the task is named by a value of type {type(task_key).__name__}, not a string (e.g. \"Activation/gelu.py\")"
    else:
        try:
            task_id = get_task(task_key).id
        except TaskError as exc:
            error = str(exc)
    if isinstance(raw, str):
        raw = escape_surrogates(raw)
    code = extract_code(raw) if isinstance(raw, str) else ""
    if error is None and not isinstance(raw, str):  # (a failed generation often leaves None)
        error = f"the prediction is a value of type {type(raw).__name__}, not a string of code"
    if error is None and not code.strip():
        error = "empty code: the prediction holds no Python source"
    if error is None and len(code) > MAX_CODE_CHARS:
        error = (f"the code is {len(code)} characters long, more than the {MAX_CODE_CHARS} a submission may have "
                 "(its parse would hold the evaluator for everyone)")
    if error is None:
        try:
            ast.parse(code)
        except SyntaxError as exc:
            error = f"syntax error at line {exc.lineno} of the code: {exc.msg}"
        except (RecursionError, MemoryError, ValueError) as exc:  # nesting too deep, NUL bytes
            error = f"the code cannot be parsed ({type(exc).__name__}: {str(exc)[:200]})"
    if sample_id is None:
        sample_id = counters[task_id or source]
    counters[task_id or source] = max(counters[task_id or source], sample_id + 1)
    return Job(task_id=task_id, code=code, source=source, sample_id=sample_id,
               error=f"{source}: {error}" if error else None)


def _from_jsonl(path: Path, counters: dict) -> list[Job]:
    jobs = []
    # lines end at "\n" only: JSON strings may hold U+2028, U+0085 and the like raw, which
    # str.splitlines() also breaks at; a byte-order mark at the start is no part of the first line
    for lineno, line in enumerate(path.read_text(encoding="utf-8-sig", errors="replace").split("\n"), 1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        source = f"{path}:{lineno}"
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("a line must be a JSON object")
        except (ValueError, RecursionError) as exc:
            jobs.append(Job(None, "", source, counters[source], error=f"{source}: not a valid JSON object ({str(exc)[:200]})"))
            continue
        raw = next((obj[k] for k in CODE_KEYS if isinstance(obj.get(k), str)), None)
        task_key = next((obj[k] for k in ("file", "task_id", "task") if isinstance(obj.get(k), str) and obj[k]), None)
        if not task_key and isinstance(obj.get("instruction"), str):
            task_key = route_instruction(obj["instruction"])
        if raw is None:
            jobs.append(Job(None, "", source, 0, error=f"{source}: no code: expected one of the keys {', '.join(CODE_KEYS)}"))
            continue
        sample = obj.get("sample_id")
        valid_sample = type(sample) is int and 0 <= sample < MAX_SAMPLE_ID
        jobs.append(_prepare(task_key, raw, source, sample if valid_sample else None, counters))
    return jobs


def _from_py(path: Path, counters: dict) -> Job:
    key = f"{path.parent.name}/{path.stem}.py"
    if key not in all_tasks():
        key = path.stem
    return _prepare(key, path.read_text(encoding="utf-8", errors="replace"), str(path), None, counters)


def _is_run_dir(folder: Path) -> bool:
    """An ``eval`` output folder (its journal and reports are results, not predictions)."""
    return (folder / JOURNAL_NAME).exists() or (folder / "summary.json").exists()


def prediction_files(root: Path) -> list[Path]:
    """The ``.py`` and ``.jsonl`` files under ``root``, skipping hidden folders (``.git``, virtual
    environments), ``__pycache__`` and the output folders of earlier runs."""
    found = []
    for folder, subdirs, names in os.walk(root):
        here = Path(folder)
        subdirs[:] = sorted(d for d in subdirs
                            if not d.startswith(".") and d != "__pycache__" and not _is_run_dir(here / d))
        results = _is_run_dir(here)  # ``root`` itself may be a run's folder
        found += [here / n for n in names if n.endswith((".py", ".jsonl")) and not (results and n == JOURNAL_NAME)]
    return sorted(found)


def source_paths(sources: Iterable[str | Path]) -> list[Path]:
    """What a run reads its predictions from, for its workers to hide (other submissions' code):
    each source as given, resolved, and under a folder the folders of the prediction files found
    there (a ``sys.path`` folder between the two, which workers may read, would show them again)."""
    found: set[Path] = set()
    for source in sources:
        path = Path(source).resolve()
        found.add(path)
        if path.is_dir():
            found.update(f.parent for f in prediction_files(path))
    return sorted(found)


def load_submissions(source: str | Path | Iterable[tuple[str, str]] | list[str | Path]) -> list[Job]:
    """Jobs from a JSONL file, a ``.py`` file, a directory, a list of those (job ids stay unique
    across them), or ``(task, code)`` pairs."""
    counters: dict = defaultdict(int)
    if isinstance(source, (str, Path)):
        return _distinct(_from_path(Path(source), counters), counters)
    items = list(source)
    if items and all(isinstance(s, (str, Path)) for s in items):
        return _distinct([job for s in items for job in _from_path(Path(s), counters)], counters)
    return _distinct([_prepare(task, code, f"<item {i}>", None, counters) for i, (task, code) in enumerate(items)],
                     counters)


def _distinct(jobs: list[Job], counters: dict) -> list[Job]:
    """``jobs`` with no two sharing a task and sample id: a repeat of an earlier prediction, or
    another prediction given the same sample id, gets the next free one, so each is evaluated and
    recorded on its own (two records under one key overwrote each other in the journal and the
    reports; two rows of one id made reports ambiguous and a comparison of runs pair the wrong ones)."""
    seen: set[tuple[str, int]] = set()
    for job in jobs:
        group = job.task_id or job.source
        while (group, job.sample_id) in seen:
            job.sample_id = max(counters[group], job.sample_id + 1)
            counters[group] = job.sample_id + 1
        seen.add((group, job.sample_id))
    return jobs


def _from_path(path: Path, counters: dict) -> list[Job]:
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file or directory")
    if path.is_dir():
        jobs: list[Job] = []
        for f in prediction_files(path):
            jobs.extend(_from_file(f, counters))
        return jobs
    return _from_file(path, counters)


def _from_file(path: Path, counters: dict) -> list[Job]:
    """The jobs of one prediction file; a FIFO, socket or device (whose read could block for
    ever) is an error job naming it, not read."""
    if not path.is_file():
        what = ("a link to nothing (its target is missing)" if path.is_symlink() and not path.exists()
                else "missing" if not path.exists() else "not a regular file (a FIFO, socket or device)")
        return [Job(None, "", str(path), counters[str(path)], error=f"{path}: {what}: not read")]
    return _from_jsonl(path, counters) if path.suffix == ".jsonl" else [_from_py(path, counters)]
