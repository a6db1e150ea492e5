"""What the op monitor counts as PyTorch compute in a submission's wrapper: data movement and the
profiler's labels are not, any arithmetic is, and an operator of another namespace is whatever its
name (its kernel runs below the monitor)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from harness.sandbox.integrity import TorchOpMonitor


def _watched(work) -> list[str]:
    monitor = TorchOpMonitor(forbid_host_transfer=False)
    with monitor:
        work()
    return monitor.forbidden


class _PlainSGD(torch.optim.Optimizer):
    """An optimizer whose step does only data movement (its arithmetic would be a Triton kernel's):
    torch.optim.Optimizer wraps every step in a profiler label."""

    def __init__(self, params):
        super().__init__(params, {"lr": 0.1})

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                p.copy_(p.clone())


def test_data_movement_and_profiler_labels_are_not_compute():
    x = torch.randn(10, 7)
    param = torch.nn.Parameter(torch.randn(5))
    work = {
        "chunks joined": lambda: torch.cat([c.clone() for c in x.split(4)]),
        "stacked": lambda: torch.stack([x, x]),
        "padded to a block": lambda: F.pad(x.reshape(-1), (0, 2), value=0.0)[:70],
        "labelled": lambda: torch.profiler.record_function("my_kernel").__enter__().__exit__(None, None, None),
        "optimizer step": lambda: _PlainSGD([param]).step(),
    }
    for what, run in work.items():
        assert _watched(run) == [], what


@pytest.mark.parametrize("op, name", [
    (lambda x: torch.relu(x), "relu"),
    (lambda x: torch.cat([x, x]) * 2, "mul"),
    (lambda x: F.pad(x, (1, 1), mode="reflect"), "reflection_pad1d"),
])
def test_arithmetic_is_compute(op, name):
    x = torch.randn(3, 8)
    assert name in _watched(lambda: op(x))


def test_another_namespaces_operator_named_like_a_label_is_compute():
    lib = torch.library.Library("kbx_monitor_test", "DEF")
    lib.define("_record_function_enter_new(Tensor x) -> Tensor")
    lib.impl("_record_function_enter_new", lambda x: x.relu(), "CPU")
    op, x = torch.ops.kbx_monitor_test._record_function_enter_new, torch.randn(4)
    assert _watched(lambda: op(x)) == ["kbx_monitor_test::_record_function_enter_new"]


def test_an_operator_object_is_known_by_identity_and_runs_what_pytorch_runs():
    """torch hands a mode the operator object it reads by name from torch.ops, where the submission
    can put an object that claims to be an allowed op (``aten::clone``) and computes: it is compute.
    A genuine allowed op whose ``_op`` was replaced runs PyTorch's own kernel, not the replacement."""
    import functools
    import types

    x = torch.randn(6)
    forged = functools.partial(torch.relu)
    forged.namespace, forged.overloadpacket, forged._schema = "aten", types.SimpleNamespace(__name__="clone"), None
    monitor = TorchOpMonitor(forbid_host_transfer=False)
    with monitor:
        monitor.__torch_dispatch__(forged, [], (x,), {})
    assert monitor.forbidden and "not PyTorch's" in monitor.forbidden[0]

    clone = torch.ops.aten.clone.default
    real = clone._op
    clone._op = lambda t, **kwargs: torch.relu(t)
    try:
        monitor = TorchOpMonitor(forbid_host_transfer=False)
        with monitor:
            out = monitor.__torch_dispatch__(clone, [], (x,), {})
    finally:
        clone._op = real
    assert monitor.forbidden == [] and torch.equal(out, x)


def test_allowed_ops_on_tensors_whose_copy_computes_are_compute():
    """A copy into a quantized tensor rounds and clamps (relu, through quint8), a copy of a
    negated or conjugated view negates or conjugates: the allowed op's own kernel computes, so it
    is compute; the same ops on ordinary tensors are not."""
    x = torch.randn(8)
    quantized = torch._empty_affine_quantized([8], scale=1.0, zero_point=0, dtype=torch.quint8)
    assert any("quint8" in f for f in _watched(lambda: quantized.copy_(x)))
    z = torch.randn(4, dtype=torch.complex64)
    assert any("conjugate" in f for f in _watched(lambda: z.conj().clone()))
    assert _watched(lambda: z.clone()) == [] and _watched(lambda: torch.empty(8).copy_(x)) == []


def test_bytes_read_as_another_type_or_floats_truncated_are_compute():
    """Copies that convert compute any function of bytes read as another type (a float's sign
    byte, sign-extended from int8 to int16, is a mask: bytes_reinterpreted_relu.py), and a float
    cast to an integer is trunc: a view of another element size, a tensor set onto a storage and a
    float-to-integer or float-to-bool conversion are compute, and so is a view of the same size as
    another dtype (float32 as int32, bfloat16 as int16). A bool mask read as uint8 or int8 for a
    kernel's pointer, float casts either way and integer index casts are not."""
    x = torch.randn(8)
    mask = x > 0
    assert any("read as torch.uint8" in f for f in _watched(lambda: x.view(torch.uint8)))
    assert any("onto a storage" in f for f in _watched(
        lambda: torch.empty(0, dtype=torch.uint8).set_(x.untyped_storage(), 0, (32,), (1,))))
    for cast in (lambda: x.to(torch.int64), lambda: x.to(torch.bool),
                 lambda: torch.empty(8, dtype=torch.int32).copy_(x)):
        assert any("truncating" in f for f in _watched(cast))
    index = torch.arange(8)
    half = torch.randn(8, dtype=torch.bfloat16)
    # same size, another kind: the sign of a float32 lands in the high word of an int64 it is
    # widened to (and a mark on the view could be laundered through a copy into a fresh buffer)
    assert any("read as torch.int32" in f for f in _watched(lambda: x.view(torch.int32).to(torch.int64)))
    assert any("read as torch.int16" in f for f in _watched(lambda: half.view(torch.int16)))
    for honest in (lambda: mask.view(torch.uint8),
                   lambda: mask.view(torch.int8), lambda: x.to(torch.float16),
                   lambda: half.float(), lambda: index.to(torch.int32), lambda: mask.to(torch.int8),
                   lambda: index.to(torch.float32)):
        assert _watched(honest) == []


def test_interpreter_sets_arguments_onto_storages_only_while_it_copies_them():
    """Triton's interpreter sets a host tensor onto each argument's storage and copies storages
    back byte by byte as it launches: allowed then (the launch counter says when), not otherwise."""
    from harness.sandbox.integrity import LaunchCounter, _Within
    counter, x = LaunchCounter(), torch.randn(8)
    counter._originals["plumbing:_init_args_hst"] = None

    def set_onto_storage():
        torch.empty(0, dtype=torch.uint8).set_(x.untyped_storage())

    monitor = TorchOpMonitor(forbid_host_transfer=False, in_plumbing=counter.in_plumbing)
    with monitor:
        set_onto_storage()
    assert monitor.forbidden
    monitor = TorchOpMonitor(forbid_host_transfer=False, in_plumbing=counter.in_plumbing)
    with _Within(counter._depth, "plumbing"), monitor:
        set_onto_storage()
    assert monitor.forbidden == []


def test_nothing_is_collected_while_the_interpreter_copies_arguments():
    """A collection inside the plumbing would run the submission's gc callbacks where the monitor
    exempts what is done to the arguments' storages (permute_copy_gc_in_plumbing.py): the step
    runs with the collector off, and leaves it as it found it."""
    import gc

    from harness.sandbox.integrity import LaunchCounter
    counter = LaunchCounter()
    counter._originals["plumbing:_restore_args_dev"] = "the original"
    seen = []
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            original, step = counter.launch("plumbing:_restore_args_dev", None, (), {})
            with step:
                with counter.launch("plumbing:_restore_args_dev", None, (), {})[1]:  # nested: still off
                    seen.append(gc.isenabled())
                seen.append(gc.isenabled() or not counter.in_plumbing())
            seen.append(gc.isenabled() == enabled and not counter.in_plumbing())
        finally:
            gc.enable()
    assert original == "the original" and seen == [False, False, True] * 2


def _fills(target, times: int = 200):
    def work():
        for value in range(times):
            target().fill_(value)
    return work


@pytest.mark.parametrize("target, counted", [
    # a memset over a dense block (Triton's benchmarker clears its cache buffer so, over and over)
    (lambda buffer: buffer, False),
    (lambda buffer: buffer[4096:], False),
    # one element, a small block, or a big view that writes few places: each fill may be one
    # element's work done on the host
    (lambda buffer: buffer[7], True),
    (lambda buffer: buffer[:100], True),
    (lambda buffer: buffer[:1].expand(8192), True),
    (lambda buffer: buffer.view(128, 128).t()[:, :64], True),
])
def test_only_fills_of_dense_blocks_go_uncounted(target, counted):
    buffer = torch.zeros(128 * 128)
    forbidden = _watched(_fills(lambda: target(buffer)))
    assert bool(forbidden) == counted, forbidden
    if counted:
        assert forbidden == ["fill_(over 128 fills in one call: element-wise work on the host)"]


def test_tensors_built_from_host_data_are_bounded_per_call():
    """Constants from host data are honest up to MAX_HOST_DATA_BYTES a call; past that the values
    were computed on the host (the count is per call: each call gets a fresh monitor)."""
    limit = TorchOpMonitor.MAX_HOST_DATA_BYTES
    values = [0.5] * (limit // 4)
    assert _watched(lambda: torch.tensor(values)) == []                     # exactly the limit
    assert _watched(lambda: [torch.tensor([1.0, 2.0]) for _ in range(100)]) == []
    refused = _watched(lambda: [torch.tensor(values[:1024]) for _ in range(limit // 4096 + 1)])
    assert len(refused) == 1 and "bytes of tensors built from host data" in refused[0], refused
    assert _watched(lambda: torch.from_numpy(__import__("numpy").zeros(limit // 4 + 1, dtype="float32")))


def test_a_rearranging_task_copies_arguments_only_as_given():
    """DATA_MOVEMENT tasks: a copy of an argument as given (made dense), a dense result of the
    same shape written back into an argument, and the harness's own copies after the call are
    allowed; a copy from or into a view that rearranges, and any join, is the task's work."""
    x = torch.randn(6, 5).t()   # given non-contiguous
    out = torch.empty(5, 6)

    def watched(work, data_movement=True):
        monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=data_movement, given=[x, out])
        with monitor:
            work(monitor)
        return monitor.forbidden

    assert watched(lambda m: x.contiguous()) == []
    # views that read the argument in its own order: a rank padded or cut by size-1 dimensions,
    # a dense argument flattened (permute_copy_padded_rank.py)
    assert watched(lambda m: x.reshape(1, 1, 5, 6).contiguous()) == []
    assert watched(lambda m: out.view(1, 30).clone()) == []
    assert watched(lambda m: x.unsqueeze(1).squeeze(1).contiguous()) == []
    assert watched(lambda m: torch.empty(5, 6).copy_(x)) == []
    assert watched(lambda m: out.copy_(torch.empty(5, 6))) == []
    assert watched(lambda m: (m.call_returned(), x.t().clone())) == []      # the harness's copy of a result
    for rearranging in (lambda m: x[:, 1:].contiguous(), lambda m: x.narrow(0, 1, 3).clone(),
                        lambda m: x.unsqueeze(0).transpose(1, 2).clone(),
                        lambda m: torch.empty(6, 5).copy_(x.t()), lambda m: out.t().copy_(torch.empty(6, 5)),
                        lambda m: torch.cat([x[2:], x[:2]]), lambda m: x.repeat(2, 1)):
        refused = watched(rearranging)
        assert refused and "copies alone could make the outputs" in refused[0], refused
        assert watched(rearranging, data_movement=False) == []              # any other task: data movement


def test_a_result_is_memory_made_by_the_call_or_an_arguments():
    """What a call returns must be memory made during it (an allocation, a copy, a tensor built
    from host data, a view of any of those) or an argument's; a view of a tensor that existed
    before the call is a table or pool prepared in advance (rand_pool_at_import.py)."""
    pool, arg = torch.randn(100), torch.randn(10)

    def returned(work) -> list[str]:
        monitor = TorchOpMonitor(forbid_host_transfer=False, given=[arg])
        with monitor:
            monitor.call_returned([work()])
        return monitor.forbidden

    for fresh in (lambda: torch.empty(10), lambda: pool[:10].clone(), lambda: torch.tensor([1.0, 2.0]),
                  lambda: torch.empty(4, 5).t(), lambda: arg, lambda: arg[2:], lambda: torch.relu(pool)):
        refused = returned(fresh)
        assert all("memory held before the call" not in r for r in refused), refused
    for prepared in (lambda: pool[:10], lambda: pool.view(10, 10), lambda: pool):
        refused = returned(prepared)
        assert refused and "memory held before the call" in refused[0], refused


def test_a_copy_of_an_argument_into_another_memory_order_rearranges():
    """A channels-last copy of a dense argument holds its elements permuted; a view reads them
    back in the permuted order (permute_copy's answer), so it is no copy 'as given'."""
    x = torch.randn(2, 3, 4, 5)
    for copy, refused in ((lambda: x.clone(memory_format=torch.channels_last), True),
                          (lambda: x.to(torch.float64, memory_format=torch.channels_last), True),
                          (lambda: x.clone(), False), (lambda: x.to(torch.float64), False)):
        monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=True, given=[x])
        with monitor:
            copy()
        assert bool(monitor.forbidden) == refused, monitor.forbidden


def test_memory_a_resize_moves_stays_what_it_was():
    """A resize reallocates and copies: a pool made before the call and grown in it is still that
    pool (rand_pool_resized.py), an argument resized is still the argument's, and a buffer made in
    the call and grown is still new."""
    def returned(work, pool, arg) -> list[str]:
        monitor = TorchOpMonitor(forbid_host_transfer=False, given=[arg])
        with monitor:
            monitor.call_returned([work(pool, arg)])
        return monitor.forbidden

    for work, held_before in ((lambda p, a: p.resize_(p.numel() + 1)[:10], True),
                              (lambda p, a: a.resize_(a.numel() + 7), False),
                              (lambda p, a: torch.empty(0).resize_(50), False),
                              (lambda p, a: torch.empty(3).resize_(5000)[:4], False)):
        refused = returned(work, torch.randn(100), torch.randn(10))
        assert any("memory held before the call" in r for r in refused) == held_before, refused


def test_tensors_made_from_passed_numbers_count_as_fills():
    """One-element tensors made with torch.full (or arange, scalar_tensor), one per value computed
    in Python, are host data element by element (logspace_full_scalars.py); a bulk one is a memset."""
    per_value = _watched(lambda: [torch.full((1,), float(v)) for v in range(TorchOpMonitor.MAX_SCALAR_OPS + 1)])
    assert per_value and "fills in one call" in per_value[0], per_value
    ranges = _watched(lambda: [torch.arange(v, v + 1.0) for v in range(TorchOpMonitor.MAX_SCALAR_OPS + 1)])
    assert ranges and "fills in one call" in ranges[0], ranges
    assert _watched(lambda: [torch.full((4096,), 2.0) for _ in range(200)] + [torch.arange(10)] * 2) == []


def test_new_buffers_are_poisoned_in_a_rearranging_task_only(monkeypatch):
    """In a task whose outputs copies alone could make, a buffer is filled with 0xFF bytes when it
    is made: memory freed in the call and handed back holds nothing of what it held
    (rand_stale_allocation.py); elsewhere allocation is left alone."""
    def made_in_a_call(data_movement: bool) -> tuple[list, torch.Tensor]:
        monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=data_movement)
        with monitor:
            made = [torch.empty(64), torch.empty_like(torch.zeros(8)), torch.zeros(4).new_empty(16),
                    torch.empty_strided((4, 4), (1, 4))]
            grown = torch.zeros(8)
            grown.resize_(4096)
        return made, grown

    made, grown = made_in_a_call(True)
    storages = [torch.empty(0, dtype=torch.uint8).set_(t.untyped_storage()) for t in made]
    assert all(bool((b == 0xFF).all()) for b in storages)
    assert bool((grown[:8] == 0).all()) and bool(grown[8:].isnan().all())  # what the resize copied stays
    poisoned = []
    monkeypatch.setattr(TorchOpMonitor, "poison", lambda self, t, start: poisoned.append(t))
    made_in_a_call(False)
    assert poisoned == []
    made_in_a_call(True)
    assert len(poisoned) == 5


def test_memory_prepared_before_a_call_given_no_input_that_its_kernels_read_is_host_data():
    """In a rearranging task, a call given no input tensor (values that depend on none): the memory
    prepared before the call that its kernels took (judged at each launch by the monitor's
    ``known``: LaunchCheck.start_recording) counts as host data, so a pool made at import is
    refused (rand_pool_triton_copy.py) and a small table is not; with an input tensor it is not
    counted (a cached workspace of the call's own shape)."""
    from harness.sandbox.launch_check import LaunchCheck
    pool, table, arg = torch.randn(100_000), torch.randn(4), torch.randn(10)

    def refused(taken, inputs_given=False) -> list[str]:
        check = LaunchCheck(__file__, record_launches=True)
        monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=True, given=[arg] if inputs_given else [],
                                 launch_record=(check.start_recording, check.take_launch_facts),
                                 inputs_given=inputs_given)
        with monitor:
            fresh = torch.empty(10)
            check.check(None, tuple(fresh if t == "fresh" else t for t in taken), {})
            monitor.call_returned([fresh])
        return monitor.forbidden

    assert refused(["fresh", table]) == []
    refusal = refused(["fresh", pool])
    assert refusal and "memory prepared before the call read by its kernels" in refusal[0], refusal
    assert refused(["fresh", pool], inputs_given=True) == []
    assert refused(["fresh", arg], inputs_given=True) == []


def test_data_movement_ops_found_honest_are_allowed():
    """Ops a false-positive hunt found refused though they compute nothing: an identity matrix, a
    complex tensor from its parts, a complex tensor read as its parts' type, in-place view ops, a
    resize like an argument, a narrowed copy, a pinned-memory query."""
    x, c = torch.randn(4, 6), torch.randn(4, 3, dtype=torch.complex64)
    for work in (lambda: torch.eye(5), lambda: torch.complex(x, x), lambda: c.view(torch.float32),
                 lambda: x.view(torch.complex64), lambda: torch.empty(1, 4, 6).squeeze_(0).t_().unsqueeze_(0),
                 lambda: torch.empty(4, 6).transpose_(0, 1), lambda: torch.empty(0).resize_as_(x),
                 lambda: x.narrow_copy(0, 1, 2), lambda: x.is_pinned()):
        assert _watched(work) == [], work


def test_a_rearranging_tasks_result_may_be_a_buffer_as_it_was_allocated():
    """empty_like of a transposed input keeps its strides: a kernel that fills it through them
    returns it as allocated (ifftshift's hunt); a permuted view of any buffer stays refused."""
    x = torch.randn(6, 5).t()

    def returned(work) -> list[str]:
        monitor = TorchOpMonitor(forbid_host_transfer=False, data_movement=True, given=[x])
        with monitor:
            monitor.call_returned([work()])
        return monitor.forbidden

    assert returned(lambda: torch.empty_like(x)) == []
    assert "not in row-major order" in returned(lambda: torch.empty(6, 5).t())[0]
    assert "not in row-major order" in returned(lambda: x.contiguous().t())[0]  # a copy, permuted by a view


class _Bare(torch.Tensor):
    """A subclass with no dispatch handler of its own: it brings torch no dispatch types."""

    __torch_function__ = torch._C._disabled_torch_function_impl


def test_an_operand_of_a_tensor_subclass_is_compute_but_a_parameter_is_not():
    x = torch.randn(8)
    assert _watched(lambda: x.as_subclass(_Bare).view(torch.int32)) == [
        "view(a _Bare operand, a torch.Tensor subclass: only plain tensors are judged; pass plain tensors)"]
    assert _watched(lambda: torch.nn.Parameter(x).clone()) == []


@pytest.mark.parametrize("name", ["type", "any", "len", "isinstance"])
def test_a_builtin_the_rules_call_rebound_during_the_call_is_found_at_the_next_op(name):
    import builtins
    assert name in dict(TorchOpMonitor.USED_BUILTINS)
    x, real = torch.randn(4), getattr(builtins, name)

    def swapped_for_one_op():
        setattr(builtins, name, lambda *args: real(*args))
        try:
            x.clone()
        finally:
            setattr(builtins, name, real)
    forbidden = _watched(swapped_for_one_op)
    assert forbidden and forbidden[0].startswith(f"builtins.{name}(rebound while the call ran"), forbidden
    assert _watched(lambda: x.clone()) == []  # restored: nothing found
