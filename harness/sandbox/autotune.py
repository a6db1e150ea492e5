"""Checking a kernel under every ``@triton.autotune`` config it offers.

The autotuner on another GPU may pick another config than ours, and real kernels exist that are
right for one block size only, so exe runs the submission once per config index: in run ``i``
every autotuner of the submission is pinned to its config ``min(i, n - 1)`` (:class:`AutotunePins`:
those found after the import from the pass's start, one built while a call runs at its first
launch). Pinning leaves a
single candidate, which also makes multi-config autotune work in Triton's interpreter (where it
cannot benchmark). An autotuner that prunes its configs per call (``early_config_prune``,
``perf_model``) keeps them all: its pruner decides which a call may use, as it would anywhere, and
its benchmark, never run, finds the pinned config fastest (the first that survives otherwise): a
tile the submission's own pruner excludes for a shape is not run on it. Configs are told apart by
their settings, not identity (a pruner that returned copies had every pin run its first config:
tests/adversarial/relu_pruned_copies_hide_config.py), and a pruner may return only configs it was
given.
"""

from __future__ import annotations

import functools
import math
import types
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Iterator


def _autotuner_class() -> type | None:
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:  # pragma: no cover
        return None
    return Autotuner


# The walk's bounds (about a microsecond an object): a module's own objects are far fewer; one that
# hides an autotuner behind more objects than this loses its pins (the README's threat model says so)
_WALK_OBJECTS = 200_000
_WALK_DEPTH = 8
_CONTAINERS = (list, tuple, set, frozenset)
_LEAVES = (int, float, complex, bool, str, bytes, bytearray, type(None))  # hold nothing: not counted


def find_autotuners(module: ModuleType) -> list[Any]:
    """Autotuners reachable from the module's globals: directly, under ``@triton.heuristics`` and
    other wrappers (``.fn`` chains), and kept anywhere in the module's own objects (lists, tuples,
    sets and dicts, classes and instances of the module's classes, functions' defaults and closures,
    ``functools.partial``), in a bounded walk. One built only while a call runs (a factory filling
    a cache on first use) is not reachable yet: :class:`AutotunePins` pins it at its first launch."""
    cls = _autotuner_class()
    if cls is None:
        return []
    found: dict[int, Any] = {}
    seen: set[int] = set()
    frontier = list(vars(module).values())
    for _ in range(_WALK_DEPTH):
        following: list[Any] = []
        for value in frontier:
            if type(value) in _LEAVES or id(value) in seen:
                continue
            if len(seen) >= _WALK_OBJECTS:
                break
            seen.add(id(value))
            try:
                if isinstance(value, cls):
                    found[id(value)] = value
                following.extend(_held_by(value, module.__name__)[:_WALK_OBJECTS - len(following)])
            except Exception:  # noqa: BLE001 - an object of the submission's that fails to be read holds nothing found
                continue
        frontier = following
    return list(found.values())


def _held_by(value: Any, module_name: str) -> list[Any]:
    """What ``value`` holds that may lead to an autotuner: a container's items, a wrapper's ``.fn``,
    and, for the module's own functions, classes and their instances, their defaults, closures and
    attributes (nothing of a library's is walked)."""
    kind = type(value)
    if kind in _CONTAINERS:
        return list(value)
    if kind is dict:
        return list(value.values())
    if kind is functools.partial:
        return [value.func, *value.args, *value.keywords.values()]
    if kind is types.FunctionType:
        if value.__module__ != module_name:
            return []
        cells = [_cell_contents(c) for c in value.__closure__ or ()]
        return [*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values(), *cells]
    if kind in (staticmethod, classmethod):
        return [value.__func__]
    if isinstance(value, type):
        return list(vars(value).values()) if value.__module__ == module_name else []
    held = []
    inner = getattr(value, "fn", None) if _is_triton_wrapper(value) else None
    if inner is not None:
        held.append(inner)
    if getattr(kind, "__module__", None) == module_name:
        try:
            held.extend(vars(value).values())
        except TypeError:  # no __dict__ (slots)
            pass
    return held


def _is_triton_wrapper(value: Any) -> bool:
    """An object of Triton's that wraps a kernel under ``.fn`` (Autotuner, Heuristics, JITFunction)."""
    return type(value).__module__.startswith("triton.")


def _cell_contents(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def describe_config(config: Any) -> str:
    """A short human-readable config, e.g. ``BLOCK=128, num_warps=4``."""
    kw = ", ".join(f"{k}={v}" for k, v in getattr(config, "kwargs", {}).items())
    extra = ", ".join(f"{k}={getattr(config, k)}" for k in ("num_warps", "num_stages") if hasattr(config, k))
    return ", ".join(x for x in (kw, extra) if x)


class AutotunePins:
    """Every autotuner of the submission pinned, pass by pass, to its config ``min(index, n - 1)``:
    those :func:`find_autotuners` found after the import from the start of a pass, and any other the
    moment it is first launched in a pass (a factory's, built while a call runs, whether kept or
    built afresh for each call), from the launch counter's stand-in for ``Autotuner.run``
    (integrity.LaunchCounter). Outside a pass (perf) every autotuner tunes as it would anywhere."""

    def __init__(self) -> None:
        # id -> (autotuner, its configs when first seen): the autotuner is kept alive so that an id
        # stays its own, and the configs are copied, since Triton holds the submission's own list,
        # which a call could empty of a bad config (corpus autotune_bad_config_dropped_in_call)
        self._known: dict[int, tuple[Any, list[Any]]] = {}
        self._index: int | None = None
        self._pinned: dict[int, str] = {}  # this pass's pins: id -> "kernel[config]"
        self._saved: list[tuple] = []

    def add(self, autotuners: list[Any]) -> None:
        """Autotuners to pin from the start of every later pass."""
        for a in autotuners:
            if id(a) not in self._known:
                self._known[id(a)] = (a, list(a.configs))

    def config_count(self) -> int:
        """How many passes cover every config of every autotuner known so far (at least 1)."""
        return max([len(configs) for _, configs in self._known.values()] or [1])

    @contextmanager
    def pinned(self, index: int) -> Iterator["AutotunePins"]:
        """Pass ``index``: every known autotuner pinned now, any other as it is first launched;
        all restored (configs, caches) when the pass ends."""
        self._index, self._pinned, self._saved = index, {}, []
        try:
            for a, _ in list(self._known.values()):
                self._pin(a)
            yield self
        finally:
            self._index, self._pinned = None, {}
            for a, configs, cache, cache_results in reversed(self._saved):
                a.configs = configs
                vars(a).pop("_bench", None)
                if cache_results is not None:
                    a.cache_results = cache_results
                a.cache.clear()
                a.cache.update(cache)
            self._saved = []

    def launched(self, autotuner: Any) -> None:
        """Called before an autotuner runs a launch: during a pass, one not pinned yet is pinned
        (and known from then on, so every later pass pins it from its start)."""
        if self._index is not None and id(autotuner) not in self._pinned and _plain_autotuner(autotuner):
            self.add([autotuner])
            self._pin(autotuner)

    def describe(self) -> str:
        """This pass's pins, e.g. ``_gelu[BLOCK=256, num_warps=4]; _relu[BLOCK=1024]`` (each once:
        an autotuner built afresh for every call is pinned alike every time)."""
        return "; ".join(dict.fromkeys(self._pinned.values()))

    def _pin(self, a: Any) -> None:
        configs = self._known[id(a)][1]
        if not configs:
            return
        self._saved.append((a, a.configs, dict(a.cache), getattr(a, "cache_results", None)))
        config = configs[min(self._index, len(configs) - 1)]
        if len(configs) > 1 and any(getattr(a, hook, None) for hook in PRUNING_HOOKS):
            a.configs = list(configs)  # all of them for its pruner, as first seen
            a._bench = _favouring(config, configs)  # an instance attribute, before the class's method
            if getattr(a, "cache_results", False):
                a.cache_results = False  # a config cached on disk by an earlier pin is not this one
        else:
            a.configs = [config]
        a.cache.clear()
        self._pinned[id(a)] = f"{_kernel_name(a)}[{describe_config(config)}]"


PRUNING_HOOKS = ("early_config_prune", "perf_model")


def _plain_autotuner(a: Any) -> bool:
    """Triton's own Autotuner holding a list (or tuple) of Triton configs of plain settings: what can be
    pinned from inside a launch (the guard's hook) without running any code of the submission's
    (a subclass, a list-like ``configs`` or a config's own mapping would). Others tune as Triton
    would: only the config picked is checked."""
    cls = _autotuner_class()
    own = vars(a) if cls is not None and type(a) is cls else {}
    configs, cache = own.get("configs"), own.get("cache")
    return type(configs) in (list, tuple) and type(cache) is dict and all(_settings(c) is not None for c in configs)


class PrunedConfigRefused(PermissionError):
    """An autotuner's pruner returned a config the autotuner was not given (an integrity verdict)."""


def _settings(config: Any) -> tuple | None:
    """A config's settings (its kwargs, warps, stages, ...) as plain values, or None unless it is
    Triton's own Config holding plain values (read with the class's method: nothing of an instance's
    own runs)."""
    from triton import Config
    if type(config) is not Config or type(vars(config).get("kwargs")) is not dict:  # (a mapping's own code would run)
        return None
    values = Config.all_kwargs(config)
    if type(values) is not dict or any(type(k) is not str or type(v) not in _PLAIN for k, v in values.items()):
        return None
    return tuple(sorted(values.items()))


_PLAIN = (int, float, bool, str, type(None))


def _favouring(pinned: Any, given: list[Any]) -> Any:
    """An autotuner's benchmark of one config, run for none: the pinned config (by its settings)
    is fastest; a config with settings none of ``given`` has is refused."""
    want, allowed = _settings(pinned), {_settings(c) for c in given}

    def bench(*args: Any, config: Any, **kwargs: Any) -> list[float]:
        got = _settings(config)
        if got is None or got not in allowed:
            raise PrunedConfigRefused("tampering: the autotuner's pruner returned a config it was not given (prune "
                                      "by returning some of the configs it is handed)")
        return [0.0, 0.0, 0.0] if got == want else [math.inf, math.inf, math.inf]
    return bench


def _kernel_name(autotuner: Any) -> str:
    fn = autotuner
    for _ in range(8):
        fn = getattr(fn, "fn", None)
        name = getattr(fn, "__name__", None)
        if isinstance(name, str):
            return name
    return "kernel"
