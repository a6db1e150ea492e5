"""References that do not call PyTorch's function directly (because PyTorch's CUDA path departs from
the task's description) agree with that function where it is right: on the CPU."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from harness.task import get_task


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0, 0.5])
def test_embedding_renorm_matches_pytorch_on_the_cpu(norm_type):
    reference = get_task("Fusion/fused_embedding_add_tanh.py").module.reference
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(12, 7, generator=g) * 2
    weight[5, 2] = float("nan")  # a NaN norm is not above max_norm: the row stays as it is
    indices = torch.tensor([[0, 3, 3, 5], [11, 0, 7, 3]])  # repeated rows are rescaled once
    other = torch.randn(2, 4, 7, generator=g)
    ours, theirs = weight.clone(), weight.clone()
    got = reference(indices, ours, other, max_norm=1.5, norm_type=norm_type)
    expected = torch.tanh(F.embedding(indices, theirs, max_norm=1.5, norm_type=norm_type) + other)
    torch.testing.assert_close(ours, theirs, equal_nan=True, rtol=1e-6, atol=1e-7)  # the in-place rescale
    torch.testing.assert_close(got, expected, equal_nan=True, rtol=1e-6, atol=1e-7)
    assert not torch.equal(ours[0], weight[0])  # a rescaled row: the comparison above had something to compare


def test_embedding_renorm_of_no_rows_changes_nothing():
    reference = get_task("Fusion/fused_embedding_add_tanh.py").module.reference
    weight = torch.randn(4, 3)
    before = weight.clone()
    out = reference(torch.empty(0, 2, dtype=torch.int64), weight, torch.zeros(0, 2, 3), max_norm=0.1)
    assert out.shape == (0, 2, 3) and torch.equal(weight, before)
