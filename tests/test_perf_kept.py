"""What a perf process keeps of a call for the judge (harness/kept.py): outputs in full,
arguments the reference leaves alone as digests of their bytes, and a candidate that changes such an
argument at perf sizes is wrong."""

from __future__ import annotations

import pytest
import torch

from conftest import ROOT, load_metrics, relu_changed_after_exe, run_cli, write_jsonl
from harness.compare import judge_call
from harness.bounded_io import load_tensors, save_tensors
from harness.invoke import call_case, move_like_reference, saved_payload_limit
from harness.kept import changed_leaves, is_digest, kept_record, storage_digest
from harness.taskdef import Case


def test_a_digest_follows_every_byte_of_the_storage_and_the_key():
    base = torch.randn(1000)
    same = base.clone()
    assert storage_digest(base, 7) == storage_digest(same, 7)
    assert storage_digest(base, 7) != storage_digest(base, 8)
    flipped = base.clone()
    flipped.view(torch.uint8)[1234] ^= 1     # one bit of one byte
    assert storage_digest(flipped, 7) != storage_digest(base, 7)
    view = base.clone()[::2]                 # a strided view: the gaps belong to the argument too
    gap = view.untyped_storage()
    torch.empty(0, dtype=torch.uint8).set_(gap, 0, (gap.nbytes(),), (1,))[4] ^= 1  # byte 4 is in element 1, a gap
    assert storage_digest(view, 7) != storage_digest(base[::2], 7)


def test_a_digest_spans_chunks(monkeypatch):
    import harness.kept as kept
    monkeypatch.setattr(kept, "_CHUNK", 64)  # many chunks over a small tensor
    a = torch.arange(100, dtype=torch.float32)
    b = a.clone()
    b[-1] = -1.0                               # in the last chunk
    assert kept.storage_digest(a, 3) != kept.storage_digest(b, 3)
    assert kept.storage_digest(a, 3) == kept.storage_digest(a.clone(), 3)


def test_a_digest_is_the_keyed_linear_forms_of_its_bytes(monkeypatch):
    """The digest, computed in three kernels a chunk and form with the chunks' sums added modulo the
    prime on the host, is the two linear forms it states: each byte times a weight drawn from the
    form's generator (seeded from the key) in byte order, summed modulo 2**61 - 1, here computed one
    byte at a time with Python's integers."""
    import harness.kept as kept
    monkeypatch.setattr(kept, "_CHUNK", 64)
    data = torch.randint(0, 256, (64 * 3 + 17,), dtype=torch.uint8, generator=torch.Generator().manual_seed(1))
    key = (1 << 62) - 5
    words = []
    for seed_offset in range(2):
        generator = torch.Generator().manual_seed((key * 2 + seed_offset) & ((1 << 63) - 1))
        weights = [w for start in range(0, data.numel(), 64)
                   for w in torch.randint(1, 1 << 31, (min(64, data.numel() - start),), generator=generator,
                                          dtype=torch.int64).tolist()]
        words.append(sum(b * w for b, w in zip(data.tolist(), weights)) % ((1 << 61) - 1))
    assert kept.storage_digest(data, key) == f"{kept.DIGEST_PREFIX}{words[0]:016x}{words[1]:016x} of {data.numel()} bytes>"


def _scale_into(x: torch.Tensor, out: torch.Tensor, factor: float = 2.0) -> torch.Tensor:
    torch.mul(x, factor, out=out)
    return out.sum()


def test_kept_record_digests_what_the_reference_leaves_alone_and_copies_the_rest():
    x, out = torch.randn(64), torch.zeros(64)
    before = [x.clone(), out.clone()]
    record = call_case(_scale_into, Case("c", x, out=out))
    changed = changed_leaves(before, [x, out])
    assert changed == {1}                                  # only out= was written
    kept = kept_record(record, changed, key=11)
    assert is_digest(kept.args_after[0]) and isinstance(kept.kwargs_after["out"], torch.Tensor)
    out.fill_(5.0)                                         # a later call reuses the buffers
    assert torch.equal(kept.kwargs_after["out"], before[0] * 2.0) and float(kept.output) != float(out.sum())


def test_an_argument_the_call_returns_is_kept_once(tmp_path):
    x = torch.randn(4096)
    record = call_case(torch.relu_, Case("c", x.clone()))   # in place: returns the argument it changed
    kept = kept_record(record, {0}, key=3)
    assert kept.args_after[0] is kept.output                  # one copy for both...
    assert kept.output.data_ptr() != record.output.data_ptr()  # ...that the next call cannot overwrite
    path = tmp_path / "kept.pt"
    save_tensors(kept.to_payload(), path)
    assert path.stat().st_size < 1.5 * x.numel() * x.element_size()  # written once
    loaded = load_tensors(path, saved_payload_limit([kept]))
    assert judge_call(move_like_reference(loaded, kept), kept) is None
    # an argument the output only resembles (same values, other memory) keeps its own copy
    apart = kept_record(call_case(lambda t: t.relu_().clone(), Case("c", x.clone())), {0}, key=3)
    assert apart.args_after[0] is not apart.output and torch.equal(apart.args_after[0], apart.output)


def test_a_candidate_that_changes_an_argument_the_reference_leaves_alone_is_told_so():
    x = torch.randn(64)
    reference = kept_record(call_case(_scale_into, Case("c", x.clone(), out=torch.zeros(64))), {1}, key=5)

    def scribbles(x, factor=2.0, out=None):
        torch.mul(x, factor, out=out)
        result = out.sum()
        x.zero_()          # uses its input as scratch
        return result

    honest = kept_record(call_case(_scale_into, Case("c", x.clone(), out=torch.zeros(64))), {1}, key=5)
    assert judge_call(honest, reference) is None
    bad = kept_record(call_case(scribbles, Case("c", x.clone(), out=torch.zeros(64))), {1}, key=5)
    assert "argument 0 after the call: the call changed it" in judge_call(bad, reference)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_perf_judges_arguments_by_digest_and_what_the_reference_changes_in_full(tmp_path):
    # right outputs, and once in perf it adds 1 to the first element of its input, which the reference leaves alone
    scribbler = relu_changed_after_exe(after="if x.numel() and x is input: _bump_first[(1,)](x)")
    fill = (ROOT / "solutions" / "Index" / "index_fill_.py").read_text()  # the reference fills its input in place
    rows = [{"file": "Activation/relu.py", "predict": scribbler, "sample_id": 0},
            {"file": "Index/index_fill_.py", "predict": fill, "sample_id": 1}]
    run_cli("eval", str(write_jsonl(tmp_path / "p.jsonl", rows)), "--out", str(tmp_path / "out"), "-q",
            env={"KERNELBENCHX_PERF_ON_CPU": "1"})
    metrics = {m["sample_id"]: m for m in load_metrics(tmp_path / "out")}
    bad, in_place = metrics[0], metrics[1]
    assert bad["exe"]["status"] == "ok", bad["exe"]
    assert bad["perf"]["status"] == "wrong" and "the call changed it" in bad["perf"]["detail"], bad["perf"]
    assert in_place["perf"]["status"] == "ok", in_place["perf"]
    # the trusted baseline is forked by the fork server (no imports to wait for after exe)
    assert {m["info"].get("baseline_containment") for m in (bad, in_place)} == {"forkserver-subreaper"}


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_the_baseline_finds_the_arguments_its_reference_changes():
    from harness import protocol
    from harness.perf.server import PerfServer
    from harness.task import get_task

    def prepared(task_id: str) -> dict:
        task, events = get_task(task_id), []
        server = PerfServer(task, 0, "cpu", {protocol.EAGER: task.reference},
                            lambda event, **fields: events.append(fields), trusted=True)
        server._cmd_prepare({})
        return events[-1]

    fill = prepared("Index/index_fill_.py")   # index_fill_(dim, input, index, value): leaf 0 is the input
    assert [c["mutates"] for c in fill["cases"]] == [[0]] * len(fill["cases"])
    relu = prepared("Activation/relu.py")    # on the CPU, one case in place and one not
    assert [c["mutates"] for c in relu["cases"]] == [[0] if "inplace=True" in c["describe"] else []
                                                     for c in relu["cases"]]
    assert {len(c["mutates"]) for c in relu["cases"]} == {0, 1} and relu["digest_key"] > 0


@pytest.mark.gpu
def test_results_reach_the_host_through_page_locked_memory_unchanged():
    from harness.perf.server import to_host

    for t in (torch.randn(4097, device="cuda"), torch.randn(64, 33, device="cuda").t(),
              torch.arange(10, device="cuda").expand(3, 10), torch.zeros(0, 5, device="cuda", dtype=torch.bfloat16)):
        host = to_host(t)
        assert host.device.type == "cpu" and host.dtype == t.dtype and (host.is_pinned() or t.numel() == 0)
        assert torch.equal(host, t.cpu())
