"""Numerical comparison of a candidate's outputs with the reference's (DESIGN §6).

Runs in the trusted parent only. Every output leaf is compared for structure, shape, dtype and
values; the first mismatch is described in one line (max abs/rel error, where, how many off).
"""

from __future__ import annotations

from typing import Any

import torch

from harness.invoke import CallRecord, move_like_reference
from harness.kept import is_digest
from harness.sampled_results import CandidateSample, ReferenceSample, values_at
from harness.taskdef import Case, Tolerance, map_tensors, tensor_leaves, tolerance_for


def _is_seq(x: Any) -> bool:
    return isinstance(x, (tuple, list))


def _as_tensor(x: Any) -> torch.Tensor | None:
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, (bool, int, float)):
        return torch.tensor(x)
    return None


def _what(value: Any) -> str:
    """A value's kind for a message: a placeholder the worker saved for a value it does not read
    ("<a value of type X>", "<a tensor of dtype D>": harness/invoke.py) names it, not str."""
    if isinstance(value, str) and value.startswith("<a value of type ") and value.endswith(">"):
        return value[1:-1] + " (return tensors, numbers, or tuples, lists or dicts of them)"
    if isinstance(value, str) and value.startswith("<a tensor of dtype ") and value.endswith(">"):
        return value[1:-1]
    return type(value).__name__


def compare_outputs(out: Any, ref: Any, tolerances: dict | None = None, where: str = "output") -> str | None:
    """Return ``None`` when ``out`` matches ``ref``, else a one-line reason naming the first bad leaf."""
    if _is_seq(ref):
        if not _is_seq(out):
            return f"{where}: expected a tuple of {len(ref)} values, got {_what(out)}"
        if len(out) != len(ref):
            return f"{where}: expected {len(ref)} values, got {len(out)}"
        for i, (o, r) in enumerate(zip(out, ref)):
            msg = compare_outputs(o, r, tolerances, f"{where}[{i}]")
            if msg:
                return msg
        return None
    if ref is None:
        return None if out is None else f"{where}: expected None, got {_what(out)}"
    if isinstance(ref, ReferenceSample):
        return _compare_sampled(out, ref, tolerances, where)
    if is_digest(ref):  # an argument the reference leaves alone, kept as a digest (harness/kept.py)
        return None if out == ref else (f"{where}: the call changed it (the reference leaves it as it was "
                                        "given; its bytes differ from the inputs')")
    rt = _as_tensor(ref)
    if rt is None:
        if isinstance(ref, torch.device) and isinstance(out, torch.device):
            # cuda:1 in the parent is cuda:0 in a worker that sees one GPU: compare the kind only
            return None if out.type == ref.type else f"{where}: expected a {ref.type} device, got {out!r}"
        return None if out == ref else f"{where}: expected {ref!r}, got {out!r}"
    ot = _as_tensor(out)
    if ot is None:
        return f"{where}: expected a tensor, got {_what(out)}"
    if isinstance(ref, torch.Tensor) and not isinstance(out, torch.Tensor):
        return f"{where}: expected a tensor, got {type(out).__name__}"
    if ot.shape != rt.shape:
        return f"{where}: shape {list(ot.shape)} != expected {list(rt.shape)}"
    if isinstance(ref, torch.Tensor) and ot.dtype != rt.dtype:
        return f"{where}: dtype {ot.dtype} != expected {rt.dtype}"
    return compare_tensors(ot, rt, tolerance_for(rt.dtype, tolerances), where)


def _compare_sampled(out: Any, ref: ReferenceSample, tolerances: dict | None, where: str) -> str | None:
    """A large leaf judged at the positions drawn for it (harness/sampled_results.py)."""
    if isinstance(out, CandidateSample):
        shape, dtype, values = out.shape, out.dtype, out.values
    elif isinstance(out, torch.Tensor):  # saved whole: read at the same positions
        shape, dtype, values = tuple(out.shape), out.dtype, None
    else:
        return f"{where}: expected a tensor, got {_what(out)}"
    if shape != ref.shape:
        return f"{where}: shape {list(shape)} != expected {list(ref.shape)}"
    if dtype != ref.dtype:
        return f"{where}: dtype {dtype} != expected {ref.dtype}"
    if values is None:
        values = values_at(out, ref.positions)
    return compare_tensors(values, ref.values, tolerance_for(ref.dtype, tolerances), where, sample=ref)


# Comparisons run over flat chunks of this many elements: their float64 temporaries stay near
# 32 MB each however large the output (a perf-size output judged on a GPU that other jobs share,
# an exe output as large as a worker may save judged in the parent beside other jobs').
CHUNK_ELEMENTS = 1 << 22


def _chunks(*tensors: torch.Tensor):
    """``(offset, [chunk of each tensor])`` over the tensors flattened alike."""
    flat = [t.reshape(-1) for t in tensors]
    for start in range(0, flat[0].numel(), CHUNK_ELEMENTS):
        yield start, [f[start:start + CHUNK_ELEMENTS] for f in flat]


def _anywhere(bad_in: Any, out: torch.Tensor, ref: torch.Tensor) -> bool:
    return any(bool(bad_in(o, r).any()) for _, (o, r) in _chunks(out, ref))


def compare_tensors(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None, where: str = "output",
                    sample: ReferenceSample | None = None) -> str | None:
    """Values of two same-shape tensors; ``tol=None`` means exact (integers, bool). With ``sample``
    the two are a large leaf's values at the positions it draws: the tolerance's scale is taken
    from the whole reference leaf, and messages name indices in it."""
    if out.device != ref.device:
        out = out.to(ref.device)
    if ref.numel() == 0:
        return None
    if ref.is_complex():
        return _compare_complex(out, ref, tol, where, sample)
    if tol is None or not ref.dtype.is_floating_point:
        differs = lambda o, r: o != r  # noqa: E731
        return _summary(where, out, ref, differs, exact=True, sample=sample) if _anywhere(differs, out, ref) else None
    trivial = _trivial_output(out, ref, where)
    if trivial:
        return trivial

    def nan_differs(o: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        return torch.isnan(o) != torch.isnan(r)

    def inf_differs(o: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        o, r = o.double(), r.double()
        r_inf = torch.isinf(r)
        return (r_inf != torch.isinf(o)) | (r_inf & (o != r))

    if _anywhere(nan_differs, out, ref):
        return _summary(where, out, ref, nan_differs, note="NaN where the reference is not (or the reverse)",
                        sample=sample)
    if _anywhere(inf_differs, out, ref):
        return _summary(where, out, ref, inf_differs, note="infinities differ", sample=sample)
    # Beyond this point NaNs and infinities sit at the same places in both: compare the finite rest,
    # with the absolute tolerance scaled by the RMS of the reference's finite values.
    scale = _finite_rms(ref if sample is None else sample.whole)
    if scale is None:
        return None

    def beyond(o: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        o, r = o.double(), r.double()
        return torch.isfinite(r) & ((o - r).abs() > tol.atol * scale + tol.rtol * r.abs())

    def zero_sign_differs(o: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        return (r == 0) & (o == 0) & (torch.signbit(o) != torch.signbit(r))

    if _anywhere(beyond, out, ref):
        return _summary(where, out, ref, beyond, sample=sample)
    if tol.signed_zero and _anywhere(zero_sign_differs, out, ref):
        return _summary(where, out, ref, zero_sign_differs, note="a zero of the other sign (-0.0 against +0.0)",
                        sample=sample)
    return None


def _finite_rms(ref: torch.Tensor) -> float | None:
    """The RMS of ``ref``'s finite values (1.0 where that is 0), None when it has none. Squares are
    summed relative to the largest magnitude seen so far (rescaled when a chunk brings a larger
    one), so float64 values beyond 1e154, whose squares overflow, give their true RMS, not
    infinity (which would judge no value at all)."""
    peak, squares, count = 0.0, 0.0, 0
    for _, (r,) in _chunks(ref):
        finite = r.double()[torch.isfinite(r)]
        if finite.numel() == 0:
            continue
        count += finite.numel()
        chunk_peak = finite.abs().max().item()
        if chunk_peak > peak:
            squares *= (peak / chunk_peak) ** 2
            peak = chunk_peak
        if peak:
            squares += (finite / peak).square().sum().item()
    if count == 0:
        return None
    return peak * (squares / count) ** 0.5 or 1.0


def _compare_complex(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None, where: str,
                     sample: ReferenceSample | None = None) -> str | None:
    """Complex values: real and imaginary parts under the float rules (NaN/inf positions, degenerate
    outputs, tolerance scaled by the RMS of the reference's components)."""
    if not out.is_complex():
        return f"{where}: expected complex values, got {out.dtype}"
    real_tol = tol or tolerance_for(torch.float32)
    return compare_tensors(torch.view_as_real(out.resolve_conj()), torch.view_as_real(ref.resolve_conj()),
                           real_tol, where, sample.as_real() if sample is not None else None)


def _finite_range(t: torch.Tensor) -> tuple[torch.Tensor | None, torch.Tensor | None, int]:
    """Smallest and largest finite value of ``t`` and how many finite values it has."""
    low = high = None
    count = 0
    for _, (chunk,) in _chunks(t):
        finite = chunk[torch.isfinite(chunk)]
        if finite.numel():
            count += finite.numel()
            low = finite.min() if low is None else torch.minimum(low, finite.min())
            high = finite.max() if high is None else torch.maximum(high, finite.max())
    return low, high, count


def _trivial_output(out: torch.Tensor, ref: torch.Tensor, where: str) -> str | None:
    """Catch degenerate outputs the tolerance could let through on a near-degenerate reference."""
    if out.numel() < 2:
        return None
    nonzero = lambda t: any(bool(c.any()) for _, (c,) in _chunks(t))  # noqa: E731
    if not nonzero(out) and nonzero(ref):
        return f"{where}: output is all zeros but the reference is not"
    ref_low, ref_high, ref_count = _finite_range(ref)
    if ref_count > 1 and ref_low != ref_high:
        out_low, out_high, out_count = _finite_range(out)
        if out_count > 1 and out_low == out_high:
            return f"{where}: output is constant ({out_low.item():g}) but the reference is not"
    return None


def _summary(where: str, out: torch.Tensor, ref: torch.Tensor, bad_in: Any, note: str = "",
             exact: bool = False, sample: ReferenceSample | None = None) -> str:
    """One line on the elements ``bad_in(out_chunk, ref_chunk)`` marks: how many, the largest errors,
    the first of them (with ``sample``: of the values compared, indexed in the whole leaf)."""
    n_bad, first = 0, None
    max_err = max_rel = None
    for start, (o, r) in _chunks(out, ref):
        bad = bad_in(o, r)
        count = int(bad.sum().item())
        if count and first is None:
            first = start + int(torch.nonzero(bad)[0, 0].item())
        n_bad += count
        if not exact and ref.dtype.is_floating_point:
            o, r = o.double(), r.double()
            both = torch.isfinite(o) & torch.isfinite(r)
            if both.any():
                err = (o - r).abs()[both]
                rel = err / r.abs()[both].clamp_min(torch.finfo(torch.float64).tiny)
                max_err = err.max().item() if max_err is None else max(max_err, err.max().item())
                max_rel = rel.max().item() if max_rel is None else max(max_rel, rel.max().item())
    if sample is None:
        parts = [f"{where}: {n_bad} of {ref.numel()} elements differ"]
    else:
        parts = [f"{where}: {n_bad} of {ref.shape[0]} elements compared differ (drawn at random from "
                 f"{sample.numel} after the call)"]
    if note:
        parts.append(note)
    if max_err is not None:
        parts.append(f"max abs err {max_err:.3g}, max rel err {max_rel:.3g}")
    if first is not None:
        idx = tuple(int(i) for i in torch.unravel_index(torch.tensor(first), ref.shape)) if ref.dim() else ()
        at = list(idx) if sample is None else sample.index_of(idx[0]) + list(idx[1:])
        parts.append(f"first at {at}: got {out[idx].item()!r}, expected {ref[idx].item()!r}")
    return "; ".join(parts)


def judge_call(candidate: CallRecord, reference: CallRecord, tolerances: dict | None = None,
               custom_check: Any = None, case: Any = None) -> str | None:
    """Judge one call: returned value, then aliasing (in-place / ``out=``), then argument state."""
    if custom_check is not None:
        msg = custom_check(case, candidate.output, reference.output)
    else:
        msg = compare_outputs(candidate.output, reference.output, tolerances)
    if msg:
        return msg
    ref_leaves = tensor_leaves(reference.output)
    for i, (got, want) in enumerate(zip(candidate.aliases, reference.aliases)):
        if want is not None and got != want:
            arg = f"argument {want}" if not want.isdigit() else f"positional argument {want}"
            return f"output leaf {i} must be {arg} itself (in-place / out= semantics), got a new tensor"
        if want is None and got is not None and not (_is_out_argument(got) and
                                                     _holds_the_output(_argument_state(reference, got), ref_leaves[i])):
            # (returning an out= tensor the reference fills with the value it returns anew is the
            # same answer: fused_gelu_min returns fresh tensors, torch.min its out=(values, indices);
            # never an input that merely holds the answer: an identity permutation's input, a
            # momentum buffer equal to the gradient, which later calls would then share)
            return (f"output leaf {i} shares memory with argument {got}, but the reference returns a new "
                    "tensor (return a copy, not a view of the input)")
    after = [(got, want, f"argument {i} after the call")
             for i, (got, want) in enumerate(zip(candidate.args_after, reference.args_after))]
    after += [(candidate.kwargs_after.get(key), want, f"argument {key!r} after the call")
              for key, want in reference.kwargs_after.items()]
    for got, want, where in after:
        if custom_check is not None and _holds_the_output(want, reference.output):
            # an out= argument written with the returned values: judged as they are (a task's own
            # check accepts, say, either index of a near-tie), its message naming the argument
            msg = custom_check(case, got, want)
            msg = f"{where}: {msg}" if msg else None
        else:
            msg = compare_outputs(got, want, tolerances, where=where)
        if msg:
            return msg
    return None


def _is_out_argument(key: str) -> bool:
    """Whether an argument key (harness/invoke.py) names an ``out=`` argument or a tensor inside one."""
    return key.partition("[")[0].startswith("out")


def _argument_state(record: CallRecord, key: str) -> Any:
    """The state after ``record``'s call of the argument named ``key`` as harness/invoke.py names
    them (``"0"``, ``"out"``, ``"0[2]"``, ``"out[1]"``), or None where the record holds none."""
    top, _, rest = key.partition("[")
    value = record.args_after[int(top)] if top.isdigit() and int(top) < len(record.args_after) else \
        record.kwargs_after.get(top)
    for index in rest.rstrip("]").split("][") if rest else []:
        if isinstance(value, (tuple, list)) and index.isdigit() and int(index) < len(value):
            value = value[int(index)]
        elif isinstance(value, dict):
            value = next((v for k, v in value.items() if str(k) == index), None)
        else:
            return None
    return value


def _holds_the_output(argument: Any, output: Any) -> bool:
    """Whether an argument's state after the reference's call is its returned value (same
    structure, equal tensors, NaN where NaN)."""
    if isinstance(argument, torch.Tensor) and isinstance(output, torch.Tensor):
        if argument.shape != output.shape or argument.dtype != output.dtype or argument.device != output.device:
            return False
        if argument.is_floating_point() or argument.is_complex():
            return bool(torch.allclose(argument, output, rtol=0, atol=0, equal_nan=True))
        return bool(torch.equal(argument, output))
    if isinstance(argument, (tuple, list)) and isinstance(output, (tuple, list)) and len(argument) == len(output):
        return all(_holds_the_output(a, o) for a, o in zip(argument, output))
    return False


def judge_saved(payload: dict, reference: CallRecord, tolerances: dict | None = None,
                custom_check: Any = None, case: Case | None = None) -> str | None:
    """``judge_call`` for a candidate's saved payload, on the reference's device — or on the CPU when
    that device runs out of memory: other jobs share the GPU, so its free memory while judging says
    nothing about the submission."""
    try:
        return judge_call(move_like_reference(payload, reference), reference, tolerances, custom_check, case)
    except torch.OutOfMemoryError:
        pass
    torch.cuda.empty_cache()
    cpu = lambda t: t.cpu()  # noqa: E731
    reference = CallRecord(map_tensors(reference.output, cpu), map_tensors(reference.args_after, cpu),
                           map_tensors(reference.kwargs_after, cpu), reference.aliases)
    if case is not None:
        case = Case(case.label, *map_tensors(list(case.args), cpu), **map_tensors(case.kwargs, cpu))
    return judge_call(move_like_reference(payload, reference), reference, tolerances, custom_check, case)
