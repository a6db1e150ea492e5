"""The harness's classes are immutable types in a worker (harness/sandbox/frozen_types.py): a class
attribute assignment raises no audit event, so nothing else would stop one made and undone within a
call."""

from __future__ import annotations

import pytest

from harness.sandbox import frozen_types


def _fresh_classes():
    class Monitor:
        allowed = ("copy_",)

        def dispatch(self):
            return "watched"

    class Sub(Monitor):
        pass

    return Monitor, Sub


def test_a_frozen_class_refuses_every_rebinding():
    Monitor, Sub = _fresh_classes()
    assert frozen_types.freeze([Monitor])
    for rebind in (lambda: setattr(Monitor, "dispatch", lambda self: "blind"),
                   lambda: type.__setattr__(Monitor, "allowed", ("relu",)),
                   lambda: delattr(Monitor, "dispatch"),
                   lambda: setattr(Monitor, "__bases__", (object,))):
        with pytest.raises(TypeError, match="immutable type"):
            rebind()
    assert Monitor().dispatch() == "watched" and Monitor.allowed == ("copy_",)
    assert Sub().dispatch() == "watched"  # its subclasses still work (and are not frozen themselves)


def test_nothing_is_written_where_the_type_layout_is_not_the_expected_one(monkeypatch):
    Monitor, _ = _fresh_classes()
    flags = Monitor.__flags__
    monkeypatch.setattr(frozen_types, "FLAGS_SLOT", frozen_types.FLAGS_SLOT + 1)  # a layout that does not match
    assert not frozen_types.freeze([Monitor])
    assert Monitor.__flags__ == flags
    Monitor.dispatch = lambda self: "rebound"  # still an ordinary class
    assert Monitor().dispatch() == "rebound"


def test_the_worker_freezes_the_harness_and_the_dispatch_mode_base():
    from harness.sandbox.integrity import TorchOpMonitor  # noqa: F401 - loaded, so among the harness's classes
    names = {cls.__name__ for cls in frozen_types.harness_classes()}
    assert {"TorchOpMonitor", "LaunchCounter", "ModuleSnapshot"} <= names
    assert all(cls.__module__.startswith("harness") for cls in frozen_types.harness_classes())
