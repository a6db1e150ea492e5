"""Numerical comparison of a candidate's outputs with the reference's (DESIGN §6).

Runs in the trusted parent only. Every output leaf is compared for structure, shape, dtype and
values; the first mismatch is described in one line (max abs/rel error, where, how many off).
"""

from __future__ import annotations

from typing import Any

import torch

from harness.invoke import CallRecord, move_like_reference
from harness.taskdef import Case, Tolerance, map_tensors, tolerance_for


def _is_seq(x: Any) -> bool:
    return isinstance(x, (tuple, list))


def _as_tensor(x: Any) -> torch.Tensor | None:
    if isinstance(x, torch.Tensor):
        return x
    if isinstance(x, (bool, int, float)):
        return torch.tensor(x)
    return None


def compare_outputs(out: Any, ref: Any, tolerances: dict | None = None, where: str = "output") -> str | None:
    """Return ``None`` when ``out`` matches ``ref``, else a one-line reason naming the first bad leaf."""
    if _is_seq(ref):
        if not _is_seq(out):
            return f"{where}: expected a tuple of {len(ref)} values, got {type(out).__name__}"
        if len(out) != len(ref):
            return f"{where}: expected {len(ref)} values, got {len(out)}"
        for i, (o, r) in enumerate(zip(out, ref)):
            msg = compare_outputs(o, r, tolerances, f"{where}[{i}]")
            if msg:
                return msg
        return None
    if ref is None:
        return None if out is None else f"{where}: expected None, got {type(out).__name__}"
    rt = _as_tensor(ref)
    if rt is None:
        if isinstance(ref, torch.device) and isinstance(out, torch.device):
            # cuda:1 in the parent is cuda:0 in a worker that sees one GPU: compare the kind only
            return None if out.type == ref.type else f"{where}: expected a {ref.type} device, got {out!r}"
        return None if out == ref else f"{where}: expected {ref!r}, got {out!r}"
    ot = _as_tensor(out)
    if ot is None:
        return f"{where}: expected a tensor, got {type(out).__name__}"
    if isinstance(ref, torch.Tensor) and not isinstance(out, torch.Tensor):
        return f"{where}: expected a tensor, got {type(out).__name__}"
    if ot.shape != rt.shape:
        return f"{where}: shape {list(ot.shape)} != expected {list(rt.shape)}"
    if isinstance(ref, torch.Tensor) and ot.dtype != rt.dtype:
        return f"{where}: dtype {ot.dtype} != expected {rt.dtype}"
    return compare_tensors(ot, rt, tolerance_for(rt.dtype, tolerances), where)


def compare_tensors(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None, where: str = "output") -> str | None:
    """Values of two same-shape tensors; ``tol=None`` means exact (integers, bool)."""
    if out.device != ref.device:
        out = out.to(ref.device)
    if ref.numel() == 0:
        return None
    if ref.is_complex():
        return _compare_complex(out, ref, tol, where)
    if tol is None or not ref.dtype.is_floating_point:
        bad = out != ref
        if bad.any():
            return _summary(where, out, ref, bad, exact=True)
        return None
    trivial = _trivial_output(out, ref, where)
    if trivial:
        return trivial
    o = out.double()
    r = ref.double()
    o_nan, r_nan = torch.isnan(o), torch.isnan(r)
    if (o_nan != r_nan).any():
        bad = o_nan != r_nan
        return _summary(where, out, ref, bad, note="NaN where the reference is not (or the reverse)")
    r_inf, o_inf = torch.isinf(r), torch.isinf(o)
    if (r_inf != o_inf).any() or (r_inf & (o != r)).any():
        bad = (r_inf != o_inf) | (r_inf & (o != r))
        return _summary(where, out, ref, bad, note="infinities differ")
    finite = ~(r_nan | r_inf)
    rf, of = r[finite], o[finite]
    if rf.numel() == 0:
        return None
    scale = rf.square().mean().sqrt().item()
    scale = scale if scale > 0 else 1.0
    err = (of - rf).abs()
    bound = tol.atol * scale + tol.rtol * rf.abs()
    bad_f = err > bound
    if bad_f.any():
        bad = torch.zeros_like(finite)
        bad[finite] = bad_f
        return _summary(where, out, ref, bad)
    return None


def _compare_complex(out: torch.Tensor, ref: torch.Tensor, tol: Tolerance | None, where: str) -> str | None:
    """Complex values: real and imaginary parts under the float rules (NaN/inf positions, degenerate
    outputs, tolerance scaled by the RMS of the reference's components)."""
    if not out.is_complex():
        return f"{where}: expected complex values, got {out.dtype}"
    real_tol = tol or tolerance_for(torch.float32)
    return compare_tensors(torch.view_as_real(out.resolve_conj()), torch.view_as_real(ref.resolve_conj()),
                           real_tol, where)


def _trivial_output(out: torch.Tensor, ref: torch.Tensor, where: str) -> str | None:
    """Catch degenerate outputs the tolerance could let through on a near-degenerate reference."""
    if out.numel() < 2:
        return None
    if not out.any() and ref.any():
        return f"{where}: output is all zeros but the reference is not"
    finite_ref = ref[torch.isfinite(ref)]
    if finite_ref.numel() > 1 and finite_ref.min() != finite_ref.max():
        finite_out = out[torch.isfinite(out)]
        if finite_out.numel() > 1 and finite_out.min() == finite_out.max():
            return f"{where}: output is constant ({finite_out.flatten()[0].item():g}) but the reference is not"
    return None


def _summary(where: str, out: torch.Tensor, ref: torch.Tensor, bad: torch.Tensor, note: str = "",
             exact: bool = False) -> str:
    n_bad = int(bad.sum().item())
    idx = tuple(int(i) for i in torch.nonzero(bad)[0].tolist()) if n_bad else ()
    first = f"first at {list(idx)}: got {out[idx].item()!r}, expected {ref[idx].item()!r}" if idx or out.dim() == 0 else ""
    parts = [f"{where}: {n_bad} of {ref.numel()} elements differ"]
    if note:
        parts.append(note)
    if not exact and ref.dtype.is_floating_point:
        o, r = out.double(), ref.double()
        both = torch.isfinite(o) & torch.isfinite(r)
        if both.any():
            err = (o - r).abs()[both]
            rel = err / r.abs()[both].clamp_min(torch.finfo(torch.float64).tiny)
            parts.append(f"max abs err {err.max().item():.3g}, max rel err {rel.max().item():.3g}")
    if first:
        parts.append(first)
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
    for i, (got, want) in enumerate(zip(candidate.aliases, reference.aliases)):
        if want is not None and got != want:
            arg = f"argument {want}" if not want.isdigit() else f"positional argument {want}"
            return f"output leaf {i} must be {arg} itself (in-place / out= semantics), got a new tensor"
        if want is None and got is not None:
            return (f"output leaf {i} shares memory with argument {got}, but the reference returns a new "
                    "tensor (return a copy, not a view of the input)")
    for i, (got, want) in enumerate(zip(candidate.args_after, reference.args_after)):
        msg = compare_outputs(got, want, tolerances, where=f"argument {i} after the call")
        if msg:
            return msg
    for key, want in reference.kwargs_after.items():
        msg = compare_outputs(candidate.kwargs_after.get(key), want, tolerances, where=f"argument {key!r} after the call")
        if msg:
            return msg
    return None


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
