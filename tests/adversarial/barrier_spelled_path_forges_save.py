# exe `ok` with no work at all: the Triton kernel only writes a sentinel, and PyTorch's ReLU is
# written into the harness's own copies of the call's outputs while the harness saves them, inside
# the code barrier (guard.CodeBarrier) that is meant to keep every function of the submission's
# from starting there.
#
# How: the barrier decides "the submission's code" by file name only (harness/sandbox/guard.py,
# CodeBarrier.__init__.submissions: `name.startswith(root + "/")` for every library root), without
# the guard hook's rule that a name spelled with "/../" is the submission's wherever it seems to
# start (guard.py kind(), the path_spelled_into_torch.py fix). The submission writes a module into
# its job directory and imports it through the sys.path entry "<torch dir>/../../..<job dir>": every
# function of that module has a co_filename starting with torch's folder, so the barrier's profile
# function lets it start. A class of that module with a Python metaclass is registered with
# os.PathLike; torch.save's `isinstance(f, (str, os.PathLike))` (before the pickling) then runs the
# metaclass's __subclasscheck__ inside the save. That gadget rebinds torch.serialization.location_tag,
# which _save's persistent_id calls with every storage it is about to write (a global looked up at
# the call): the
# stand-in overwrites the harness's clone of the output (recognised by the sentinel) with
# PyTorch's ReLU of the input it kept. An int subclass of the same module planted as
# torch.utils.serialization.config.save.storage_alignment (its __str__ runs after the pickling,
# config_planted_in_save.py's spot) puts torch.serialization.location_tag back before the save returns, so the next
# module-snapshot check sees nothing rebound.
# The same stand-in rewrites a kept perf result as _cmd_save (harness/perf/server.py) saves it: in
# the kept copy of a timed repetition's or the check call's result; the sentinel the kernel wrote
# carries a per-call tag, so the stand-in finds which call's input it must answer for.
# (Not finished: with KERNELBENCHX_PERF_ON_CPU=1 perf comes back `wrong` on the inplace-strided check
# call, whose kept copy the stand-in does not recognise yet; the barrier was not what stopped it.)
# Verdict here: exe `ok`; a correct harness: `integrity` (the submission's code ran while the
# harness was saving a call's outputs) or `wrong` (the kernel writes a constant).
import importlib
import os
import sys

import torch
import triton
import triton.language as tl

_GADGET = r'''
import abc
import torch
import torch.serialization as SER

HISTORY = []  # (tag, input, inplace) of the latest calls
SENTINEL = 12345.0
_real_location_tag = SER.location_tag


def _u8(storage):
    return torch.empty(0, dtype=torch.uint8).set_(storage, 0, (storage.nbytes(),), (1,))


def _relu(x):
    return torch.where(torch.isnan(x), x, torch.clamp_min(x, 0))


def _forging_location_tag(obj):
    SER.location_tag = _real_location_tag          # one storage at a time; put back at once
    try:
        if isinstance(obj, torch.UntypedStorage):
            dst = _u8(obj)
            for tag, x, inplace in reversed(HISTORY):   # which call's copy this is
                if inplace:   # a copy of the untouched input, in either layout
                    probes = [x.contiguous(), torch.empty_like(x).copy_(x)]
                else:         # the output, full of this call's sentinel
                    probes = [torch.full_like(x.contiguous(), SENTINEL + tag)]
                done = False
                whole = _u8(x.untyped_storage())   # a copy of the whole buffer a strided input views
                if inplace and dst.numel() == whole.numel() and torch.equal(dst, whole):
                    view = torch.empty(0, dtype=x.dtype).set_(obj, x.storage_offset(), x.shape, x.stride())
                    view.copy_(_relu(x))
                    break
                for probe in probes:
                    want = _u8(probe.untyped_storage())
                    if dst.numel() == want.numel() and torch.equal(dst, want):
                        dst.copy_(_u8(torch.empty_like(probe).copy_(_relu(x).reshape(probe.shape)).untyped_storage()))
                        done = True
                        break
                if done:
                    break
    finally:
        SER.location_tag = _forging_location_tag       # for the next storage of this save
    return _real_location_tag(obj)


class Alignment(int):
    def __str__(self):  # torch.save: str(config.save.storage_alignment), after the pickling
        SER.location_tag = _real_location_tag          # put back before the save returns
        return int.__str__(self)


class _Meta(type):
    def __subclasscheck__(cls, sub):       # run by isinstance(f, os.PathLike) in torch.save
        if HISTORY and SER.location_tag is _real_location_tag and sub.__name__ == "BytesIO":
            SER.location_tag = _forging_location_tag
        return False


class Planted(metaclass=_Meta):
    pass


class Invalidate(abc.ABC):
    pass


def finish():
    SER.location_tag = _real_location_tag
'''


def _build():
    here = os.path.dirname(os.path.abspath(__file__))
    d = os.path.join(here, "kbx_bar")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kbx_bar_mod.py"), "w") as fh:
        fh.write(_GADGET)
    torch_dir = os.path.dirname(torch.__file__)
    sys.path.insert(0, torch_dir + "/.." * (torch_dir.count("/") + 2) + d)
    importlib.invalidate_caches()
    import kbx_bar_mod
    os.PathLike.register(kbx_bar_mod.Planted)
    import torch.utils.serialization.config as serialization_config
    serialization_config.save.storage_alignment = kbx_bar_mod.Alignment(64)
    return kbx_bar_mod


_G = _build()
_COUNT = [0]


@triton.jit
def _sentinel(y_ptr, n, tag, BLOCK: tl.constexpr):  # writes a constant (the call's tag): no ReLU
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, (tl.zeros((BLOCK,), tl.float32) + tag).to(y_ptr.dtype.element_ty), mask=m)


def relu(input, inplace=False):
    # a fresh registration with any ABC bumps abc's invalidation counter, so torch.save's
    # isinstance(BytesIO, os.PathLike) is decided again (running the metaclass) at the next save
    class _Fresh:
        pass
    _G.Invalidate.register(_Fresh)
    scratch = torch.empty_like(input.contiguous())
    n = scratch.numel()
    _COUNT[0] = (_COUNT[0] + 1) % 1024
    tag = float(_COUNT[0]) if input.dtype == torch.float32 else 0.0
    _sentinel[(max(1, triton.cdiv(n, 1024)),)](scratch, n, 12345.0 + tag, BLOCK=1024)
    _G.HISTORY.append((tag, input, inplace))
    del _G.HISTORY[:-512]
    out = input if inplace else scratch.view(input.shape)
    return out
