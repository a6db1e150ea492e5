"""Spare workers (harness/sandbox/forkserver.py): the fork server keeps a child per kind of job
prewarmed (on a GPU, its CUDA context), and the next such job starts in it. A spare is forked by
the server, never by a worker, so jobs stay independent; it is stopped with its GPU's jobs while
another job is timed; none outlives the run."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

from conftest import ROOT
from harness.api import Evaluator
from harness.config import ENV_NO_SPARES, ENV_PERF_ON_CPU
from harness.sandbox.forkserver import spare_env, spare_kind

RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
WRONG_RELU = RELU.replace("tl.where(x < 0.0, 0.0, x)", "tl.where(x < 0.0, 0.5, x)")
CRASHES = "import os\n\ndef relu(input, inplace=False):\n    os._exit(7)\n"
# A submission that leaves what it can for the jobs after it: a changed environment, module state,
# files in its own home and temp directories. None of it may reach a later job's process.
LEAVES_STATE = RELU + """
import os, sys, tempfile
os.environ["KBX_LEFT_BEHIND"] = "1"
sys.modules["torch"].kbx_left_behind = True
for folder in (os.path.expanduser("~"), tempfile.gettempdir()):
    with open(os.path.join(folder, "left_behind"), "w") as f:
        f.write("1")
"""
# Correct only where nothing was left behind by an earlier job: otherwise its kernel never runs.
SEES_STATE = RELU.replace("    x = input.contiguous()", """    import os, sys, tempfile
    files = [os.path.join(d, "left_behind") for d in (os.path.expanduser("~"), tempfile.gettempdir())]
    if ("KBX_LEFT_BEHIND" in os.environ or hasattr(sys.modules["torch"], "kbx_left_behind")
            or any(os.path.exists(f) for f in files)):
        return torch.empty_like(input)
    x = input.contiguous()""", 1)


# Fails where the worker holds one of the fork server's or its spares' sockets (their inodes are
# put in for SERVER_SOCKETS): the server's control socket would let it send the parent forged
# replies, a spare's job socket would let it hand a spare a job of its own making. A socket the
# worker opens itself (on a GPU, the CUDA driver holds one) is not one of them.
HOLDS_NO_SOCKET = RELU.replace("    x = input.contiguous()", """    import os, stat
    server_sockets = SERVER_SOCKETS
    held = []
    for fd in range(3, 1024):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISSOCK(st.st_mode) and st.st_ino in server_sockets:
            held.append(fd)
    if held:
        raise RuntimeError(f"sockets of the fork server held: {held}")
    x = input.contiguous()""", 1)


def _socket_inodes(pid: int) -> set[int]:
    """The inodes of the sockets process `pid` holds (the links of /proc/PID/fd read socket:[N])."""
    inodes = set()
    for link in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(link)
        except OSError:
            continue  # closed since the listing
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:["):-1]))
    return inodes


def _request(module="harness.sandbox.worker", warm=None, **env):
    return {"module": module, "warm": warm, "env": env}


def test_the_edits_make_the_variants_they_name():
    assert WRONG_RELU != RELU and "KBX_LEFT_BEHIND" in SEES_STATE and "sockets of the fork server held" in HOLDS_NO_SOCKET


def test_a_spare_serves_only_jobs_with_its_module_prewarm_and_device_variables():
    warm = {"device": "cuda:0", "interpret": False}
    gpu0 = spare_kind(_request(warm=warm, CUDA_VISIBLE_DEVICES="0", HOME="/jobs/a"))
    assert gpu0 == spare_kind(_request(warm=warm, CUDA_VISIBLE_DEVICES="0", HOME="/jobs/b"))  # job paths differ
    assert gpu0 != spare_kind(_request(warm=warm, CUDA_VISIBLE_DEVICES="1", HOME="/jobs/a"))
    assert gpu0 != spare_kind(_request(warm=warm, CUDA_VISIBLE_DEVICES="0", CUDA_MODULE_LOADING="EAGER"))
    assert gpu0 != spare_kind(_request(warm={"device": "cpu", "interpret": True}, CUDA_VISIBLE_DEVICES="0"))
    assert gpu0 != spare_kind(_request(module="harness.perf.baseline", warm=warm, CUDA_VISIBLE_DEVICES="0"))
    assert spare_kind(_request(CUDA_VISIBLE_DEVICES="0")) is None  # no prewarm asked: no spare


def test_a_spare_waits_with_the_server_s_paths_and_the_job_s_device():
    server = {"HOME": "/scratch/zygote/home", "TMPDIR": "/scratch/zygote/tmp", "CUDA_VISIBLE_DEVICES": "3",
              "CUDA_LAUNCH_BLOCKING": "1", "PATH": "/bin"}
    job = {"HOME": "/scratch/job7/home", "TMPDIR": "/scratch/job7/tmp", "CUDA_VISIBLE_DEVICES": "0", "PATH": "/bin"}
    assert spare_env(server, job) == {"HOME": "/scratch/zygote/home", "TMPDIR": "/scratch/zygote/tmp",
                                      "PATH": "/bin", "CUDA_VISIBLE_DEVICES": "0"}


def test_spares_are_kept_as_deep_as_asked_and_kinds_share_a_full_server_evenly(monkeypatch):
    """Each kind keeps as many spares as its prewarm asked for; a job takes the oldest (the most
    warmed); when the server is full a kind without a spare takes one from the kind with the most,
    and kinds that both want more even out instead of evicting each other's in turn."""
    import socket

    from harness.sandbox import forkserver
    pids = itertools.count(1000)
    killed = []
    monkeypatch.setattr(forkserver, "MAX_SPARES", 6)
    monkeypatch.setattr(forkserver.os, "fork", lambda: next(pids))
    monkeypatch.setattr(forkserver.os, "kill", lambda pid, sig: killed.append(pid))
    monkeypatch.setattr(forkserver.socket, "send_fds", lambda *a, **k: None)
    spares = forkserver.Spares(socket.socket(), 1)
    monkeypatch.setattr(spares, "_tell", lambda message: None)
    request = _request(warm={"device": "cuda:0"}, CUDA_VISIBLE_DEVICES="0")
    spares.add("a", request, depth=4)
    assert [pid for pid, _ in spares._by_kind["a"]] == [1000, 1001, 1002, 1003]
    assert spares.take("a", request, []) == 1000  # the oldest
    assert len(spares._by_kind["a"]) == 3
    spares.add("a", request)  # refilled to the depth asked for before
    assert len(spares._by_kind["a"]) == 4
    spares.add("b", request, depth=4)  # full at 6: b takes from a until the two are even
    assert (len(spares._by_kind["a"]), len(spares._by_kind["b"])) == (3, 3) and killed == [1004]
    spares.take("b", request, [])
    spares.add("b", request)  # room again: b refills without taking from a
    assert (len(spares._by_kind["a"]), len(spares._by_kind["b"])) == (3, 3) and killed == [1004]


def _spare_pids(ev: Evaluator, within_s: float = 10.0) -> set[int]:
    """The spares the parent was told of and not yet told gone (waits for one: the server tells the
    parent of the spare it makes after a job once it has answered the job)."""
    deadline = time.monotonic() + within_s
    while not ev._runner._zygote._spares and time.monotonic() < deadline:
        time.sleep(0.05)
    return set(ev._runner._zygote._spares)


def _gone(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.1)
    return False


def test_later_jobs_start_in_spares_keep_their_own_verdicts_and_none_outlives_the_run():
    with Evaluator(perf=False, workers=1, timeout=60) as ev:
        records = [ev.submit("Activation/relu.py", code).result(timeout=300)
                   for code in (RELU, LEAVES_STATE, SEES_STATE, WRONG_RELU, CRASHES, RELU)]
        spares = _spare_pids(ev)
        assert spares, "a spare is kept for the next job"
    assert [r["verdict"] for r in records] == ["ok", "ok", "ok", "wrong", "crashed", "ok"], \
        [r["exe"] for r in records]
    assert [r["info"]["worker_start"] for r in records] == ["spare"] * 6  # the first one's made at open
    assert all(_gone(pid) for pid in spares)


def test_a_job_shared_out_starts_every_process_in_a_spare_and_the_spares_are_made_again():
    """An evaluator keeps as many spares as a job may take processes: each share starts in one
    (none waits for a cold start), and the server makes as many again for the next job."""
    with Evaluator(perf=False, workers=3, shards=3, timeout=60) as ev:
        records = [ev.submit("Activation/relu.py", code).result(timeout=300) for code in (RELU, WRONG_RELU)]
        deadline = time.monotonic() + 20
        while len(_spare_pids(ev)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        spares = _spare_pids(ev)
    assert [r["verdict"] for r in records] == ["ok", "wrong"]
    assert [r["info"]["process_starts"] for r in records] == [{"spare": 3}] * 2
    assert len(spares) == 3 and all(_gone(pid) for pid in spares)


def test_a_spare_that_died_is_replaced_and_its_job_forked(tmp_path):
    with Evaluator(perf=False, workers=1, timeout=60) as ev:
        first = ev.submit("Activation/relu.py", RELU).result(timeout=300)
        for pid in _spare_pids(ev):
            os.kill(pid, 9)
            assert _gone(pid)
        time.sleep(0.5)  # the server reaps it
        second = ev.submit("Activation/relu.py", RELU).result(timeout=300)
        third = ev.submit("Activation/relu.py", RELU).result(timeout=300)
    assert [r["verdict"] for r in (first, second, third)] == ["ok"] * 3
    assert [r["info"]["worker_start"] for r in (first, second, third)] == ["spare", "fork", "spare"]


def test_spares_are_stopped_with_the_jobs_while_one_is_timed(monkeypatch):
    """A spare's start is GPU work on a GPU (its CUDA context): it is held like a job's processes."""
    monkeypatch.setenv(ENV_PERF_ON_CPU, "1")  # on a GPU perf is timed there anyway
    with Evaluator(perf=True, workers=2, timeout=120) as ev:
        records = ev.evaluate([("Activation/relu.py", RELU)] * 3)
        runner = ev._runner
        [slot] = set(runner.slots())
        held_s = runner._zygote.spares_of(runner._visible_devices(slot)).held_s
    assert [r["verdict"] for r in records] == ["ok"] * 3, [r["perf"] for r in records]
    assert held_s > 0.05


def test_no_worker_holds_a_socket_of_the_fork_server_or_its_spares(monkeypatch):
    """Every job its own kind (a device variable that differs), so each is forked while the spares
    of the kinds before it wait in the server: their sockets must not reach it."""
    import harness.run.runner as runner
    kinds, worker_env = itertools.count(), runner.worker_env

    def a_kind_per_job(*args, **kwargs):
        return {**worker_env(*args, **kwargs), "CUDA_KBX_TEST_KIND": str(next(kinds))}

    monkeypatch.setattr(runner, "worker_env", a_kind_per_job)
    with Evaluator(perf=False, workers=1, timeout=60) as ev:
        zygote, records, checked = ev._runner._zygote, [], 0
        for _ in range(3):
            holders = {zygote.proc.pid, *_spare_pids(ev)}
            inodes = set().union(*(_socket_inodes(pid) for pid in holders))
            checked += len(inodes)
            code = HOLDS_NO_SOCKET.replace("SERVER_SOCKETS", repr(inodes), 1)
            records.append(ev.submit("Activation/relu.py", code).result(timeout=300))
        spares = _spare_pids(ev)
    assert checked >= 3 * 2  # the server's control socket and a spare's at least, each time
    assert [r["verdict"] for r in records] == ["ok"] * 3, [r["call"]["detail"][-200:] for r in records]
    assert [r["info"]["worker_start"] for r in records] == ["fork"] * 3 and len(spares) >= 3


def test_requests_sent_back_to_back_arrive_one_by_one_with_their_descriptors():
    """A prewarm (no descriptors) and a job request (its pipe ends) sent at once are read apart."""
    import json
    import socket

    from harness.run.zygote import control_pair
    from harness.sandbox.forkserver import recv_request
    parent, server = control_pair()
    read_end, write_end = os.pipe()
    try:
        parent.sendall(json.dumps({"prewarm": True}).encode() + b"\n")
        socket.send_fds(parent, [json.dumps({"req": 1}).encode() + b"\n"], [write_end])
        first, first_fds = recv_request(server)
        second, second_fds = recv_request(server)
        assert (first, first_fds) == ({"prewarm": True}, [])
        assert second == {"req": 1} and len(second_fds) == 1
        os.write(second_fds[0], b"x")  # the descriptor that came with it is the pipe's write end
        assert os.read(read_end, 1) == b"x"
        os.close(second_fds[0])
    finally:
        for fd in (read_end, write_end):
            os.close(fd)
        parent.close()
        server.close()


def test_spares_can_be_turned_off_to_measure_what_they_save(monkeypatch):
    monkeypatch.setenv(ENV_NO_SPARES, "1")
    with Evaluator(perf=False, workers=1, timeout=60) as ev:
        records = [ev.submit("Activation/relu.py", RELU).result(timeout=300) for _ in range(2)]
        time.sleep(0.5)  # a spare would have been reported by now
        assert not ev._runner._zygote._spares
    assert [(r["verdict"], r["info"]["worker_start"]) for r in records] == [("ok", "fork")] * 2


def test_a_request_too_large_for_the_fork_server_s_channel_starts_a_new_interpreter(monkeypatch):
    """The channel keeps one message per request, and a message has a size limit (the socket's send
    buffer, about 200 kB by default): a job whose environment is larger runs in a new interpreter."""
    import harness.run.runner as runner
    worker_env = runner.worker_env

    def large(*args, **kwargs):
        return {**worker_env(*args, **kwargs), **{f"CUDA_KBX_TEST_{i}": "x" * 100_000 for i in range(3)}}

    monkeypatch.setattr(runner, "worker_env", large)
    with Evaluator(perf=False, workers=1, timeout=60) as ev:
        records = [ev.submit("Activation/relu.py", RELU).result(timeout=300) for _ in range(2)]
    assert [(r["verdict"], r["info"]["worker_start"]) for r in records] == [("ok", "interpreter")] * 2
