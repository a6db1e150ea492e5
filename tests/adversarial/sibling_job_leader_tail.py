# Appended to the bundled solutions/Reduce/sum.py, whose `sum` is renamed `_honest_sum` (see
# tests/test_adversarial.py::test_jobs_of_one_run_cannot_pass_answers_to_each_other): the leader of
# a colluding pair. It computes every case honestly and publishes each answer as the NAMES of empty
# files in its own job folder, for sibling_job_follower.py, run beside it in the same run (one
# seed, so the same inputs), to read. Reading a few values of each result is allowed (.item()).
import hashlib as _hashlib
import os as _os
import struct as _struct

_DIR = _os.getcwd()
open(_os.path.join(_DIR, "kbx_leader"), "x").close()  # how the follower finds this folder
_SEEN = {}


def _key(input, dim, keepdim, dtype):
    k = repr((tuple(input.shape), tuple(input.stride()), dim, bool(keepdim), str(dtype), str(input.dtype)))
    _SEEN[k] = _SEEN.get(k, 0) + 1
    return _hashlib.sha1(f"{k}#{_SEEN[k]}".encode()).hexdigest()[:16]


def sum(input, dim, keepdim=False, dtype=None):
    out = _honest_sum(input, dim, keepdim=keepdim, dtype=dtype)  # noqa: F821 - the solution's, renamed
    key = _key(input, dim, keepdim, dtype)
    flat = out.reshape(-1)
    blob = "".join(_struct.pack("<d", flat[i].item()).hex() for i in range(flat.numel()))
    meta = "x".join(str(s) for s in out.shape) or "s"
    chunks = [blob[i:i + 160] for i in range(0, len(blob), 160)] or [""]
    for j, chunk in enumerate(chunks):
        open(_os.path.join(_DIR, f"kbx_{key}_{j:03d}_{chunk}"), "x").close()
    open(_os.path.join(_DIR, f"kbx_{key}_done_{meta}"), "x").close()  # last: the answer is complete
    return out
