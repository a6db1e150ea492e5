"""Code-quality signals of a submission, from radon: lines of code, cyclomatic complexity of its
functions (Triton kernels and wrappers alike), and the maintainability index (0-100, higher is
easier to maintain).

They are computed in the parent from the source text: radon parses it (``ast``) and never runs it, so
a submission cannot touch its own numbers. They describe the code, not its correctness or speed, and
are reported for every job whose source parses, failed ones too.
"""

from __future__ import annotations

import ast
import io
import statistics
import tokenize
from typing import Any

# Larger sources are not analysed: a generated kernel is a few hundred lines, and the parser's time
# on some inputs grows with the square of their length while it holds the parent's GIL (as
# harness/run/submissions.py's MAX_CODE_CHARS, which refuses longer code as the job's error).
MAX_SOURCE_CHARS = 64_000
# radon's raw metrics re-tokenize a statement once per physical line it spans, so they cost about
# the sum over statements of (lines spanned)^2: a 13 kB tuple literal written one item per line took
# over a minute in the parent. Bundled solutions come to at most 460; 20,000 is a few hundredths of
# a second.
MAX_STATEMENT_COST = 20_000
# Every radon pass also grows with the number of tokens: 200 kB of `a;a;a...` (198,000 tokens on one
# line) took 5 s of the parent's CPU per request (the server's other requests waited on it). The
# largest bundled solution has 8,412 tokens; 30,000 take well under a second.
MAX_TOKENS = 30_000
# radon splits a source into lines with str.splitlines, which also breaks at these characters
# (Python's tokenizer does not: inside a string literal they are text). Each then opens a line
# with an unterminated string, which radon's raw metrics re-tokenize line by line: 6,000 of them in
# one literal took 2.5 minutes of the parent's CPU, growing with their square, after the job's own
# time limit (and radon misread the source as not parsing).
OTHER_LINE_BREAKS = frozenset("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _statement_cost(source: str) -> int:
    """The sum over the logical lines of ``source`` of the square of the physical lines each spans
    (one pass of the tokenizer); past ``MAX_TOKENS`` tokens, more than ``MAX_STATEMENT_COST``."""
    cost, start = 0, None
    for count, token in enumerate(tokenize.generate_tokens(io.StringIO(source).readline)):
        if count > MAX_TOKENS:
            return MAX_STATEMENT_COST + 1
        if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if start is None:
            start = token.start[0]
        if token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            cost += (token.end[0] - start + 1) ** 2
            start = None
    return cost


def code_quality(source: str) -> dict[str, Any]:
    """``{"loc", "sloc", "functions", "cyclomatic_max", "cyclomatic_mean", "maintainability_index"}``
    for ``source``, or ``{"unavailable": why}`` when it cannot be analysed."""
    try:
        from radon.complexity import cc_visit
        from radon.metrics import mi_visit
        from radon.raw import analyze
        from radon.visitors import Function
    except ImportError:
        return {"unavailable": "radon is not installed (pip install radon)"}
    if len(source) > MAX_SOURCE_CHARS:
        return {"unavailable": f"source longer than {MAX_SOURCE_CHARS} characters"}
    if not OTHER_LINE_BREAKS.isdisjoint(source):
        return {"unavailable": "the source holds line breaks other than \\n and \\r (form feed, \\x1c-\\x1e, "
                               "\\u2028, ...), at which radon splits lines where Python does not"}
    try:
        # Python's own parser first: radon's tokenizer takes time growing with the square of a broken
        # source's length (a 20 kB one took two minutes), and a source that does not parse has no metrics
        ast.parse(source)
        if _statement_cost(source) > MAX_STATEMENT_COST:
            return {"unavailable": f"over {MAX_TOKENS} tokens or statements spanning too many lines (radon is slow "
                                   "on them)"}
        raw = analyze(source)
        functions = [b.complexity for b in cc_visit(source) if isinstance(b, Function)]
        maintainability = mi_visit(source, multi=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, tokenize.TokenError) as exc:
        return {"unavailable": f"source does not parse ({type(exc).__name__})"}
    return {"loc": raw.loc, "sloc": raw.sloc, "functions": len(functions),
            "cyclomatic_max": max(functions, default=0),
            "cyclomatic_mean": round(statistics.fmean(functions), 2) if functions else 0.0,
            "maintainability_index": round(maintainability, 1)}


def run_quality(signals: list[dict[str, Any]]) -> dict[str, Any]:
    """Aggregates over the jobs' signals (those without any are counted out, and the count says so)."""
    measured = [s for s in signals if "maintainability_index" in s]

    def mean(key: str) -> float | None:
        return round(statistics.fmean(s[key] for s in measured), 2) if measured else None
    return {"quality_jobs": len(measured),
            "mean_maintainability_index": mean("maintainability_index"),
            "mean_cyclomatic_max": mean("cyclomatic_max"),
            "median_sloc": statistics.median(s["sloc"] for s in measured) if measured else None}
