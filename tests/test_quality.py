"""Code-quality signals (radon) are computed from a submission's text, never by running it, and a
source that cannot be analysed says why instead of failing the run."""

from __future__ import annotations

from conftest import ROOT
from harness.report.quality import MAX_SOURCE_CHARS, code_quality, run_quality

SOURCE = '''import triton


@triton.jit
def _kernel(x_ptr, n, BLOCK: "tl.constexpr"):
    pass


def wrapper(x, flag=False):
    # two branches and a loop: cyclomatic complexity 4
    if flag:
        return x
    for _ in range(2):
        if x is None:
            return None
    return x
'''


def test_signals_of_a_small_submission():
    q = code_quality(SOURCE)
    assert q["functions"] == 2 and q["cyclomatic_max"] == 4 and q["cyclomatic_mean"] == 2.5
    assert q["loc"] == SOURCE.count("\n") and q["sloc"] == 11  # the comment is not code
    assert 0 < q["maintainability_index"] <= 100


def test_analysis_never_runs_the_code(tmp_path):
    marker = tmp_path / "ran"
    q = code_quality(f"open({str(marker)!r}, 'w').write('x')\n")
    assert not marker.exists() and q["functions"] == 0 and q["loc"] == 1


def test_unanalysable_sources_say_why():
    assert "does not parse" in code_quality("def broken(:\n")["unavailable"]
    assert "does not parse" in code_quality("x = (" + "1+" * 30_000 + "1)\n")["unavailable"]  # too deep
    assert "does not parse" in code_quality("x = " + "(" * 1000 + "1" + ")" * 1000 + "\n")["unavailable"]
    assert "longer than" in code_quality("#" * (MAX_SOURCE_CHARS + 1))["unavailable"]


def test_statements_spanning_many_lines_are_not_given_to_radon():
    """radon's raw metrics take time growing with the square of the lines a statement spans (a 13 kB
    literal one item per line: over a minute in the parent, outside every stage's time limit)."""
    import time
    literal = "TABLE = (\n" + "0,\n" * 1300 + ")\n"
    start = time.perf_counter()
    assert "too many lines" in code_quality(SOURCE + literal)["unavailable"]
    assert time.perf_counter() - start < 2.0
    assert "maintainability_index" in code_quality(SOURCE + "TABLE = (\n" + "0,\n" * 40 + ")\n")


def test_sources_of_too_many_tokens_are_not_given_to_radon():
    """Every radon pass grows with the tokens: 200 kB of one-letter statements joined by
    semicolons (one line) cost 5 s of the parent's CPU per request."""
    import time
    start = time.perf_counter()
    assert "tokens" in code_quality(";".join(["a"] * 31_000))["unavailable"]  # 62 kB, 62,000 tokens
    assert time.perf_counter() - start < 2.0
    largest = max((ROOT / "solutions").rglob("*.py"), key=lambda p: p.stat().st_size)
    assert "maintainability_index" in code_quality(largest.read_text())  # a real kernel is well under


def test_aggregates_count_only_analysed_jobs():
    agg = run_quality([code_quality(SOURCE), code_quality("def broken(:\n"), {}])
    assert agg["quality_jobs"] == 1 and agg["mean_cyclomatic_max"] == 4 and agg["median_sloc"] == 11
    assert run_quality([])["mean_maintainability_index"] is None


def test_line_breaks_radon_splits_at_and_python_does_not_are_not_given_to_radon():
    """A string literal of 6,000 `\\x1c` characters (valid Python: text inside the literal) made
    radon's raw metrics re-tokenize one growing line per character: 2.5 minutes of the parent's
    CPU for one 13 kB submission, after its job had ended."""
    import time
    start = time.perf_counter()
    for separator in "\x1c\x0c\u2028\x85":
        why = code_quality(f"_PAD = \"{('a' + separator) * 6000}\"\n" + SOURCE)["unavailable"]
        assert "line breaks other than" in why, why
    assert time.perf_counter() - start < 2.0
    assert "maintainability_index" in code_quality(SOURCE)
