"""Property checks of training-mode dropout, for the Fusion tasks that use it: the mask is random,
so an output is judged by what its random draw cannot change (see check_dropout)."""

from __future__ import annotations

import math
from typing import Any

import torch

from harness.checks import judge_positions

# -- dropout (training mode) ----------------------------------------------------------------------
# A dropout mask is random, so a candidate's output cannot match PyTorch's. What is determined: each
# element is either its "kept" value (the deterministic pre-dropout value scaled by 1/(1-p), carried
# through the ops after the dropout) or its "dropped" value (the same ops applied to 0), and the mask
# is a sample of independent Bernoulli(1-p) variables, fresh on every call. check_dropout judges
# exactly that, on the elements whose two possible values are farther apart than their tolerances
# (elsewhere the mask cannot be read off). Every test below is a two-sided Bernstein bound on a count
# of independent indicators, at false-alarm rate DROPOUT_ALPHA each; a case runs at most a few dozen
# (the keep rate, one per lag, one per earlier call), so a correct kernel fails a case with
# probability below 1e-7.
DROPOUT_ALPHA = 1e-9
DROPOUT_LAG_ELEMENTS = 1 << 24  # the lag tests read at most this many leading elements
DROPOUT_ACROSS_SAMPLE = 4096  # mask bits remembered per call for the across-calls test, at positions
# the judge draws over the whole mask (a leading stretch could be fresh while the rest repeats:
# dropout_fixed_mask_past_prefix (tests/test_adversarial.py))


def binomial_deviation(n: int, q: float, alpha: float = DROPOUT_ALPHA) -> float:
    """t such that P(|Binomial(n, q) - n*q| > t) <= alpha, for every n (Bernstein's inequality with
    variance n*q*(1-q) and increments bounded by 1)."""
    log_term = math.log(2.0 / alpha)
    a = 2.0 * log_term / 3.0
    return (a + math.sqrt(a * a + 8.0 * log_term * n * q * (1.0 - q))) / 2.0


def _binomial_failure(count: int, n: int, q: float, what: str) -> str | None:
    t = binomial_deviation(n, q)
    if abs(count - n * q) > t:
        return f"{what}: {count} of {n}, expected {n * q:.1f} +- {t:.1f} (false-alarm rate {DROPOUT_ALPHA:g})"
    return None


def _mask_lags(n: int, shape) -> list[int]:
    """Distances at which a correlated mask shows: powers of two (per-block reseeding, a stream that
    restarts every BLOCK elements) and the strides of the output's dims (per-row reseeding)."""
    lags, lag = set(), 1
    while lag <= n // 2:
        lags.add(lag)
        lag *= 2
    stride = 1
    for s in reversed(list(shape)[1:]):
        stride *= int(s)
        lags.add(stride)
    return sorted(l for l in lags if 1 <= l <= n // 2)


def check_dropout(output: Any, kept: torch.Tensor, dropped: torch.Tensor | float, p: float, *,
                  kept_bound: torch.Tensor | float, dropped_bound: torch.Tensor | float = 0.0,
                  dtype: torch.dtype, where: str = "output", history: list | None = None,
                  label: str = "", call: object = None) -> str | None:
    """Judge the output of a training-mode dropout (possibly followed by elementwise ops).

    ``kept`` (float64) is what each element must be when it is kept -- the pre-dropout value times
    1/(1-p), through the later ops -- and ``dropped`` what it must be when dropped (0 for a plain
    dropout: then ``dropped_bound`` = 0 demands an exact zero); each within its bound. On the
    elements where the two are distinguishable: the number dropped is Binomial(n, p); masks at each
    lag of :func:`_mask_lags` agree as independent draws do (a mask repeated per block or row
    fails); and with ``history`` (a list shared by the cases of one run), the mask differs from the
    masks of earlier calls (a constant seed fails); ``call`` (the case object) tells a call judged
    again from another call of the same label. p = 0 and p = 1 demand every element kept /
    dropped."""
    if not isinstance(output, torch.Tensor):
        return f"{where}: expected a tensor, got {type(output).__name__}"
    if output.shape != kept.shape or output.dtype != dtype:
        return f"{where}: {output.dtype}{list(output.shape)} != expected {dtype}{list(kept.shape)}"
    if kept.numel() == 0:
        return None
    shape, dev = kept.shape, kept.device
    flat = lambda v: torch.as_tensor(v, dtype=torch.float64, device=dev).broadcast_to(shape).reshape(-1)  # noqa: E731
    got = output.detach().to(dev).double().reshape(-1)
    kept, dropped, kb, db = flat(kept), flat(dropped), flat(kept_bound), flat(dropped_bound)

    def near(value, bound):  # within bound; non-finite values must be matched exactly (NaN by NaN)
        return torch.where(torch.isfinite(value), (got - value).abs() <= bound,
                           (got == value) | (got.isnan() & value.isnan()))

    is_kept, is_dropped = near(kept, kb), near(dropped, db)
    if p <= 0.0:
        is_dropped = torch.zeros_like(is_dropped)
    if p >= 1.0:
        is_kept = torch.zeros_like(is_kept)
    bad = ~(is_kept | is_dropped)
    if bad.any():
        i = int(torch.nonzero(bad)[0])
        if p >= 1.0:
            expect = f"{dropped[i].item()!r} (p = 1 drops every element)"
        elif p <= 0.0:
            expect = f"{kept[i].item()!r} +- {kb[i].item():.3g} (p = 0 keeps every element)"
        else:
            expect = (f"{kept[i].item()!r} +- {kb[i].item():.3g} (kept, scaled by 1/(1-p)) or "
                      f"{dropped[i].item()!r} +- {db[i].item():.3g} (dropped)")
        return (f"{where}: {int(bad.sum())} of {got.numel()} elements are neither the kept nor the dropped "
                f"value; first at flat index {i}: got {got[i].item()!r}, expected {expect}")
    if p <= 0.0 or p >= 1.0:
        return None
    # The two values are told apart here. Decided from the values alone, never from the output:
    # an element whose output is ambiguous must be left out whether it was kept or dropped, or
    # the count is biased.
    decided = torch.where(torch.isfinite(kept) & torch.isfinite(dropped), (kept - dropped).abs() > kb + db,
                          ~((kept == dropped) | (kept.isnan() & dropped.isnan())))
    mask = is_kept & decided
    n = int(decided.sum())
    msg = _binomial_failure(int((is_dropped & decided).sum()), n, p,
                            f"{where}: dropped elements (where the kept value is told apart from the dropped one)")
    if msg:
        return msg
    q = p * p + (1.0 - p) * (1.0 - p)  # two independent draws agree
    m, d = mask[:DROPOUT_LAG_ELEMENTS], decided[:DROPOUT_LAG_ELEMENTS]
    for lag in _mask_lags(m.numel(), output.shape):
        usable = m.numel() // (2 * lag) * (2 * lag)
        if usable == 0:
            continue
        mb, db2 = m[:usable].view(-1, 2, lag), d[:usable].view(-1, 2, lag)
        both = db2[:, 0] & db2[:, 1]
        pairs = int(both.sum())
        if pairs < 64:
            continue
        agree = int(((mb[:, 0] == mb[:, 1]) & both).sum())
        msg = _binomial_failure(agree, pairs, q, f"{where}: mask bits {lag} positions apart agree")
        if msg:
            return msg + " -- the mask is not independent across positions (a stream reused per block or row?)"
    if history is not None:
        # (the same call judged again, a re-judge, is the same case object; another config's call of
        # the case has an object of its own: run/reference.py PassInputs)
        earlier = [entry for entry in history if (entry[1] is not call if call is not None else entry[0] != label)]
        for other_label, _, (positions, om, od, op) in earlier:
            q = p * op + (1.0 - p) * (1.0 - op)
            shared = positions < mask.numel()
            at = positions[shared].to(dev)
            both = decided[at].cpu() & od[shared]
            pairs = int(both.sum())
            if pairs < 64:
                continue
            agree = int(((mask[at].cpu() == om[shared]) & both).sum())
            msg = _binomial_failure(agree, pairs, q, f"{where}: mask bits (at positions drawn by the judge) equal to "
                                                     f"those of the earlier call {other_label!r}")
            if msg:
                return msg + " -- the seed is not fresh per call"
        positions = judge_positions(mask.numel(), DROPOUT_ACROSS_SAMPLE)
        at = positions.to(dev)
        history[:] = earlier + [(label, call, (positions, mask[at].cpu(), decided[at].cpu(), p))]
    return None
