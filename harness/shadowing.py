"""Tensors whose own attributes hide torch.Tensor's methods.

A plain ``torch.Tensor`` takes attributes of its own, and an instance attribute wins over a method
of its class: ``result.detach = pool.detach`` made the harness's own ``result.detach()`` hand back
a pool made at import, and ``x.untyped_storage = partial(...)`` ran PyTorch compute inside the op
monitor, where no mode watches (tests/adversarial/rand_detach_shadow.py,
relu_storage_attr_inside_monitor.py). A builtin or a ``functools.partial`` there starts no Python
frame, so no code barrier sees it run. So the harness asks :func:`shadowed` of every tensor the
submission could have touched before it calls a method of it (the op monitor of every operand,
the launch check of every kernel argument, the reading of a call's results); one that hides a
method is refused. Reading the instance's own dictionary runs no code of anyone's: ``__dict__`` is a
data descriptor of the type, which an instance attribute cannot hide. A tensor's storage is one
Python object however often it is asked for, and takes attributes of its own too (its ``nbytes``
or ``data_ptr`` hidden): it is read the same way.
"""

from __future__ import annotations

from typing import Any

import torch

TENSOR_NAMES = frozenset(dir(torch.Tensor))
STORAGE_NAMES = frozenset(dir(torch.UntypedStorage))
_OWN_DICT = object.__getattribute__
_DICT_KEYS, _STR = dict.keys, str
_UNTYPED_STORAGE = torch.Tensor.untyped_storage


def _hiding(obj: Any, names: frozenset) -> str | None:
    """The first of ``obj``'s own attributes named like one of ``names`` (a key that is not a plain
    string counts, named by its type), or None."""
    try:
        own = _OWN_DICT(obj, "__dict__")
    except AttributeError:
        return None
    if type(own) is not dict:
        # a dict subclass's lookups still let its keys hide the class's methods, and its own
        # methods are the submission's code (an OrderedDict hid untyped_storage: tensor_dict_subclass_hides_method.py)
        return f"<a __dict__ of type {type.__dict__['__name__'].__get__(type(own))}>"
    if not own:
        return None
    for name in _DICT_KEYS(own):
        if type(name) is not _STR:
            return f"<a key of type {type.__dict__['__name__'].__get__(type(name))}>"
        if name in names:
            return name
    return None


def shadowed(t: Any) -> str | None:
    """The name of the first torch.Tensor attribute that ``t``'s own attributes hide, or of its
    storage's (``storage.<name>``), or None."""
    hidden = _hiding(t, TENSOR_NAMES)
    if hidden:
        return hidden
    try:
        storage = _UNTYPED_STORAGE(t)
    except (RuntimeError, NotImplementedError):  # no storage (a meta or functional tensor)
        return None
    hidden = _hiding(storage, STORAGE_NAMES)
    return f"storage.{hidden}" if hidden else None


def shadowing_message(name: str) -> str:
    return (f"tampering: a tensor has an attribute of its own named {name!r}, which hides torch.Tensor's "
            "(the harness reads tensors through their methods)")
