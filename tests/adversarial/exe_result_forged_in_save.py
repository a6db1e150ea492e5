# exe `ok` with no work at all: every call launches an empty Triton kernel and returns an
# uninitialised buffer (or, in place, leaves its input as it was); the harness itself then saves
# PyTorch's answer as the call's result and signs the digest of those forged bytes.
#
# How: torch.save truth-tests torch.serialization._serialization_tls.skip_data before it writes each
# storage, so an object planted there runs the submission's code inside the worker's _save_outputs
# (harness/sandbox/worker.py), after the monitors stopped and after `_unchanged` (the last tamper
# check of the call), and the next check comes only after the next call. There it rebinds
# builtins.memoryview. _save_outputs then calls `path.write_bytes(data)`; pathlib's write_bytes calls
# `memoryview(data)` with the saved archive: the stand-in puts the builtin back, loads the archive,
# replaces the output (and, in place, the argument's state) with torch's relu of the input it kept a
# reference to, saves that, rebinds hashlib.sha256 (the worker's `hashlib.sha256(data)` is a module
# attribute looked up at call time) and returns a view of the forgery, which is what is written.
# The sha256 stand-in puts itself back and returns the digest of the forgery, which the signed
# call_done event carries. The op monitor saw one empty Triton launch and no PyTorch compute; the
# parent reads a file whose digest matches; nothing is rebound when the next check runs.
# Verdict here: exe `ok`; a correct harness: `wrong` (as the same file without the planted flag gets)
# or `integrity`. Python 3.11, CPU mode (nothing here is specific to the interpreter).
import builtins
import hashlib
import io

import torch
import triton
import triton.language as tl

_memoryview, _sha256 = memoryview, hashlib.sha256
_pending = []          # the input of the call whose result is about to be saved
_forged = {}
_busy = [False]


@triton.jit
def _nothing(p, BLOCK: tl.constexpr):  # a launch to count; computes nothing
    pass


def _relu(x):
    return torch.where(torch.isnan(x), x, torch.clamp_min(x, 0.0))


class _Sha:
    """hashlib.sha256 for one call: the digest of the forged bytes."""
    def __new__(cls, data=b""):
        hashlib.sha256 = _sha256
        real = _sha256(data)
        forged = _forged.pop("bytes", None)
        return _sha256(forged) if forged is not None else real


class _View:
    """builtins.memoryview for one call: pathlib's write_bytes(data) gets the forgery's bytes."""
    def __new__(cls, data):
        if type(data) is not bytes or data[:2] != b"PK" or not _pending:
            return _memoryview(data)
        builtins.memoryview = _memoryview
        _busy[0] = True
        try:
            x, inplace = _pending.pop()
            payload = torch.load(io.BytesIO(data), weights_only=True)
            y = _relu(x)
            payload["output"] = y.reshape(payload["output"].shape)
            if inplace:
                payload["args_after"] = (y,) + tuple(payload["args_after"][1:])
            buf = io.BytesIO()
            torch.save(payload, buf)
            forged = buf.getvalue()
        finally:
            _busy[0] = False
        _forged["bytes"] = forged
        hashlib.sha256 = _Sha
        return _memoryview(forged)


class _Planted:
    def __bool__(self):  # truth-tested by torch.save before each storage's bytes
        if _pending and not _busy[0]:
            builtins.memoryview = _View
        return False


torch.serialization._serialization_tls.skip_data = _Planted()


def relu(input, inplace=False):
    scratch = torch.empty(1, device=input.device)
    _nothing[(1,)](scratch, BLOCK=16)
    _pending[:] = [(input, inplace)]   # no work at all; the answer is written when it is saved
    if inplace:
        return input
    return torch.empty_like(input)
