"""A tensor (or its storage) whose own attributes hide torch.Tensor's methods is refused wherever
the harness reads one, and the harness never calls what hides them (harness/shadowing.py): the op
monitor's operands, a call's results, the launch check's arguments."""

from __future__ import annotations

import pytest
import torch

from harness.invoke import CallRecord, ForeignValue, not_plain
from harness.sandbox.integrity import TorchOpMonitor
from harness.shadowing import shadowed


def _dressed(where: str, name: str, called: list) -> torch.Tensor:
    t = torch.randn(8)
    target = t if where == "tensor" else t.untyped_storage()
    setattr(target, name, lambda *a, **k: called.append(name))
    return t


def test_what_counts_as_hiding_a_method():
    assert shadowed(torch.zeros(2)) is None
    plain = torch.zeros(2)
    plain.my_note = "an honest attribute"  # names nothing of torch.Tensor's
    assert shadowed(plain) is None
    assert shadowed(_dressed("tensor", "detach", [])) == "detach"
    dressed = _dressed("storage", "data_ptr", [])
    assert shadowed(dressed) == "storage.data_ptr" and shadowed(dressed[2:]) == "storage.data_ptr"  # a view shares it
    odd = torch.zeros(2)
    odd.__dict__[7] = "a key that is not a string"
    assert shadowed(odd) == "<a key of type int>"
    import collections  # a dict subclass as __dict__: its keys still hide methods, its methods are code
    subclassed = torch.zeros(2)
    subclassed.__dict__ = collections.OrderedDict()
    assert shadowed(subclassed) == "<a __dict__ of type OrderedDict>"
    storage_subclassed = torch.zeros(2)
    storage_subclassed.untyped_storage().__dict__ = collections.OrderedDict()
    assert shadowed(storage_subclassed) == "storage.<a __dict__ of type OrderedDict>"


@pytest.mark.parametrize("where, name", [("tensor", "untyped_storage"), ("tensor", "is_contiguous"),
                                         ("storage", "nbytes"), ("storage", "data_ptr")])
def test_the_monitor_refuses_an_operand_that_hides_a_method_and_never_calls_it(where, name):
    called: list = []
    x = _dressed(where, name, called)
    monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=True)
    with monitor:
        x.clone()
        monitor.call_returned([torch.empty(3)])
    assert called == [] and monitor.forbidden and "hides torch.Tensor's" in monitor.forbidden[0], monitor.forbidden


def test_a_result_that_hides_a_method_is_refused_without_calling_it():
    called: list = []
    result = _dressed("tensor", "detach", called)
    with pytest.raises(ForeignValue, match="'detach'"):
        CallRecord(result, [], {}, [None]).to_payload()
    assert "hides torch.Tensor's" in not_plain([1, (result,)])
    monitor = TorchOpMonitor(forbid_host_transfer=False)
    with monitor:
        monitor.call_returned([result])
    assert called == [] and "hides torch.Tensor's" in monitor.forbidden[0]


def test_the_launch_check_refuses_a_kernel_argument_that_hides_a_method(tmp_path):
    from harness.sandbox.launch_check import LaunchCheck, LaunchRefused
    submission = tmp_path / "submission.py"
    submission.write_text("")
    called: list = []
    with pytest.raises(LaunchRefused, match="storage.data_ptr"):
        LaunchCheck(str(submission)).check(None, (_dressed("storage", "data_ptr", called),), {})
    assert called == []
