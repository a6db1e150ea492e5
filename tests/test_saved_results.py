"""A perf result the candidate saves is judged only as the bytes the harness wrote: the signed
``saved`` event names their SHA-256 (hashed as torch.save streams them, before any other code could
change the file), the judge reads the file into its own memory and refuses other bytes, and the
parent refuses a ``saved`` event without a digest."""

from __future__ import annotations

import hashlib
from types import SimpleNamespace

import pytest
import torch

from harness.invoke import call_case
from harness.perf.server import _DigestingWriter, _judge_saved, to_host
from harness.run.perf_stage import PerfFailure, _judge_checks
from harness.bounded_io import save_tensors
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
    assert _judge_saved(task, case, reference, path, digest)["ok"]


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
    verdict = _judge_saved(task, case, reference, path, digest)
    assert not verdict["ok"] and verdict["status"] == "integrity" and "SHA-256" in verdict["detail"], verdict


class _Saver:
    """A candidate that answers `save` with a `saved` event carrying ``sha256``."""

    def __init__(self, sha256):
        self.sha256, self.outcome = sha256, SimpleNamespace(protocol_error=None, timed_out=False)

    def request(self, command, expected, deadline):
        return {"event": "saved", **({"sha256": self.sha256} if self.sha256 is not None else {})}


@pytest.mark.parametrize("sha256", [None, "", "0" * 63, "G" * 64, 12])
def test_a_saved_event_without_a_digest_is_integrity(tmp_path, sha256):
    baseline = SimpleNamespace(send=lambda command: pytest.fail("judged a result without a digest"))
    with pytest.raises(PerfFailure) as failure:
        _judge_checks(_Saver(sha256), baseline, 1, tmp_path, deadline=0.0)
    assert failure.value.result.status == "integrity" and "SHA-256" in failure.value.result.detail
