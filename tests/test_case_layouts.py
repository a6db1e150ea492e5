"""Every tensor argument of every task is passed in a non-contiguous layout by at least one of its
correctness cases: a kernel that reads an argument as if it were dense must fail somewhere. Wrong
kernels that read a conv bias, a loss target or an ``out=`` buffer flat passed 24 tasks while only
the first argument was ever strided (a red-team survey, 2026-12-07)."""

from __future__ import annotations

import inspect

import torch

from harness.task import all_tasks
from harness.taskdef import Inputs

# Arguments no case passes strided yet: each needs a case (and its bundled solution checked), and
# this list only shrinks. A new task may not add to it.
NOT_YET_STRIDED = frozenset({
    ("Activation/combined_activation.py", "bias"),
    ("Fusion/fused_add_mul_groupnorm.py", "weight"), ("Fusion/fused_add_mul_groupnorm.py", "bias"),
    ("Fusion/fused_add_mul_groupnorm.py", "out"),
    ("Fusion/fused_cosine_embedding_loss_with_normalization.py", "target"),
    ("Fusion/fused_cross_entropy_log_softmax.py", "target"), ("Fusion/fused_cross_entropy_log_softmax.py", "weight"),
    ("Fusion/fused_cross_entropy_softmax_layernorm.py", "targets"),
    ("Fusion/fused_cross_entropy_softmax_layernorm.py", "weight"),
    ("Fusion/fused_cross_entropy_softmax_layernorm.py", "out"),
    ("Fusion/fused_dropout_relu_batch_norm_conv2d.py", "bias"),
    ("Fusion/fused_mul_add_logsoftmax_dropout_bmm.py", "input2"),
    ("Fusion/fused_relu_batch_norm_conv2d.py", "bn_weight"), ("Fusion/fused_relu_batch_norm_conv2d.py", "bn_bias"),
    ("Fusion/fused_repeat_interleave_log_softmax.py", "repeats"),
    ("Fusion/fused_repeat_interleave_log_softmax.py", "out"),
    ("Fusion/fused_silu_layer_norm_conv2d.py", "weight"),
    ("Math/bitwise_and_binomial.py", "input"), ("Math/bitwise_and_binomial.py", "other"),
    ("Math/bitwise_and_binomial.py", "logits"),
    ("Math/chebyshev_polynomial_t.py", "n"),
    ("Optimizer/AdamW.py", "exp_avg_sq"),
    ("Quantization/conv2d_w8a8.py", "bias"),
})


def _never_strided() -> set[tuple[str, str]]:
    """(task, argument) for every tensor argument of more than one element that some case passes
    and no case passes non-contiguous."""
    found = set()
    for task in all_tasks().values():
        signature = inspect.signature(task.reference)
        passed, strided = set(), set()
        for case in task.module.cases(Inputs(0)):
            bound = signature.bind(*case.args, **case.kwargs)
            for name, value in bound.arguments.items():
                if isinstance(value, torch.Tensor) and value.numel() > 1 and value.dim() >= 1:
                    passed.add(name)
                    if not value.is_contiguous():
                        strided.add(name)
        found |= {(task.id, name) for name in passed - strided}
    return found


def test_every_tensor_argument_is_strided_in_some_case():
    never = _never_strided()
    assert never <= NOT_YET_STRIDED, sorted(never - NOT_YET_STRIDED)  # a new gap: add a strided case
    assert NOT_YET_STRIDED <= never, sorted(NOT_YET_STRIDED - never)  # closed: take it off the list
