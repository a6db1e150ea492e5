"""The task model: load task files from ``harness/tasks/<Category>/<name>.py`` into :class:`Task` s.

Task files ship inside the ``harness`` package so that an installed copy works offline from any
directory. Each file is loaded by path under a private module name; nothing here switches on task
names, so adding a task means adding one file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable

import torch

from harness.shipped import tasks_dir
from harness.taskdef import Case, Cost, Inputs, Tolerance, elementwise_cost, tensor_leaves

CATEGORIES = (
    "Activation", "Convolution", "Fusion", "Index", "LinearAlgebra", "Loss", "Math",
    "MatrixMultiply", "Normalization", "Optimizer", "Pooling", "Quantization", "Random",
    "Reduce", "SpatialOps",
)

_REQUIRED = ("ENTRY", "SIGNATURE", "DESCRIPTION", "reference", "cases")


class TaskError(Exception):
    """A task file is malformed or a task id is unknown."""


@dataclass(frozen=True)
class Task:
    """One benchmark task, as declared by its task file."""

    category: str
    name: str
    path: Path
    module: ModuleType

    @property
    def id(self) -> str:
        """Upstream-compatible id, ``Category/name.py``."""
        return f"{self.category}/{self.name}.py"

    @property
    def entry(self) -> str:
        return self.module.ENTRY

    @property
    def signature(self) -> str:
        return self.module.SIGNATURE

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.module.DESCRIPTION)

    @property
    def dtypes(self) -> list[str]:
        return list(getattr(self.module, "DTYPES", ["float32"]))

    @property
    def difficulty(self) -> int | None:
        return getattr(self.module, "DIFFICULTY", None)

    @property
    def reference(self) -> Callable[..., Any]:
        return self.module.reference

    @property
    def tolerances(self) -> dict[torch.dtype, Tolerance]:
        return dict(getattr(self.module, "TOLERANCE", {}))

    @property
    def custom_check(self) -> Callable[[Case, Any, Any], str | None] | None:
        return getattr(self.module, "check", None)

    @property
    def data_movement(self) -> bool:
        """Whether copies alone could make the task's outputs (``DATA_MOVEMENT = True``: a
        rearrangement of its input, values that depend on no input tensor): a wrapper's copies and
        joins would do the work themselves, so they are held to copying arguments as given
        (sandbox/integrity.py ``TorchOpMonitor.rearranges``)."""
        return bool(getattr(self.module, "DATA_MOVEMENT", False))

    @property
    def check_note(self) -> str | None:
        """What a custom checker checks instead of plain comparison, and why."""
        return getattr(self.module, "CHECK_NOTE", None)

    @cached_property
    def source_hash(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]

    @cached_property
    def perf_source_hash(self) -> str:
        """A hash of what a perf timing depends on in the task file: the source of ``perf_cases`` and
        ``reference`` and of every module-level function, class or value they use (transitively).
        Golden results stay valid when the rest changes (correctness cases, checks, cost model,
        description)."""
        return hashlib.sha256(_source_closure(self.module, ("perf_cases", "reference")).encode()).hexdigest()[:16]

    def case_seed(self, seed: int, kind: str) -> int:
        """A per-task seed derived from the run's seed, so tasks do not depend on run order."""
        digest = hashlib.sha256(f"{seed}:{self.id}:{kind}".encode()).digest()
        return int.from_bytes(digest[:8], "little") & 0x7FFF_FFFF_FFFF_FFFF

    def correctness_cases(self, seed: int, device: str | torch.device = "cpu", config: int = 0) -> list[Case]:
        """The correctness cases for ``seed`` on ``device`` (deterministic). ``config``: the pass of
        exe they are for (one per autotune config, see sandbox/autotune.py); each pass draws values
        of its own for the same cases, so no pass can be answered from what an earlier one returned
        (tests/adversarial/autotune_config_answered_from_cache.py)."""
        return list(self.module.cases(Inputs(self.case_seed(seed, "exe" if config == 0 else f"exe:{config}"), device)))

    def perf_cases(self, seed: int, device: str | torch.device = "cpu", input_set: int = 0) -> list[Case]:
        """The timing cases for ``seed`` on ``device`` (deterministic); empty if the task has none.
        ``input_set`` draws another set of values for the same shapes (timing rotates among sets)."""
        fn = getattr(self.module, "perf_cases", None)
        if fn is None:
            return []
        on_gpu = torch.device(device).type == "cuda"
        return list(fn(Inputs(self.case_seed(seed, f"perf:{input_set}"), device, draw_on_device=on_gpu)))

    @cached_property
    def perf_input_bytes(self) -> int | None:
        """Bytes of the buffers of one set of perf inputs, from the perf cases drawn on the ``meta``
        device (shapes, no data); ``None`` when they cannot be drawn without data."""
        try:
            cases = self.perf_cases(0, "meta")
        except Exception:  # noqa: BLE001 - e.g. a case built from values (a copy out of real data)
            return None
        # views of one buffer count once per view: an estimate that errs on the large side
        return sum(t.untyped_storage().nbytes() for case in cases
                   for t in tensor_leaves(list(case.args) + list(case.kwargs.values())))

    def cost(self, case: Case, output: Any) -> Cost:
        """FLOPs and bytes of one case (task's own model, or the elementwise default)."""
        fn = getattr(self.module, "cost", None)
        if fn is None:
            fn = elementwise_cost(getattr(self.module, "FLOPS_PER_ELEMENT", 1))
        return fn(case, output)


def _names_used(code: Any) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _names_used(const)
    return names


def _source_closure(module: ModuleType, roots: tuple[str, ...]) -> str:
    """The source of ``roots`` in ``module`` and of the module-level names they reach, in a fixed order."""
    parts: dict[str, str] = {}
    todo = [name for name in roots if hasattr(module, name)]
    while todo:
        name = todo.pop()
        if name in parts:
            continue
        value = getattr(module, name)
        if getattr(value, "__module__", None) == module.__name__ and (inspect.isfunction(value) or inspect.isclass(value)):
            parts[name] = inspect.getsource(value)
            code = getattr(value, "__code__", None)
            used = _names_used(code) if code else {n for f in vars(value).values() if inspect.isfunction(f)
                                                   for n in _names_used(f.__code__)}
            todo += [n for n in used if n in vars(module)]
        elif not inspect.ismodule(value) and not callable(value):
            parts[name] = repr(value)[:10_000]
    return "\n".join(f"{name}:\n{parts[name]}" for name in sorted(parts))


def _load_module(path: Path) -> ModuleType:
    name = f"_kbx_task_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TaskError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    missing = [attr for attr in _REQUIRED if not hasattr(module, attr)]
    if missing:
        raise TaskError(f"{path}: task file lacks {', '.join(missing)}")
    return module


@lru_cache(maxsize=None)
def all_tasks() -> dict[str, Task]:
    """Every packaged task, keyed by id (``Category/name.py``), in category/name order."""
    tasks: dict[str, Task] = {}
    for path in sorted(tasks_dir().glob("*/*.py")):
        if path.stem.startswith("_"):
            continue
        category = path.parent.name
        if category not in CATEGORIES:
            raise TaskError(f"{path}: unknown category folder {category!r}")
        task = Task(category=category, name=path.stem, path=path, module=_load_module(path))
        tasks[task.id] = task
    return tasks


def get_task(key: str) -> Task:
    """Find a task by id (``Activation/gelu.py``), ``Activation/gelu`` or bare name (``gelu``)."""
    tasks = all_tasks()
    key = key.strip().removeprefix("./")
    if key in tasks:
        return tasks[key]
    if not key.endswith(".py") and f"{key}.py" in tasks:
        return tasks[f"{key}.py"]
    stem = Path(key).stem
    matches = [t for t in tasks.values() if t.name == stem]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise TaskError(f"unknown task {key!r} (see `kernelbenchx tasks` for the list)")
    raise TaskError(f"ambiguous task {key!r}: {', '.join(t.id for t in matches)}")


def select_tasks(patterns: Iterable[str] | None = None, category: str | None = None) -> list[Task]:
    """Tasks whose id contains any of ``patterns`` (all when empty), optionally within a category."""
    pats = [p.lower() for p in (patterns or [])]
    out = []
    for task in all_tasks().values():
        if category and task.category.lower() != category.lower():
            continue
        if pats and not any(p in task.id.lower() for p in pats):
            continue
        out.append(task)
    return out
