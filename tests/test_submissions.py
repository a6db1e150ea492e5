"""Parsing and routing of predictions (no code is executed here)."""

from __future__ import annotations

import json

from conftest import ROOT, needs_shared, SHARED, write_jsonl
from harness.run.submissions import SEPARATOR, extract_code, load_submissions, route_instruction

CODE = "import triton\n\ndef gelu(input, approximate='none'):\n    return input\n"


def test_fences_with_and_without_language_tag():
    assert extract_code(f"Here it is:\n```python\n{CODE}```\nHope it helps") == CODE
    assert extract_code(f"```\n{CODE}```") == CODE
    assert extract_code(CODE) == CODE


def test_fenced_block_with_the_code_is_chosen_over_prose_blocks():
    text = f"Run:\n```bash\npip install triton\n```\nCode:\n```py\n{CODE}```<|im_end|>"
    assert extract_code(text) == CODE


def test_separator_and_end_tokens():
    text = CODE + SEPARATOR + "\nimport torch\ntest_gelu()\n"
    assert extract_code(text) == CODE
    assert extract_code(CODE + "<|endoftext|>") == CODE


def test_unterminated_fence_from_a_truncated_generation():
    assert extract_code(f"```python\n{CODE}") == CODE
    assert extract_code(f"Here is the kernel:\n\n```python\n{CODE}") == CODE  # after prose too


def test_fences_as_commonmark_writes_them():
    """A fence inside a list item (its body indented as the fence is), tildes, a longer backtick
    fence (which a shorter line of backticks inside does not close): each holds the code."""
    indented = "".join(f"   {line}\n" if line else "\n" for line in CODE.split("\n")[:-1])
    assert extract_code(f"Steps:\n\n1. The kernel:\n   ```python\n{indented}   ```\n2. Done.") == CODE
    assert extract_code(f"Code:\n~~~python\n{CODE}~~~\n") == CODE
    nested = CODE + "EXAMPLE = '''\n```\n'''\n"  # a line of three backticks inside a string
    assert extract_code(f"Code:\n````python\n{nested}````\nThat is all.") == nested


def test_jsonl_routes_by_file_stem_and_instruction(tmp_path):
    instruction = "Functional Description: apply GELU.\nWrapper Entry Information: gelu(input, approximate='none') -> Tensor"
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"file": "Activation/gelu.py", "predict": CODE},
        {"file": "gelu", "predict": CODE},
        {"instruction": instruction, "predict": CODE},
        {"file": "gelu", "predict": CODE, "sample_id": 7},
    ])
    jobs = load_submissions(path)
    assert [j.task_id for j in jobs] == ["Activation/gelu.py"] * 4
    assert [j.sample_id for j in jobs] == [0, 1, 2, 7]
    assert all(j.error is None for j in jobs)


def test_instruction_without_markers_is_not_routed():
    assert route_instruction("write a gelu kernel") is None


@needs_shared
def test_upstream_example_routes_and_parses():
    jobs = load_submissions(SHARED / "upstream" / "examples" / "predictions.gelu.jsonl")
    assert len(jobs) == 1 and jobs[0].task_id == "Activation/gelu.py" and jobs[0].error is None


def test_bad_lines_become_failed_jobs_with_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([
        "[1, 2]",
        json.dumps({"file": "nope", "predict": CODE}),
        json.dumps({"file": "gelu", "predict": "def gelu(:\n"}),
        json.dumps({"file": "gelu", "predict": "   "}),
    ]) + "\n")
    jobs = load_submissions(path)
    reasons = [j.error for j in jobs]
    assert all(r and r.startswith(f"{path}:{i}") for i, r in enumerate(reasons, 1)), reasons
    assert "JSON object" in reasons[0] and "unknown task" in reasons[1]
    assert "syntax error at line 1" in reasons[2] and "empty code" in reasons[3]


def test_py_files_and_directories(tmp_path):
    (tmp_path / "Activation").mkdir()
    (tmp_path / "Activation" / "gelu.py").write_text(CODE)
    (tmp_path / "relu_try.py").write_text(CODE)
    jobs = load_submissions(tmp_path)
    assert [j.task_id for j in jobs] == ["Activation/gelu.py", None]
    assert "unknown task 'relu_try'" in jobs[1].error


def test_several_sources_give_one_job_list_with_unique_ids(tmp_path):
    (tmp_path / "Activation").mkdir()
    (tmp_path / "Activation" / "gelu.py").write_text(CODE)
    preds = write_jsonl(tmp_path / "p.jsonl", [{"file": "gelu", "predict": CODE}] * 2)
    jobs = load_submissions([tmp_path / "Activation", preds, str(tmp_path / "Activation" / "gelu.py")])
    assert [j.task_id for j in jobs] == ["Activation/gelu.py"] * 4
    assert len({j.key for j in jobs}) == 4  # sample ids continue across the sources


def test_code_that_already_parses_is_kept_whole_and_fences_are_found_in_linear_time():
    """A plain program whose docstring shows a fenced example, or whose strings hold an end token,
    is kept as it is; fence lines are found in one pass (a quadratic pattern took seconds on a few
    tens of kB of fence lines, holding the server's lock)."""
    import time
    from harness.run.submissions import fenced_blocks
    plain = 'def f():\n    """Example:\n    ```\n    f()\n    ```\n    """\n    return "</s>"\n'
    assert extract_code(plain) == plain
    assert fenced_blocks("a\n```py\nx = 1\n```\nb\n  ```\ny\n  ```") == ["x = 1\n", "y\n"]
    start = time.perf_counter()
    extract_code("```a\n" * 50_000)
    assert time.perf_counter() - start < 2.0
    # a fence of blank lines: a pattern whose leading whitespace crossed lines rescanned the block
    # from every line (9 s for 40,000 lines, holding the GIL)
    start = time.perf_counter()
    extract_code("```python\n" + "\n" * 200_000 + "```\n")
    assert time.perf_counter() - start < 2.0


def test_code_the_parser_would_take_long_over_is_refused_unparsed(tmp_path):
    """CPython's parse of an f-string with many replacement fields takes time growing with the
    square of its length, holding the parent's GIL (1 MB froze a server for over a minute and
    turned other clients' jobs into timeouts): code over MAX_CODE_CHARS is the job's error, never
    parsed; so is a whole prediction that long taken for code. Trailing end tokens are stripped in
    linear time (a copy per token was quadratic in their count)."""
    import time
    from harness.run.submissions import MAX_CODE_CHARS
    bomb = "x = f'" + "{a}" * 150_000 + "'\ndef relu(input, inplace=False):\n    return input\n"
    honest = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    path = write_jsonl(tmp_path / "p.jsonl", [{"file": "Activation/relu.py", "predict": bomb},
                                               {"file": "Activation/relu.py", "predict": "```python\n" + bomb + "```\n"},
                                               {"file": "Activation/relu.py", "predict": honest + "<|im_end|>"}])
    start = time.perf_counter()
    jobs = load_submissions(path)
    assert time.perf_counter() - start < 2.0
    assert all(f"more than the {MAX_CODE_CHARS}" in (j.error or "") for j in jobs[:2]), [j.error for j in jobs]
    assert jobs[2].error is None and jobs[2].code == honest
    start = time.perf_counter()
    assert extract_code(honest + "</s>\n" * 250_000) == honest
    assert time.perf_counter() - start < 2.0


def test_a_repeated_prediction_gets_its_own_sample_id_and_lone_surrogates_are_escaped(tmp_path):
    """Two lines with the same task, sample_id and code would share a job key (and overwrite each
    other's record): the repeat is renumbered. Lone surrogates (valid in JSON) become escapes."""
    code = "def relu(input, inplace=False):\n    return input  # \ud800\n"
    rows = [{"file": "Activation/relu.py", "predict": code, "sample_id": 3}] * 2
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    jobs = load_submissions(path)
    assert [j.sample_id for j in jobs] == [3, 4] and len({j.key for j in jobs}) == 2
    assert "\\ud800" in jobs[0].code and jobs[0].error is None


def test_a_file_name_that_is_not_utf8_is_escaped_in_the_job(tmp_path):
    """A prediction file whose name is not UTF-8 (its undecodable bytes become lone surrogates in
    Python) names its job with escapes, so the reports that print it can be written."""
    folder = tmp_path / "Activation"
    folder.mkdir()
    name = b"relu\xff.py"
    with open(bytes(folder) + b"/" + name, "w") as f:
        f.write("def relu(input, inplace=False):\n    return input\n")
    (job,) = load_submissions(folder)
    job.source.encode("utf-8")  # strict: raises on a lone surrogate
    assert "\\udcff" in job.source



def test_jsonl_lines_end_at_newlines_only_and_a_byte_order_mark_is_no_part_of_them(tmp_path):
    """json.dumps(..., ensure_ascii=False) writes U+2028, U+0085 and the like raw inside strings;
    str.splitlines() broke lines there (four error jobs and a good one numbered :5 from three
    lines). A UTF-8 byte-order mark made the first line an error."""
    rows = [{"file": "Activation/gelu.py", "predict": CODE + f"# note{sep}more\n"} for sep in ("\u2028", "\x85", "\x0c")]
    path = tmp_path / "preds.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode() + b"\r\n")
    jobs = load_submissions(path)
    assert [job.error for job in jobs] == [None, None, None], [job.error for job in jobs]
    assert [job.source for job in jobs] == [f"{path}:{n}" for n in (1, 2, 3)]


def test_a_fifo_among_the_predictions_is_an_error_job_not_a_hang(tmp_path):
    import os
    (tmp_path / "Activation").mkdir()
    (tmp_path / "Activation" / "gelu.py").write_text(CODE)
    os.mkfifo(tmp_path / "b.jsonl")
    jobs = load_submissions(tmp_path)
    errors = sorted(job.error or "" for job in jobs)
    assert len(jobs) == 2 and errors[0] == "" and "not a regular file" in errors[1] and "b.jsonl" in errors[1], errors


def test_a_link_to_nothing_is_named_as_such(tmp_path):
    (tmp_path / "gelu.py").symlink_to(tmp_path / "gone.py")
    [job] = load_submissions(tmp_path)
    assert "a link to nothing" in job.error and "FIFO" not in job.error, job.error


def test_predictions_given_one_sample_id_each_get_their_own(tmp_path):
    """Two different predictions for one task under the same sample_id: the second gets the next
    free id (reports showed two rows of one id, and comparing runs paired the wrong jobs)."""
    rows = [{"file": "Activation/gelu.py", "predict": CODE, "sample_id": 4},
            {"file": "Activation/gelu.py", "predict": CODE + "# another\n", "sample_id": 4},
            {"file": "Activation/gelu.py", "predict": CODE, "sample_id": 5}]
    jobs = load_submissions(write_jsonl(tmp_path / "p.jsonl", rows))
    assert sorted(job.sample_id for job in jobs) == [4, 5, 6] and len({job.key for job in jobs}) == 3


def test_a_cut_off_example_after_the_answer_and_a_tilde_underline_in_plain_code_are_no_fences():
    """An unclosed fence after a closed one is an example the token limit cut off, not code; plain
    code ended by a chat token whose docstring underlines a heading with tildes is plain code."""
    answer = f"Here it is:\n\n```python\n{CODE}```\n\n### Example usage\n\n```python\ndef _demo():\n    x = relu(torch.randn(4"
    assert extract_code(answer) == CODE
    underlined = CODE.replace("    return input\n", '    """Notes\n    ~~~~~\n    None."""\n    return input\n')
    assert extract_code(underlined + "<|im_end|>") == underlined
    tabbed = "def gelu(input, approximate='none'):\n\treturn input\n"  # tabs of the code's own, fence indented
    assert extract_code("1. Code:\n    ```python\n" + tabbed + "    ```\n") == tabbed
