"""The numeric checker: tolerances, NaN/inf rules, degenerate outputs, structure."""

from __future__ import annotations

import pytest
import torch

from harness.compare import compare_outputs, compare_tensors, judge_call
from harness.taskdef import tolerance_for

REF = torch.linspace(-3, 3, 101)


def test_equal_and_within_tolerance_pass():
    assert compare_outputs(REF.clone(), REF) is None
    assert compare_outputs(REF * (1 + 5e-5), REF) is None


def test_beyond_tolerance_fails_with_summary():
    msg = compare_outputs(REF * (1 + 1e-3), REF)
    assert "elements differ" in msg and "max rel err" in msg and "first at" in msg


def test_nan_rules():
    ref = REF.clone()
    ref[3] = float("nan")
    out = ref.clone()
    assert compare_outputs(out, ref) is None
    out[3] = 0.0
    assert "NaN" in compare_outputs(out, ref)
    out = ref.clone()
    out[5] = float("nan")
    assert "NaN" in compare_outputs(out, ref)


def test_infinities_must_match_in_sign():
    ref = REF.clone()
    ref[0] = float("inf")
    out = ref.clone()
    out[0] = float("-inf")
    assert "infinities" in compare_outputs(out, ref)


def test_zeros_and_constants_never_pass_even_on_tiny_references():
    tiny = REF * 1e-9
    assert "all zeros" in compare_outputs(torch.zeros_like(tiny), tiny)
    assert "constant" in compare_outputs(torch.full_like(REF, 0.5), REF)


def test_float64_values_whose_squares_overflow_still_scale_the_tolerance():
    """The absolute part's scale is the RMS of the reference: float64 values near 1e300 (a
    logspace over a wide range) used to make it infinite, so that no value was judged at all."""
    ref = torch.logspace(-300, 300, 601, dtype=torch.float64)
    out = ref.clone()
    out[-1] *= 1.01  # 1e300 off by 1%: far beyond rtol, judged whatever the scale's size
    assert "elements differ" in compare_outputs(out, ref)
    assert compare_outputs(ref * (1 + 1e-9), ref) is None


def test_dtype_shape_and_structure():
    assert "dtype" in compare_outputs(REF.double(), REF)
    assert "shape" in compare_outputs(REF[:-1], REF)
    assert "tuple" in compare_outputs(REF, (REF, REF))
    assert compare_outputs((REF, torch.arange(3)), (REF, torch.arange(3))) is None
    assert "elements differ" in compare_outputs((REF, torch.arange(3) + 1), (REF, torch.arange(3)))


def test_low_precision_tolerances():
    ref = REF.to(torch.bfloat16)
    assert compare_outputs((ref.float() * (1 + 2 ** -8)).to(torch.bfloat16), ref) is None
    assert compare_outputs((ref.float() * 1.05).to(torch.bfloat16), ref) is not None


def test_complex_values_nan_and_tolerance():
    ref = torch.complex(REF, REF.flip(0))
    assert compare_outputs(ref.clone(), ref) is None
    assert compare_outputs(ref * (1 + 5e-5), ref) is None
    assert "elements differ" in compare_outputs(ref * 1.01, ref)
    assert "NaN" in compare_outputs(torch.full_like(ref, complex("nan+nanj")), ref)
    assert "all zeros" in compare_outputs(torch.zeros_like(ref), ref)


def test_judging_that_runs_out_of_device_memory_is_redone_on_the_cpu(monkeypatch):
    """Other jobs share the GPU: a judge that runs out of memory there judges on the CPU instead of
    blaming the submission (seen on the H200: permute_copy's 8 GiB perf check under 8 workers)."""
    import harness.compare as compare
    from harness.invoke import CallRecord

    real = compare.judge_call
    calls = []

    def first_runs_out(candidate, reference, *args):
        calls.append(reference.output.device)
        if len(calls) == 1:
            raise torch.OutOfMemoryError("CUDA out of memory (simulated)")
        return real(candidate, reference, *args)

    monkeypatch.setattr(compare, "judge_call", first_runs_out)
    want = torch.arange(6.0)
    reference = CallRecord(want, [want.clone()], {}, [None])
    right = {"output": want.clone(), "args_after": [want.clone()], "kwargs_after": {}, "aliases": [None]}
    wrong = right | {"output": want + 1}
    assert compare.judge_saved(right, reference) is None
    calls.clear()
    assert "elements differ" in (compare.judge_saved(wrong, reference) or "")
    assert len(calls) == 2 and calls[1].type == "cpu"


def _messy_pairs():
    """Pairs of (output, reference) covering every rule: equal, off by a little or a lot, NaN and
    infinities at the same or other places, zeros, constants, integers, odd shapes."""
    g = torch.Generator().manual_seed(5)
    for shape in [(1000,), (37, 29), (3, 5, 71), ()]:
        ref = torch.randn(shape, generator=g, dtype=torch.float64).float()
        yield ref.clone(), ref
        yield ref + 1e-7 * torch.randn(shape, generator=g), ref
        noisy = ref.clone()
        noisy.view(-1)[-1] += 1.0
        yield noisy, ref
        if ref.numel() > 4:
            nan_ref = ref.clone()
            nan_ref.view(-1)[3] = float("nan")
            yield nan_ref.clone(), nan_ref
            moved = nan_ref.clone()
            moved.view(-1)[3], moved.view(-1)[-2] = 0.5, float("nan")
            yield moved, nan_ref
            inf_ref = ref.clone()
            inf_ref.view(-1)[-3] = float("inf")
            flipped = inf_ref.clone()
            flipped.view(-1)[-3] = float("-inf")
            yield flipped, inf_ref
            yield torch.zeros_like(ref), ref
            yield torch.full_like(ref, 0.25), ref
            ints = torch.randint(0, 5, shape, generator=g)
            changed = ints.clone()
            changed.view(-1)[-4] += 1
            yield changed, ints


def test_comparing_in_chunks_gives_the_verdicts_and_messages_of_one_pass(monkeypatch):
    import harness.compare as compare
    whole = [compare_tensors(o, r, tolerance_for(r.dtype) if r.is_floating_point() else None) for o, r in _messy_pairs()]
    monkeypatch.setattr(compare, "CHUNK_ELEMENTS", 7)  # every tensor above spans several chunks
    chunked = [compare_tensors(o, r, tolerance_for(r.dtype) if r.is_floating_point() else None) for o, r in _messy_pairs()]
    assert chunked == whole
    # 11 pairs pass (equal, within tolerance, NaN at the same place), the other 19 fail: both kinds covered
    assert (sum(m is None for m in whole), sum(m is not None for m in whole)) == (11, 19)
    assert any("first at [36, 28]" in m for m in whole if m)  # the multi-dimensional index of the last element


def test_a_value_the_worker_did_not_read_is_named_by_its_type_not_as_a_string():
    """A result the worker saves as a placeholder (an object of the submission's class) is reported
    as that class, with what to return instead, not as the placeholder's str."""
    msg = compare_outputs("<a value of type Holder>", (torch.ones(1), torch.ones(1)))
    assert "got a value of type Holder" in msg and "got str" not in msg
    assert "got a value of type Holder" in compare_outputs("<a value of type Holder>", torch.ones(1))


def test_a_result_of_a_dtype_the_harness_cannot_save_is_a_mismatch_named_by_its_dtype():
    """torch.save cannot write the sub-byte integer dtypes: such a result is kept as a placeholder
    (harness/invoke.py), judged a mismatch that names the dtype, not a failure of the harness's save
    (which the worker would report as tampering)."""
    from harness.invoke import CallRecord, call_case
    from harness.taskdef import Case

    if not hasattr(torch, "int1"):
        pytest.skip("this torch has no sub-byte integer dtypes")
    record = call_case(lambda x: torch.empty(3, dtype=torch.int1), Case("c", torch.ones(3)))
    saved = CallRecord.from_payload(record.to_payload())
    msg = compare_outputs(saved.output, torch.ones(3))
    assert msg and "a tensor of dtype torch.int1" in msg, msg


def test_an_out_argument_holding_the_output_is_judged_by_the_tasks_own_check():
    """A task's check may accept more than exact equality (either index of a near-tie, in
    Fusion/fused_gelu_min.py); an ``out=`` argument written with the returned values is judged by
    that check too (it was compared exactly, so a near-tie accepted in the returned indices failed
    in ``out``), and one the check rejects still fails, naming the argument."""
    from harness.invoke import CallRecord
    values, indices = torch.tensor([0.5, 0.25]), torch.tensor([3, 1])
    reference = CallRecord((values, indices), [], {"out": (values.clone(), indices.clone())}, [None, None])

    def index_one_off_is_fine(case, got, want):
        return None if bool(((got[1] - want[1]).abs() <= 1).all()) else "indices differ"

    near = (values.clone(), torch.tensor([2, 1]))
    candidate = CallRecord(near, [], {"out": near}, [None, None])
    assert judge_call(candidate, reference, custom_check=index_one_off_is_fine) is None
    far = (values.clone(), torch.tensor([3, 5]))
    candidate = CallRecord(near, [], {"out": far}, [None, None])
    msg = judge_call(candidate, reference, custom_check=index_one_off_is_fine)
    assert msg is not None and "argument 'out'" in msg and "indices differ" in msg
    # without a check of the task's own, the argument is compared exactly
    candidate = CallRecord((values, indices), [], {"out": near}, [None, None])
    assert "argument 'out'" in judge_call(candidate, reference)


def test_returning_an_out_tensor_the_reference_fills_is_the_same_answer():
    """A result that shares memory with an argument the reference returns anew is refused (a view
    of the input), unless the reference writes that very value into the argument: an entry of an
    out= tuple (named "out[0]"), returned instead of a copy of it."""
    from harness.invoke import CallRecord
    values, indices = torch.tensor([0.5, 0.25]), torch.tensor([3, 1])
    reference = CallRecord((values, indices), [torch.ones(2)], {"out": (values.clone(), indices.clone())}, [None, None])
    returned_out = CallRecord((values, indices), [torch.ones(2)], {"out": (values, indices)}, ["out[0]", "out[1]"])
    assert judge_call(returned_out, reference) is None
    view_of_input = CallRecord((values, indices), [torch.ones(2)], {"out": (values, indices)}, ["0", None])
    assert "shares memory with argument 0" in judge_call(view_of_input, reference)
    # an input that holds the answer is still no out= argument (an identity permutation's input)
    holds = CallRecord((values, indices), [values.clone()], {"out": (values.clone(), indices.clone())}, [None, None])
    returned_input = CallRecord((values, indices), [values], {"out": (values, indices)}, ["0", None])
    assert "shares memory with argument 0" in judge_call(returned_input, holds)
    # a reference that leaves out[0] unlike its returned values: returning out[0] is not its answer
    other_reference = CallRecord((values, indices), [torch.ones(2)], {"out": (torch.zeros(2), indices)}, [None, None])
    assert "shares memory with argument out[0]" in judge_call(returned_out, other_reference)
