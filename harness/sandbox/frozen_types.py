"""Classes whose attributes the submission cannot rebind, even for a moment.

Assigning to a class attribute raises no audit event (only a function's ``__code__`` and defaults
do), so the guard never sees ``TorchOpMonitor.__torch_dispatch__ = f``; the module snapshot
(integrity.ModuleSnapshot) compares bindings only after a call, and a submission that swaps the op
monitor's method for a pass-through and puts it back before returning leaves nothing to compare
(tests/adversarial/swap_monitor_method_briefly.py). CPython refuses to rebind the attributes of
an *immutable* type (``Py_TPFLAGS_IMMUTABLETYPE``, the flag built-in and extension types carry), a
flag Python code cannot set: :func:`freeze` sets it on the harness's own classes (and on torch's
dispatch-mode base class, which the monitor's entering and leaving go through) before the
submission is imported, the only native write the harness makes in a worker.

The flag's word is located from the type object's documented layout and checked against
``type.__flags__`` on two probe classes before anything is written: on an interpreter where it does
not match, nothing is changed and :func:`freeze` returns False (the sandbox level then lacks ``+frozen``).
"""

from __future__ import annotations

import sys
from typing import Iterable

IMMUTABLE_TYPE = 1 << 8          # Py_TPFLAGS_IMMUTABLETYPE (CPython 3.10+)
# PyTypeObject: ob_refcnt, ob_type, ob_size, then 18 pointer-sized slots (tp_name .. tp_as_buffer)
# before tp_flags, on every 64-bit CPython 3.10-3.13 (non-debug builds).
FLAGS_SLOT = 21


def _flags_word(cls: type):
    """The ``tp_flags`` word of ``cls`` as a ctypes view, or None when the layout is not the one
    assumed (checked against ``__flags__`` on two classes whose flags differ)."""
    import ctypes
    if sys.implementation.name != "cpython" or ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    offset = FLAGS_SLOT * ctypes.sizeof(ctypes.c_void_p)

    class Plain:
        pass

    class Slotted:
        __slots__ = ()

    for probe in (Plain, Slotted):
        if ctypes.c_ulong.from_address(id(probe) + offset).value != probe.__flags__:
            return None
    if Plain.__flags__ == Slotted.__flags__:  # (a __dict__ sets a flag empty slots do not) a match must mean something
        return None
    return ctypes.c_ulong.from_address(id(cls) + offset)


def harness_classes(prefix: str = "harness") -> list[type]:
    """Every class defined in a loaded module of the harness's package (``prefix``)."""
    found: dict[int, type] = {}
    for name, module in list(sys.modules.items()):
        if name != prefix and not name.startswith(prefix + "."):
            continue
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, type) and str(getattr(value, "__module__", "")).startswith(prefix):
                found[id(value)] = value
    return list(found.values())


def freeze(classes: Iterable[type]) -> bool:
    """Make each class immutable (its attributes can no longer be set or deleted, by anyone).
    Returns False, changing nothing, where the interpreter's type layout is not the expected one."""
    classes = list(classes)
    words = [_flags_word(cls) for cls in classes]
    if any(word is None for word in words):
        return False
    for cls, word in zip(classes, words):
        if word.value != cls.__flags__:  # not a type object laid out as the probes were
            return False
    for word in words:
        word.value |= IMMUTABLE_TYPE
    return all(cls.__flags__ & IMMUTABLE_TYPE for cls in classes)


def freeze_for_worker() -> bool:
    """Freeze the harness's classes and torch's dispatch-mode base class (call last before arming
    the guard: nothing may set a class attribute of theirs afterwards)."""
    classes = harness_classes()
    python_dispatch = sys.modules.get("torch.utils._python_dispatch")
    if python_dispatch is not None:
        classes.append(python_dispatch.TorchDispatchMode)
    return freeze(classes)
