# Timed repetitions that do no work and return garbage, judged `ok`: the submission takes over the
# command stream of the harness's own perf server in its worker.
#
# How: the perf server reads the parent's commands (JSON lines) from the worker's stdin, a stream
# bound before the import (worker.py: "bound to this process's stdin now, before the submission
# could swap it") -- bound as a Python object over descriptor 0, not as the pipe itself. During its
# first perf warm-up call the submission keeps a duplicate of descriptor 0 (the parent's pipe) and
# puts a regular file of its job directory in its place (os.dup / os.dup2: no audit event, nothing
# the guard sees). From then on the harness obeys the commands the submission appends to that file,
# always one step ahead, while the submission reads the parent's real commands from its duplicate:
#
#   - per case, seven `time` rounds of one repetition each that keep nothing: every timed call returns
#     at once (garbage: an uninitialised tensor, or the input untouched in place) -- the parent takes
#     their TIMES events as the replies to its seven rounds (it never checks how many repetitions a
#     reply holds; seven samples are never "precise enough", so the parent always asks for seven);
#   - then a `time` repetition that blocks (uncounted: the parent's `wait_for(CHECKED)` skips TIMES
#     events) until the parent's seven real time commands are read from the pipe, which name the
#     repetition the parent keeps (`keep`, drawn with SystemRandom and sent to the candidate only);
#   - then one more `time` repetition, numbered as the parent's kept one (so its inputs are exactly
#     those the baseline computes its reference on) and kept: the only honest timed call, uncounted;
#   - then the honest, watched `check`; after the last case, the four `save`s and a final `prepare`
#     whose call blocks until the parent's `done`, so the process (and its sealed result files) lives
#     until the judge has read them.
#
# The judged timed repetition is right, the check call is right, every sealed file is the harness's
# own: perf `ok`, with a candidate median that measures a call doing nothing. Natively the same run
# is bounded by timed_faster_than_checked / faster_than_roofline (a spin kernel in the lazy calls
# would bring it to the 2x margin), but the random judged repetition -- the defence against wrong
# timed results -- is void, and the harness's server runs whatever commands the submission writes.
#
# Expected from a correct harness: the commands come only from the parent's pipe. The perf server
# now reads a duplicate of it made before the import, with os.read (no Python stream), and checks
# before every read that the duplicate is still that pipe; the file on descriptor 0 is never read.
# This submission's first warm-up call then blocks reading the pipe for commands the parent sends
# only after that call's reply: perf `timeout`, never `ok`. (The parent also refuses a TIMES reply
# with another number of repetitions than it asked for.)
import json
import os

import torch
import triton
import triton.language as tl

_PY = torch._C.DispatchKey.Python
_watched = lambda: torch._C._dispatch_tls_is_dispatch_key_included(_PY)  # noqa: E731
ROUNDS = 7  # perf/timing.py MAX_ROUNDS: one sample a round is never precise enough
LOG = os.path.abspath("hijack.log")


@triton.jit
def _relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x < 0.0, 0.0, x), mask=mask)


def _honest(input, inplace):
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    if x.numel():
        _relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    if inplace and y is not input:
        input.copy_(y)
        y = input
    return y.view(input.shape)


S = {"state": "exe", "sigs": [], "prep": 0, "case": 0, "round": 0, "X": None, "W": None, "buf": b"",
     "job": os.getcwd()}


def _log(msg):
    with open(LOG, "a") as f:
        f.write(msg + "\n")


def _emit(*commands):  # one step ahead of the harness's reader
    os.write(S["W"], b"".join(json.dumps(c).encode() + b"\n" for c in commands))


def _time_cmd(case, first, keep=None):
    return {"cmd": "time", "case": case, "side": "candidate", "reps": 1, "first": first, "keep": keep}


def _parent_command():
    """The parent's next command, from the pipe the harness no longer reads."""
    while b"\n" not in S["buf"]:
        chunk = os.read(S["X"], 65536)
        if not chunk:
            return None
        S["buf"] += chunk
    line, S["buf"] = S["buf"].split(b"\n", 1)
    return json.loads(line)


def _hijack():
    S["X"] = os.dup(0)                                   # the parent's command pipe, kept
    S["W"] = os.open("commands.jsonl", os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    rfd = os.open("commands.jsonl", os.O_RDONLY)
    os.dup2(rfd, 0)                                      # the harness's stdin is now this file
    os.close(rfd)


def _sig(input, inplace):
    return (tuple(input.shape), tuple(input.stride()), bool(inplace))


def relu(input, inplace=False):
    if _watched():
        if S["state"] == "check":                        # the perf check call: honest, then steer on
            out = _honest(input, inplace)
            cmd = _parent_command()
            _log(f"parent: {cmd}")
            c = S["case"]
            if c + 1 < len(S["sigs"]):
                S["case"], S["round"], S["state"] = c + 1, 0, "lazy"
                _emit(_time_cmd(c + 1, 0))
            else:
                S["state"] = "post"
                saves = [{"cmd": "save", "case": k, "which": w, "release": [],
                          "path": os.path.join(S["job"], f"perf_{w}_{k}.pt")}
                         for k in range(len(S["sigs"])) for w in ("check", "timed")]
                _emit(*saves, {"cmd": "prepare", "digest_key": 0, "mutates": [[] for _ in S["sigs"]]})
            return out
        return _honest(input, inplace)                   # exe: honest
    state = S["state"]
    if state == "exe":                                   # first perf warm-up call (prepare)
        _hijack()
        S["state"] = "prepare"
        _emit(_time_cmd(0, 0))                           # what the harness reads after `prepared`
        state = "prepare"
    if state == "prepare":                               # 6 calls a case: first, 2 warm-ups, 3 estimates
        sig = _sig(input, inplace)
        if not S["sigs"] or (sig != S["sigs"][-1] and sig not in S["sigs"]):
            S["sigs"].append(sig)
            S["prep"] = 0
        if sig == S["sigs"][-1] and S["prep"] < 6:
            S["prep"] += 1
            return _honest(input, inplace)
        S["state"] = state = "lazy"                      # prepare is over: round 0 of case 0
        _log(f"prepare over: {len(S['sigs'])} cases {S['sigs']}")
    if state == "lazy":                                  # a counted timed repetition: no work at all
        n = S["round"]
        S["round"] += 1
        if n + 1 < ROUNDS:
            _emit(_time_cmd(S["case"], n + 1))
        else:
            S["state"] = "wait"
            _emit(_time_cmd(S["case"], 10_000))         # an uncounted repetition to wait in
        return input if inplace else torch.empty_like(input)
    if state == "wait":                                  # uncounted: learn the parent's kept repetition
        kept = None
        for _ in range(ROUNDS):
            cmd = _parent_command()
            _log(f"parent: {cmd}")
            if cmd.get("keep") is not None:
                kept = cmd["keep"]
        S["state"] = "honest"
        _emit(_time_cmd(S["case"], kept, keep=kept), {"cmd": "check", "case": S["case"], "side": "candidate"})
        _log(f"case {S['case']}: parent keeps repetition {kept}")
        return input if inplace else torch.empty_like(input)
    if state == "honest":                                # uncounted, kept: on the parent's kept inputs
        S["state"] = "check"
        return _honest(input, inplace)
    if state == "post":                                  # after the saves: live until the parent is done
        while True:
            cmd = _parent_command()
            _log(f"parent: {cmd}")
            if cmd is None or cmd.get("cmd") == "done":
                break
        os._exit(0)
    return _honest(input, inplace)
