"""The prompt a model is given for a task: description, exact signature, the rules, the output format.

Our own template. It carries the two markers upstream JSONL lines are routed by
(``Functional Description:`` and ``Wrapper Entry Information:``), so a prediction that echoes its
prompt as ``instruction`` finds its task.
"""

from __future__ import annotations

from harness.run.submissions import DESCRIPTION_MARKER, ENTRY_MARKER
from harness.task import Task
from harness.tiers import (EMPTY_OR_0D, EXTREME_MAGNITUDE, INPLACE_OUT, NAN_INF, NEGATIVE_DIM, NON_CONTIGUOUS,
                           OTHER_DTYPE, OTHER_KWARGS, TINY_VALUES, case_traits)

RULES = """\
Rules:
- Do the computation in Triton kernels (`@triton.jit`) that your wrapper launches. The wrapper may
  only allocate outputs (torch.empty, empty_like, zeros, full), make views and reshapes, call
  .contiguous(), and cast or copy tensors; calling PyTorch operators that compute the result
  (arithmetic, torch.nn.functional, reductions, torch.where, ...) fails the task, and so do casts
  from floating point to integers or bool, views as another dtype (a bool mask as uint8 or int8
  aside: reinterpret bits inside the kernel), and (on a GPU) copies between host and device:
  create small tensors on the inputs' device (`device=x.device`). Launch kernels directly (not
  inside a torch.library custom operator, whose body counts as PyTorch work).
- Return exactly what the PyTorch semantics return: same shapes, dtypes and devices; honour every
  argument, including in-place and `out=` behaviour. Inputs that the semantics do not modify must
  not be modified.
- Results are checked against PyTorch on fresh random inputs and edge cases (odd sizes,
  non-contiguous tensors, NaN/inf where the function defines them). For float16/bfloat16 inputs,
  load, compute in float32, and cast back when storing.
- `@triton.autotune` is allowed; every config you list is checked for correctness.
- The code runs sandboxed: no threads, subprocesses, ctypes, exec/eval of strings, frame inspection,
  or reading files outside its own directory."""

OUTPUT_FORMAT = """\
Answer with one fenced Python code block (```python ... ```) containing the complete module:
imports, the Triton kernel(s), and the wrapper `{entry}` defined at top level with the signature
above."""


# How each edge trait (harness/tiers.py) reads in the contract paragraph of a prompt.
TRAIT_WORDS = {NON_CONTIGUOUS: "non-contiguous tensors (strided, transposed or broadcast views)",
               EMPTY_OR_0D: "empty and 0-d tensors", NAN_INF: "NaN and infinite values",
               EXTREME_MAGNITUDE: "magnitudes beyond 1e6", TINY_VALUES: "many values below 1e-6 (precision near zero)",
               INPLACE_OUT: "in-place and `out=` calls", NEGATIVE_DIM: "negative dims",
               OTHER_DTYPE: "dtypes beyond the core ones", OTHER_KWARGS: "keyword arguments beyond the core ones"}


def contract(task: Task) -> str:
    """One paragraph: what the core cases are, and which edge cases the task's tests add (read from
    its correctness cases, so it always matches what is checked)."""
    traits = {t for case in task.correctness_cases(0) for t in case_traits(case, task.module)}
    edges = [words for trait, words in TRAIT_WORDS.items() if trait in traits]
    text = ("Tested contract: core cases are contiguous, non-empty tensors with finite values in "
            "ordinary ranges; they decide the core score.")
    if edges:
        text += (" Edge cases decide the strict score and include " + "; ".join(edges)
                 + ": handle them as PyTorch does (e.g. do not flatten a strided tensor with `.view`).")
    return text


def build_prompt(task: Task) -> str:
    """The full prompt for ``task``."""
    return "\n\n".join([
        f"You are an expert GPU kernel engineer. Write a Triton implementation of `{task.entry}` "
        f"(KernelBench-X task {task.id}).",
        f"{DESCRIPTION_MARKER}\n{task.description}",
        f"{ENTRY_MARKER}\n{task.signature}\nInput dtypes exercised: {', '.join(task.dtypes)}.",
        contract(task),
        RULES,
        OUTPUT_FORMAT.format(entry=task.entry),
    ]) + "\n"
