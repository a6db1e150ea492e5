"""The prompt a model is given for a task: description, exact signature, the rules, the output format.

Our own template. It carries the two markers upstream JSONL lines are routed by
(``Functional Description:`` and ``Wrapper Entry Information:``), so a prediction that echoes its
prompt as ``instruction`` finds its task.
"""

from __future__ import annotations

from harness.run.submissions import DESCRIPTION_MARKER, ENTRY_MARKER
from harness.task import Task

RULES = """\
Rules:
- Do the computation in Triton kernels (`@triton.jit`) that your wrapper launches. The wrapper may
  only allocate outputs (torch.empty, empty_like, zeros, full), make views and reshapes, call
  .contiguous(), and cast or copy tensors; calling PyTorch operators that compute the result
  (arithmetic, torch.nn.functional, reductions, torch.where, ...) fails the task.
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


def build_prompt(task: Task) -> str:
    """The full prompt for ``task``."""
    return "\n\n".join([
        f"You are an expert GPU kernel engineer. Write a Triton implementation of `{task.entry}` "
        f"(KernelBench-X task {task.id}).",
        f"{DESCRIPTION_MARKER}\n{task.description}",
        f"{ENTRY_MARKER}\n{task.signature}\nInput dtypes exercised: {', '.join(task.dtypes)}.",
        RULES,
        OUTPUT_FORMAT.format(entry=task.entry),
    ]) + "\n"
