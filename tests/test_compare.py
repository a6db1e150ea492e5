"""The numeric checker: tolerances, NaN/inf rules, degenerate outputs, structure."""

from __future__ import annotations

import torch

from harness.compare import compare_outputs

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
