"""Was the work really done by Triton? Monitors installed in the worker around the submission.

- :class:`LaunchCounter` counts Triton kernel launches (native ``JITFunction.run``, the interpreter's
  ``InterpretedFunction.run``, and direct launches of a compiled kernel).
- :class:`TorchOpMonitor` records the ATen ops the submission's wrapper runs *outside* Triton
  launches. Anything beyond allocation, views, copies and casts is PyTorch doing the work.
- :func:`api_snapshot` / :func:`changed_apis` detect monkeypatching of torch, triton and harness.

These run in the submission's own process, so a determined attacker could undo them; they are one
layer. The verdict itself is decided in the parent, from outputs the submission cannot forge
without computing them, and the sandbox (see ``sandbox.py``) keeps the harness out of reach.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import torch
from torch.utils._python_dispatch import TorchDispatchMode

# ATen ops a wrapper may run: allocation, views/reshapes, copies and casts, scalar reads.
ALLOWED_WRAPPER_OPS = frozenset({
    # allocation and filling freshly allocated buffers
    "empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "zeros", "zeros_like",
    "new_zeros", "ones", "ones_like", "new_ones", "full", "full_like", "new_full", "scalar_tensor",
    "fill_", "zero_", "arange", "resize_", "set_", "lift_fresh", "lift_fresh_copy",
    # views and reshapes
    "view", "_unsafe_view", "reshape", "_reshape_alias", "as_strided", "expand", "expand_as",
    "permute", "transpose", "t", "squeeze", "unsqueeze", "flatten", "unflatten", "select", "slice",
    "narrow", "split", "split_with_sizes", "chunk", "unbind", "view_as", "movedim", "alias", "detach",
    "view_as_real", "view_as_complex", "real", "imag", "unfold", "diagonal",
    # copies and casts
    "copy_", "_to_copy", "to", "clone", "contiguous", "_copy_from", "_copy_from_and_resize",
    # reading a scalar back, metadata
    "_local_scalar_dense", "item", "is_nonzero", "sym_size", "sym_stride", "sym_numel", "sym_storage_offset",
    "promote_types", "result_type", "can_cast", "is_same_size", "size", "stride", "dim", "numel",
})


class LaunchCounter:
    """Counts Triton kernel launches; while a launch runs, ``in_launch`` is true."""

    def __init__(self) -> None:
        self.count = 0
        self._depth = threading.local()
        self._patched: list[tuple[type, str, Any]] = []
        self.track_streams = False   # perf: note the CUDA stream of every launch (see take_streams)
        self._streams: set = set()

    def _launched(self) -> None:
        if not self.in_launch:  # nested runs (an autotuner's inner JITFunction) count once
            self.count += 1
            if self.track_streams:
                import torch
                self._streams.add(torch.cuda.current_stream())

    def take_streams(self) -> list:
        """The CUDA streams kernels were launched on since the last call (Triton launches on the
        stream current at launch time, so a kernel moved to a side stream shows up here)."""
        streams, self._streams = list(self._streams), set()
        return streams

    @property
    def in_launch(self) -> bool:
        return getattr(self._depth, "n", 0) > 0

    @contextmanager
    def _launching(self) -> Iterator[None]:
        self._depth.n = getattr(self._depth, "n", 0) + 1
        try:
            yield
        finally:
            self._depth.n -= 1

    def _wrap_run(self, original):
        counter = self

        def run(self, *args, **kwargs):
            if kwargs.get("warmup", False):
                return original(self, *args, **kwargs)
            counter._launched()
            with counter._launching():
                return original(self, *args, **kwargs)
        run.__kbx_original__ = original
        return run

    def install(self) -> None:
        """Patch the launch paths of whichever Triton is installed (3.x native and interpreter)."""
        from triton.runtime import jit
        targets = [(jit.JITFunction, "run")]
        try:
            from triton.runtime import interpreter
            targets.append((interpreter.InterpretedFunction, "run"))
        except ImportError:  # pragma: no cover - very old Triton
            pass
        for cls, name in targets:
            original = cls.__dict__.get(name)
            if original is not None:
                self._patched.append((cls, name, original))
                setattr(cls, name, self._wrap_run(original))
        self._patch_compiled_kernel()

    def _patch_compiled_kernel(self) -> None:
        try:
            from triton.compiler.compiler import CompiledKernel
        except ImportError:  # pragma: no cover
            return
        original = CompiledKernel.__dict__.get("__getitem__")
        if original is None:
            return
        counter = self

        def getitem(self, grid):
            launcher = original(self, grid)

            def launch(*args, **kwargs):
                counter._launched()
                with counter._launching():
                    return launcher(*args, **kwargs)
            return launch
        self._patched.append((CompiledKernel, "__getitem__", original))
        CompiledKernel.__getitem__ = getitem

    def intact(self) -> bool:
        """True when our patches are still the ones in place."""
        return all(getattr(cls.__dict__.get(name), "__kbx_original__", None) is orig
                   for cls, name, orig in self._patched if name == "run")


class TorchOpMonitor(TorchDispatchMode):
    """Records ATen ops run outside Triton launches that are not allocation/view/copy/cast."""

    def __init__(self, launches: LaunchCounter, forbid_host_transfer: bool) -> None:
        super().__init__()
        self.launches = launches
        self.forbid_host_transfer = forbid_host_transfer
        self.forbidden: list[str] = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if not self.launches.in_launch:
            name = func.overloadpacket.__name__
            if name not in ALLOWED_WRAPPER_OPS:
                self.forbidden.append(name)
            elif self.forbid_host_transfer and name in ("_to_copy", "copy_", "_copy_from") and _crosses_devices(func, args, kwargs):
                self.forbidden.append(f"{name}(host<->device)")
        return func(*args, **kwargs)


def _crosses_devices(func, args, kwargs) -> bool:
    devices = {a.device.type for a in args if isinstance(a, torch.Tensor)}
    target = kwargs.get("device")
    if target is not None:
        devices.add(torch.device(target).type)
    return len(devices) > 1


# -- monkeypatch detection ----------------------------------------------------------------

def _watched_namespaces() -> dict[str, Any]:
    import torch.nn.functional as F
    import triton
    import triton.language as tl
    spaces = {"torch": torch, "torch.nn.functional": F, "torch.Tensor": torch.Tensor,
              "torch.special": torch.special, "torch.linalg": torch.linalg, "torch.fft": torch.fft,
              "torch.testing": torch.testing, "torch.cuda": torch.cuda, "triton": triton,
              "triton.language": tl, "triton.testing": sys.modules.get("triton.testing")}
    from triton.runtime import jit
    spaces["triton.runtime.jit.JITFunction"] = jit.JITFunction
    for name, module in list(sys.modules.items()):
        if name == "harness" or name.startswith("harness."):
            spaces[name] = module
    return {k: v for k, v in spaces.items() if v is not None}


def api_snapshot() -> dict[str, int]:
    """Identity of every public attribute of the watched namespaces."""
    snap: dict[str, int] = {}
    for space_name, space in _watched_namespaces().items():
        attrs = vars(space) if isinstance(space, type) else getattr(space, "__dict__", {})
        for attr, value in list(attrs.items()):
            if attr.startswith("_"):  # private state (e.g. torch.cuda._initialized) changes legitimately
                continue
            snap[f"{space_name}.{attr}"] = id(value)
    return snap


def changed_apis(before: dict[str, int]) -> list[str]:
    """Names whose binding changed (or vanished) since ``before``; new names are not reported
    (importing a submodule legitimately adds attributes)."""
    after = api_snapshot()
    return sorted(name for name, ident in before.items() if after.get(name) != ident)
