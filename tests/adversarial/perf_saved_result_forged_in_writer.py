# Timed repetitions that do no work (an uninitialised buffer with a 16-value fingerprint of the
# input), judged right: the bytes the harness hashes and saves as the kept timed repetition's result
# are rewritten with PyTorch's answer *inside* the harness's own writer, and the digest it signs is
# the digest of the forgery. Verdict here: perf `ok`; a correct harness: perf `wrong` ("timed
# repetition"), as for the same file without the planted flag (and perf_wrong_when_timed.py).
#
# How: torch.save truth-tests torch.serialization._serialization_tls.skip_data before it writes each
# storage. The planted object's __bool__ runs the submission's code there, in the candidate's
# _cmd_save (harness/perf/server.py), after the last tamper check (`self.tampered()`) and before the
# bytes reach _DigestingWriter.write. It rebinds builtins.memoryview; _DigestingWriter.write calls
# `memoryview(data)` (a global looked up at call time) with the buffer of the harness's own copy of
# the result, so the stand-in receives that buffer (writable), finds the full input from the
# fingerprint among the warm-up input sets it kept (the timed inputs are rolls of those), writes
# relu(input) into the harness's copy, puts builtins.memoryview back at once, and returns the view.
# The writer then hashes and writes the forged bytes; the next `tampered()` sees nothing rebound.
# No raw address is used: the harness hands the buffer over itself.
# Run with KERNELBENCHX_PERF_ON_CPU=1 (the CPU stand-in of the perf protocol); natively the same
# path runs (to_host copies into a pinned buffer that is then handed to the writer).
import builtins
import os

import torch
import triton
import triton.language as tl

_PY = torch._C.DispatchKey.Python
_included = torch._C._dispatch_tls_is_dispatch_key_included
_K = 16
_sets = {}
_sizes = set()
_memoryview = memoryview
STATE = {"lazy": 0, "forged": 0, "planted": 0, "seen": []}


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def _triton_relu(input, inplace):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)


def _locate(tag):
    for (shape, dtype), sets in _sets.items():
        for src in sets:
            n = src.numel()
            if n < _K:
                continue
            for p in torch.nonzero(src == tag[0]).flatten().tolist():
                idx = (torch.arange(_K) + p) % n
                if torch.equal(src[idx], tag):
                    return torch.roll(src, shifts=(n - p) % n)
    return None


class _Evil:
    """Stands in for builtins.memoryview inside the harness's _DigestingWriter.write."""
    def __new__(cls, data):
        m = _memoryview(data)
        STATE["seen"].append(m.nbytes)
        if m.nbytes > 128:  # a storage's bytes (headers are smaller)
            builtins.memoryview = _memoryview  # put back before anyone looks
        if m.nbytes in _sizes:
            try:
                t = torch.frombuffer(m, dtype=torch.float32)
                x = _locate(t[:_K].clone())
                if x is not None:
                    t.copy_(torch.where(torch.isnan(x), x, torch.clamp_min(x, 0.0)))
                    STATE["forged"] += 1
            except Exception as e:
                STATE["seen"].append(repr(e)[:100])
        return m


class _Planted:
    def __bool__(self):  # torch.save truth-tests this before each storage's bytes are written
        if STATE["lazy"] and any(n.startswith("perf_") for n in os.listdir(".")):
            builtins.memoryview = _Evil
            STATE["planted"] += 1
        return False


torch.serialization._serialization_tls.skip_data = _Planted()


def relu(input, inplace=False):
    if _included(_PY) or inplace or not input.is_contiguous() or input.numel() < _K:
        return _triton_relu(input, inplace)            # watched (exe, check call)
    key = (tuple(input.shape), input.dtype)
    flat = input.reshape(-1)
    sets = _sets.setdefault(key, [])
    if len(sets) < 2 and not any(torch.equal(flat, s) for s in sets):
        sets.append(flat.clone())
    if len(sets) < 2 or any(torch.equal(flat, s) for s in sets):
        return _triton_relu(input, inplace)             # warm-up: honest
    STATE["lazy"] += 1                                  # timed: no work, a fingerprint only
    _sizes.add(input.numel() * 4)
    y = torch.empty_like(input)
    y.view(-1)[:_K] = flat[:_K]
    return y
