"""Checking a kernel under every ``@triton.autotune`` config it offers.

The autotuner on another GPU may pick another config than ours, and real kernels exist that are
right for one block size only, so exe runs the submission once per config index: in run ``i``
every autotuner of the submission is pinned to its config ``min(i, n - 1)``. Pinning leaves a
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

import math
from contextlib import contextmanager
from types import ModuleType
from typing import Any, Iterator


def _autotuner_class() -> type | None:
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:  # pragma: no cover
        return None
    return Autotuner


def find_autotuners(module: ModuleType) -> list[Any]:
    """Autotuners reachable from the module's globals (also under @triton.heuristics wrappers)."""
    cls = _autotuner_class()
    if cls is None:
        return []
    found: dict[int, Any] = {}
    for value in list(vars(module).values()):
        seen = 0
        while value is not None and seen < 8:  # walk .fn chains: Heuristics -> Autotuner -> JITFunction
            if isinstance(value, cls):
                found[id(value)] = value
            value = getattr(value, "fn", None)
            seen += 1
    return list(found.values())


def config_count(autotuners: list[Any]) -> int:
    """How many runs cover every config of every autotuner (at least 1)."""
    return max([len(a.configs) for a in autotuners] or [1])


def describe_config(config: Any) -> str:
    """A short human-readable config, e.g. ``BLOCK=128, num_warps=4``."""
    kw = ", ".join(f"{k}={v}" for k, v in getattr(config, "kwargs", {}).items())
    extra = ", ".join(f"{k}={getattr(config, k)}" for k in ("num_warps", "num_stages") if hasattr(config, k))
    return ", ".join(x for x in (kw, extra) if x)


@contextmanager
def pinned_configs(autotuners: list[Any], index: int) -> Iterator[str]:
    """Pin every autotuner to its config ``min(index, n-1)``; yields a description of the pins."""
    saved = [(a, a.configs, dict(a.cache), getattr(a, "cache_results", None)) for a in autotuners]
    names = []
    try:
        for a in autotuners:
            config = a.configs[min(index, len(a.configs) - 1)]
            if len(a.configs) > 1 and any(getattr(a, hook, None) for hook in PRUNING_HOOKS):
                a._bench = _favouring(config, a.configs)  # an instance attribute, before the class's method
                if getattr(a, "cache_results", False):
                    a.cache_results = False  # a config cached on disk by an earlier pin is not this one
            else:
                a.configs = [config]
            a.cache.clear()
            names.append(f"{_kernel_name(a)}[{describe_config(config)}]")
        yield "; ".join(names)
    finally:
        for a, configs, cache, cache_results in saved:
            a.configs = configs
            vars(a).pop("_bench", None)
            if cache_results is not None:
                a.cache_results = cache_results
            a.cache.clear()
            a.cache.update(cache)


PRUNING_HOOKS = ("early_config_prune", "perf_model")


class PrunedConfigRefused(PermissionError):
    """An autotuner's pruner returned a config the autotuner was not given (an integrity verdict)."""


def _settings(config: Any) -> tuple | None:
    """A config's settings (its kwargs, warps, stages, ...) as plain values, or None unless it is
    Triton's own Config holding plain values (read with the class's method: nothing of an instance's
    own runs)."""
    from triton import Config
    if type(config) is not Config:
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
