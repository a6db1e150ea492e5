"""A perf result the candidate saves is judged only as the bytes the harness wrote. Either it lies
in a memory-backed file sealed against changes, which the signed ``saved`` event names by
descriptor and inode (the judge opens it through the candidate's pid and refuses another inode or a
file without the seals), or, where no such file can be made, in a file whose SHA-256 the event names
(hashed as torch.save streams the bytes, before any other code could change the file; the judge
reads the file into its own memory and refuses other bytes). The parent refuses a ``saved`` event
that names neither."""

from __future__ import annotations

import hashlib
import os
from types import SimpleNamespace

import pytest
import torch

from harness.invoke import call_case
from harness.perf.server import _DigestingWriter, _judge_saved, _ResultFile, _SealedResult, to_host
from harness.run.perf_stage import PerfFailure, _judge_checks
from harness.bounded_io import save_tensors
from harness.sealed_files import SEALS, SealedFile, seal, sealable_file
from harness.task import get_task
from harness.taskdef import Case, map_tensors


def _saved(tmp_path, output: torch.Tensor) -> tuple:
    task = get_task("Activation/relu.py")
    case = Case("c", torch.linspace(-2, 2, 64))
    reference = call_case(task.reference, Case("c", case.args[0].clone()))
    candidate = call_case(lambda x, inplace=False: output, case)
    path = tmp_path / "perf_check_0.pt"
    with open(path, "wb") as file:
        writer = _DigestingWriter(file)
        save_tensors(map_tensors(candidate.to_payload(), to_host), writer)
    return task, case, reference, path, writer.hexdigest()


def test_the_digest_is_the_files_and_the_judge_accepts_those_bytes(tmp_path):
    x = torch.linspace(-2, 2, 64)
    task, case, reference, path, digest = _saved(tmp_path, torch.relu(x))
    assert digest == hashlib.sha256(path.read_bytes()).hexdigest()
    assert _judge_saved(task, case, reference, _ResultFile(path, digest))["ok"]


@pytest.mark.parametrize("change", ["append", "overwrite"])
def test_bytes_changed_after_the_harness_wrote_them_are_refused(tmp_path, change):
    x = torch.linspace(-2, 2, 64)
    task, case, reference, path, digest = _saved(tmp_path, torch.relu(x))
    data = bytearray(path.read_bytes())
    if change == "append":
        data += b"\0" * 64
    else:
        data[-200] ^= 0xFF
    path.write_bytes(bytes(data))
    verdict = _judge_saved(task, case, reference, _ResultFile(path, digest))
    assert not verdict["ok"] and verdict["status"] == "integrity" and "SHA-256" in verdict["detail"], verdict


needs_seals = pytest.mark.skipif(sealable_file("probe") is None, reason="no sealable memory-backed files here")


def _sealed(output: torch.Tensor, sealed: bool = True) -> tuple:
    """ReLU's reference and a result saved as the candidate's server saves it, in a memory-backed
    file of this process's (sealed unless told otherwise)."""
    task = get_task("Activation/relu.py")
    case = Case("c", torch.linspace(-2, 2, 64))
    reference = call_case(task.reference, Case("c", case.args[0].clone()))
    candidate = call_case(lambda x, inplace=False: output, case)
    fd = sealable_file("test-result")
    with open(fd, "wb", closefd=False) as file:
        save_tensors(map_tensors(candidate.to_payload(), to_host), file)
    if sealed:
        return task, case, reference, seal(fd)
    info = os.fstat(fd)
    return task, case, reference, SealedFile(fd, info.st_ino, info.st_dev, info.st_size)


@needs_seals
def test_a_sealed_result_is_judged_where_it_lies_and_cannot_be_changed():
    x = torch.linspace(-2, 2, 64)
    task, case, reference, sealed = _sealed(torch.relu(x))
    try:
        assert _judge_saved(task, case, reference, _SealedResult(os.getpid(), sealed))["ok"]
        # the kernel keeps the bytes: neither a write nor a truncation reaches them
        with pytest.raises(PermissionError):
            os.pwrite(sealed.fd, b"\0" * 8, 100)
        with pytest.raises(PermissionError):
            os.ftruncate(sealed.fd, 10)
        wrong = _judge_saved(task, case, reference, _SealedResult(os.getpid(), _sealed(torch.zeros(64))[3]))
        assert not wrong["ok"] and wrong["status"] == "wrong", wrong
    finally:
        os.close(sealed.fd)


@needs_seals
@pytest.mark.parametrize("swap", ["another_file", "unsealed", "closed", "size"])
def test_a_sealed_result_is_refused_unless_it_is_the_named_file_with_its_seals(swap):
    x = torch.linspace(-2, 2, 64)
    task, case, reference, named = _sealed(torch.zeros(64))
    _, _, _, forged = _sealed(torch.relu(x), sealed=swap != "unsealed")
    try:
        if swap == "another_file":  # a sealed file with the right answer, under the named descriptor
            os.dup2(forged.fd, named.fd)
        elif swap == "unsealed":    # the right answer in a file nobody sealed, named as it is
            named = forged
        elif swap == "closed":
            os.close(named.fd)
        else:                       # the signed size is not the file's
            named = SealedFile(named.fd, named.ino, named.dev, named.size + 1)
        verdict = _judge_saved(task, case, reference, _SealedResult(os.getpid(), named))
        assert not verdict["ok"] and verdict["status"] == "integrity", verdict
        assert {"another_file": "no longer the file", "unsealed": "not sealed", "closed": "is gone",
                "size": "named: "}[swap] in verdict["detail"], verdict
    finally:
        for fd in {named.fd, forged.fd}:
            try:
                os.close(fd)
            except OSError:
                pass


def test_seals_are_what_the_reader_demands():
    # every change of bytes or size, and of the seals themselves (or SEALS is 0 where there are none)
    import fcntl

    assert SEALS in (0, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)


class _Saver:
    """A candidate that answers `save` with a `saved` event carrying ``fields``, and notes the
    descriptors each save command lets it release."""

    pid = 4242

    def __init__(self, fields):
        self.fields, self.outcome = fields, SimpleNamespace(protocol_error=None, timed_out=False)
        self.released: list[list[int]] = []

    def request(self, command, expected, deadline):
        self.released.append(command["release"])
        fields = self.fields(command) if callable(self.fields) else self.fields
        return {"event": "saved", **fields}


@pytest.mark.parametrize("fields", [{}, {"sha256": ""}, {"sha256": "0" * 63}, {"sha256": "G" * 64}, {"sha256": 12},
                                    {"sealed": {"fd": 3, "ino": 9, "dev": 1}}, {"sealed": {"fd": -1, "ino": 9, "dev": 1, "size": 8}},
                                    {"sealed": {"fd": "3", "ino": 9, "dev": 1, "size": 8}}, {"sealed": [3, 9, 1, 8]}])
def test_a_saved_event_naming_neither_a_sealed_file_nor_a_digest_is_integrity(tmp_path, fields):
    baseline = SimpleNamespace(send=lambda command: pytest.fail("judged a result without a digest"))
    with pytest.raises(PerfFailure) as failure:
        _judge_checks(_Saver(fields), baseline, 1, tmp_path, deadline=0.0)
    assert failure.value.result.status == "integrity" and "sealed file or SHA-256" in failure.value.result.detail


def test_the_judge_is_told_the_candidates_pid_and_judged_files_are_released(tmp_path):
    sent, fds = [], iter(range(10, 20))

    def fields(command):
        return {"sealed": {"fd": next(fds), "ino": 7, "dev": 1, "size": 100}}

    baseline = SimpleNamespace(send=lambda command: sent.append(command) or True,
                               wait_for=lambda event, deadline: {"event": "verdict", "ok": True, "costs": {}},
                               clock=SimpleNamespace(now=lambda: 0.0))
    saver = _Saver(fields)
    _judge_checks(saver, baseline, 2, tmp_path, deadline=0.0)
    assert [c["sealed"] for c in sent] == [{"fd": fd, "ino": 7, "dev": 1, "size": 100, "pid": 4242}
                                           for fd in range(10, 14)]
    assert all("sha256" not in c for c in sent)
    # the pipeline judges one result while the next is saved: a file is released once its verdict is in
    assert saver.released == [[], [], [10], [11]]
