"""The warm evaluator (harness.api.Evaluator) and ``kernelbenchx serve`` on top of it, in CPU mode:
concurrent submissions get their own verdicts, a hanging or crashing one blocks nobody, a full
queue pushes back, the server binds to loopback only unless told, and shuts down cleanly."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from harness.api import Evaluator, PoolClosed, QueueFull
from harness.serve import EvaluationServer, RemoteBindRefused, check_bind, shutdown

RELU = (ROOT / "solutions" / "Activation" / "relu.py").read_text()
GELU = (ROOT / "solutions" / "Activation" / "gelu.py").read_text()
WRONG_RELU = RELU.replace("tl.where(x < 0.0, 0.0, x)", "tl.where(x < 0.0, 0.5, x)")
HANGS = "import time\n\ndef relu(input, inplace=False):\n    time.sleep(600)\n"
CRASHES = "import os\n\ndef relu(input, inplace=False):\n    os._exit(7)\n"
DEEP_CHAIN = (ROOT / "tests" / "adversarial" / "deep_folder_chain.py").read_text()


def test_a_job_dir_shaped_against_removal_neither_changes_verdicts_nor_fails_close():
    """A submission leaves a chain of 1,500 folders with data at the bottom (a recursive removal
    raised RecursionError: harness_error, a close that raised, the scratch left on disk): its own
    verdict, the evaluator serves on, and close removes every folder of the evaluator."""
    ev = Evaluator(perf=False, workers=1, timeout=20)
    folders = [ev._runner._scratch, Path(ev._scratch.name)]
    try:
        deep = ev.submit("Activation/relu.py", DEEP_CHAIN).result(timeout=300)
        after = ev.submit("Activation/relu.py", RELU).result(timeout=300)
    finally:
        ev.close()
    assert deep["verdict"] in ("error", "integrity"), deep["call"]  # integrity: the disk watch saw it first
    assert after["verdict"] == "ok"
    assert ev.left_behind == [] and not [f for f in folders if f.exists()]


def test_the_edit_makes_a_wrong_relu():
    assert WRONG_RELU != RELU


@pytest.fixture(scope="module")
def warm():
    with Evaluator(perf=False, workers=2, timeout=20) as ev:
        yield ev


def test_concurrent_submissions_get_their_own_verdicts_and_a_hang_blocks_nobody(warm):
    started = time.monotonic()
    hang = warm.submit("Activation/relu.py", HANGS, timeout=8)
    others = {name: warm.submit(task, code) for name, task, code in (
        ("right", "Activation/relu.py", RELU), ("wrong", "Activation/relu.py", WRONG_RELU),
        ("crash", "Activation/relu.py", CRASHES), ("gelu", "Activation/gelu.py", GELU),
        ("unknown task", "Nope/nothing.py", RELU))}
    records = {name: f.result(timeout=300) for name, f in others.items()}
    assert records["right"]["verdict"] == "ok" and records["gelu"]["verdict"] == "ok"
    assert records["wrong"]["verdict"] == "wrong" and records["wrong"]["exe_ok"] is False
    assert records["crash"]["verdict"] == "crashed"
    assert records["unknown task"]["verdict"] == "error" and "unknown task" in records["unknown task"]["call"]["detail"]
    assert records["gelu"]["task_id"] == "Activation/gelu.py" and records["right"]["cases_total"]["core"] > 0
    hung = hang.result(timeout=300)
    assert hung["verdict"] == "timeout", hung["call"]
    # the hang held one of the two slots for its 8 s; the five others ran on the other slot meanwhile
    assert time.monotonic() - started < 300


def test_a_submission_spinning_at_import_is_held_to_the_requests_time_limit(warm):
    """The import (load stage) is bounded by the time a request asks for, not only by the default
    60 s: one spinning at import held a slot that long whatever its request said."""
    started = time.monotonic()
    record = warm.submit("Activation/relu.py", "while True:\n    pass\n", timeout=4).result(timeout=120)
    assert record["verdict"] == "timeout" and "load stage" in record["call"]["detail"], record["call"]
    assert time.monotonic() - started < 30


def test_each_submission_draws_inputs_of_its_own_unless_a_seed_is_given(warm, monkeypatch):
    """A client sees each record (a case's error text can carry its inputs) before it sends the
    next: with one seed for the evaluator's life, a submission that printed its inputs let the next
    carry the answers. Unless a seed is given, every submission draws its own."""
    leak = "def relu(input, inplace=False):\n    raise ValueError(repr(input.flatten()[:4].tolist()))\n"

    def reasons(record: dict) -> list[str]:
        return [c["reason"] for c in record["cases"]]

    given = [warm.submit("Activation/relu.py", leak).result(timeout=300) for _ in range(2)]
    assert warm.seed == 0 and "seed" not in given[0]["info"]  # the tests' KERNELBENCHX_SEED: given
    assert reasons(given[0]) == reasons(given[1]) and all("ValueError" in r for r in reasons(given[0]))
    monkeypatch.delenv("KERNELBENCHX_SEED")
    with Evaluator(perf=False, workers=1, timeout=20) as ev:
        drawn = [ev.submit("Activation/relu.py", leak).result(timeout=300) for _ in range(2)]
        assert ev.seed is None and drawn[0]["info"]["seed"] != drawn[1]["info"]["seed"]
    assert reasons(drawn[0]) != reasons(drawn[1]) and all("ValueError" in r for r in reasons(drawn[1]))


def test_a_batch_comes_back_in_order(warm):
    records = warm.evaluate([("Activation/gelu.py", GELU), ("Activation/relu.py", WRONG_RELU), ("Activation/relu.py", RELU)])
    assert [r["task_id"] for r in records] == ["Activation/gelu.py", "Activation/relu.py", "Activation/relu.py"]
    assert [r["verdict"] for r in records] == ["ok", "wrong", "ok"]


def test_a_full_queue_refuses_and_close_fails_what_still_waits():
    ev = Evaluator(perf=False, workers=1, max_pending=1, timeout=10)  # the hanging job ends in 10 s
    try:
        running = ev.submit("Activation/relu.py", HANGS)
        deadline = time.monotonic() + 60
        while ev.load()["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)   # the first job is taken by the only slot
        waiting = ev.submit("Activation/relu.py", RELU)
        with pytest.raises(QueueFull):
            ev.submit("Activation/relu.py", RELU)
    finally:
        closer = threading.Thread(target=ev.close)
        closer.start()
    with pytest.raises(PoolClosed):
        waiting.result(timeout=30)
    closer.join(120)
    assert running.result(timeout=1)["verdict"] == "timeout"  # the running job ended, its worker killed
    with pytest.raises(PoolClosed):
        ev.submit("Activation/relu.py", RELU)


def test_only_loopback_binds_unless_told():
    check_bind("127.0.0.1")
    check_bind("localhost")
    check_bind("::1")
    with pytest.raises(RemoteBindRefused):
        check_bind("0.0.0.0")
    with pytest.raises(RemoteBindRefused):
        check_bind("8.8.8.8")
    check_bind("0.0.0.0", allow_remote=True)
    proc = run_cli("serve", "--host", "0.0.0.0", "--port", "0", check=False, timeout=120)
    assert proc.returncode == 2 and "--allow-remote" in proc.stderr, proc.stderr[-2000:]


def _post(url: str, body: bytes, timeout: float = 300) -> tuple[int, dict, dict]:
    request = urllib.request.Request(url + "/evaluate", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def _declared_too_large(server: EvaluationServer) -> int:
    """The status for a body declared larger than the cap (answered before the body is read)."""
    import http.client
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    connection.putrequest("POST", "/evaluate")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(2 << 20))
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


def test_the_server_answers_evaluates_and_pushes_back():
    ev = Evaluator(perf=False, workers=1, max_pending=1, timeout=60)
    server = EvaluationServer(("127.0.0.1", 0), ev, max_timeout=60)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = server.url
    try:
        with urllib.request.urlopen(url + "/health", timeout=30) as answer:
            health = json.loads(answer.read())
        assert health["status"] == "ok" and health["mode"] == "interpreter" and health["slots"] == 1
        status, record, _ = _post(url, json.dumps({"task_id": "Activation/relu.py", "code": RELU}).encode())
        assert status == 200 and record["verdict"] == "ok" and record["task_id"] == "Activation/relu.py"
        assert _post(url, b"{not json")[0] == 400
        assert _post(url, json.dumps({"task_id": "Activation/relu.py"}).encode())[0] == 400
        assert _post(url, json.dumps({"task_id": "x", "code": "y", "timeout": -1}).encode())[0] == 400
        assert _declared_too_large(server) == 413
        # one job running, one waiting: the next request is answered 429 at once
        hang = json.dumps({"task_id": "Activation/relu.py", "code": HANGS, "timeout": 6}).encode()
        answers: list = []
        first = threading.Thread(target=lambda: answers.append(_post(url, hang)))
        first.start()
        deadline = time.monotonic() + 60
        while ev.load()["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        second = threading.Thread(target=lambda: answers.append(_post(url, hang)))
        second.start()
        while ev.load()["pending"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        status, body, headers = _post(url, hang, timeout=30)
        assert status == 429 and headers.get("Retry-After") == "1", body
        first.join(300)
        second.join(300)
        assert sorted(a[1]["verdict"] for a in answers) == ["timeout", "timeout"]  # the request's own limit
    finally:
        shutdown(server)
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "/health", timeout=5)


def test_stalled_clients_are_cut_off_and_a_deeply_nested_body_is_a_400(monkeypatch):
    """Connections that send nothing are closed after the socket timeout, at most ``max_connections``
    are served at once (the next is answered 503 at once and closed), and a body nested past the
    JSON parser's recursion limit is answered 400, not dropped."""
    import socket
    from harness import serve as serve_module
    monkeypatch.setattr(serve_module._Handler, "timeout", 0.5)
    ev = Evaluator(perf=False, workers=1, timeout=60)
    server = EvaluationServer(("127.0.0.1", 0), ev, max_timeout=60, max_connections=2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        idle = [socket.create_connection(server.server_address[:2], timeout=10) for _ in range(2)]
        time.sleep(0.2)
        over = socket.create_connection(server.server_address[:2], timeout=10)
        answer = b""
        while True:  # answered at once, then closed: two connections are being served
            chunk = over.recv(4096)
            if not chunk:
                break
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 1" in answer, answer
        started = time.monotonic()
        assert all(s.recv(1) == b"" for s in idle) and time.monotonic() - started < 5  # the timeout cut them
        for s in idle + [over]:
            s.close()
        status, body, _ = _post(server.url, b"[" * 200_000)
        assert status == 400 and "recursion" in body["error"].lower(), body
    finally:
        shutdown(server)


def test_a_request_trickled_in_a_byte_at_a_time_is_cut_off_at_its_deadline():
    """The socket timeout bounds each wait for bytes; a client that sends one byte well within it,
    again and again, is cut off once its request has taken ``request_read_s`` to arrive (a few
    hundred such clients held every connection slot of the server)."""
    import socket
    ev = Evaluator(perf=False, workers=1, timeout=60)
    server = EvaluationServer(("127.0.0.1", 0), ev, max_timeout=60, request_read_s=1.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        slow = socket.create_connection(server.server_address[:2], timeout=10)
        started = time.monotonic()
        cut = False
        for byte in b"GET /health HTTP/1.1\r\nX-Padding: " + b"a" * 200:
            try:
                slow.sendall(bytes([byte]))
            except OSError:
                cut = True
                break
            slow.settimeout(0.2)
            try:
                if slow.recv(1) == b"":
                    cut = True
                    break
            except socket.timeout:
                pass
        elapsed = time.monotonic() - started
        slow.close()
        assert cut and elapsed < 5, elapsed
        with urllib.request.urlopen(server.url + "/health", timeout=10) as answer:
            assert answer.status == 200  # others are still served
    finally:
        shutdown(server)


def _raw_status(server: EvaluationServer, method: str, path: str, headers: dict[str, str], body: bytes = b"") -> int:
    import http.client
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=120)
    connection.putrequest(method, path, skip_host="Host" in headers)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body or method == "POST":
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    status = connection.getresponse().status
    connection.close()
    return status


def test_what_a_web_page_could_send_is_refused_and_odd_fields_are_answered():
    """A page the user visits can reach localhost: a body not declared JSON (sent cross-origin
    without asking first) is 415, a foreign Origin 403, a Host that names no loopback host (DNS
    rebinding) 421, for the health answer too (it names the run's seed). A timeout past any float
    is capped at the server's, not a dropped connection; a client that leaves before a worker
    takes its job has the job dropped."""
    ev = Evaluator(perf=False, workers=1, timeout=60)
    server = EvaluationServer(("127.0.0.1", 0), ev, max_timeout=60)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    json_type = {"Content-Type": "application/json"}
    body = json.dumps({"task_id": "Activation/relu.py", "code": "x = 1"}).encode()
    try:
        assert _raw_status(server, "POST", "/evaluate", {"Content-Type": "text/plain"}, body) == 415
        assert _raw_status(server, "POST", "/evaluate", {**json_type, "Origin": "http://attacker.example"}, body) == 403
        assert _raw_status(server, "POST", "/evaluate", {**json_type, "Host": "attacker.example:8765"}, body) == 421
        assert _raw_status(server, "GET", "/health", {"Host": "attacker.example"}) == 421
        assert _raw_status(server, "GET", "/health", {"Host": "localhost:8765"}) == 200
        assert _raw_status(server, "POST", "/evaluate", {**json_type, "Origin": "http://127.0.0.1:3000"}, b"[1]") == 400
        # a body left unread ends the connection: a page's plain-text POST elsewhere carried a whole
        # request to /evaluate, with headers of its choosing, that was read as the next one
        inner = (b"POST /evaluate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        for outer_headers in ("Origin: https://attacker.example\r\n", ""):
            smuggler = socket.create_connection(server.server_address[:2], timeout=60)
            smuggler.sendall(b"POST /elsewhere HTTP/1.1\r\nHost: localhost\r\n" + outer_headers.encode() +
                             b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s" % (len(inner), inner))
            answered = b""
            while True:
                chunk = smuggler.recv(65536)
                if not chunk:  # the server closed the connection after its one answer
                    break
                answered += chunk
            smuggler.close()
            assert answered.count(b"HTTP/1.1 ") == 1 and answered.startswith(
                b"HTTP/1.1 403" if outer_headers else b"HTTP/1.1 404"), answered[:300]
        huge = json.dumps({"task_id": "Activation/relu.py", "code": "x = 1", "timeout": 10 ** 400}).encode()
        status, record, _ = _post(server.url, huge)
        assert status == 200 and record["verdict"] == "error", record   # no entry function: its own verdict
        # a client gone while its job waits: the job is dropped, the slot serves the next
        hang = json.dumps({"task_id": "Activation/relu.py", "code": HANGS, "timeout": 20}).encode()
        running = threading.Thread(target=lambda: _post(server.url, hang))
        running.start()
        deadline = time.monotonic() + 60
        while ev.load()["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        leaving = socket.create_connection(server.server_address[:2], timeout=10)
        leaving.sendall(b"POST /evaluate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\n\r\n%s" % (len(hang), hang))
        while ev.load()["pending"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        leaving.close()
        while ev.load()["pending"] == 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert ev.load()["pending"] == 0 and ev.load()["running"] == 1, ev.load()  # dropped before it ran
        running.join(120)
    finally:
        shutdown(server)


def test_malformed_submissions_are_refused_and_a_cancelled_one_never_runs():
    """Bad arguments are a TypeError or ValueError at once, not a job's harness error; a job
    cancelled while it waits never runs and gives up its room in a full queue."""
    with Evaluator(perf=False, workers=1, timeout=60, max_pending=1) as ev:
        for bad in ({"timeout": float("nan")}, {"timeout": -1}, {"timeout": float("inf")}, {"sample_id": -5},
                    {"sample_id": True}):
            with pytest.raises(ValueError):
                ev.submit("Activation/relu.py", RELU, **bad)
        with pytest.raises(TypeError):
            ev.submit(3, RELU)
        first = ev.submit("Activation/relu.py", HANGS, timeout=5)
        deadline = time.monotonic() + 60
        while ev.load()["running"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        second = ev.submit("Activation/relu.py", RELU)
        assert second.cancel() and second.cancelled()
        third = ev.submit("Activation/relu.py", RELU)  # the queue (room for one) had only the cancelled one
        assert first.result(timeout=300)["verdict"] == "timeout"
        assert third.result(timeout=300)["verdict"] == "ok"
        assert ev.load() == {"pending": 0, "running": 0, "slots": 1}


def test_teardown_steps_all_run_in_order_and_later_ones_are_waited_for():
    """What follows a job's result runs in order, every step even after one that failed (a worker
    slot left taken would stall every later job), now or in a thread the evaluator's close waits
    for (run/teardown.py)."""
    import threading

    from harness.run.teardown import Teardowns
    done: list[str] = []
    teardowns = Teardowns()

    def fails():
        raise OSError("reaping failed")
    teardowns.run([lambda: done.append("reaped"), fails, lambda: done.append("slots given back")])
    assert done == ["reaped", "slots given back"] and teardowns.errors == ["OSError: reaping failed"]
    release = threading.Event()
    teardowns.later([release.wait, lambda: done.append("later")])
    assert done[-1] != "later"
    release.set()
    teardowns.finish()
    assert done[-1] == "later"


def _descendants(pid: int, through_none_of: set[int] = frozenset()) -> list[int]:
    """Every live process below ``pid`` (from /proc's parent links), but those below the processes
    in ``through_none_of`` (they are listed, their children are not)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":  # a zombie is dead, only not yet reaped
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            if child not in through_none_of:
                todo.append(child)
    return found


def test_a_job_with_perf_answers_before_its_processes_are_reaped_and_close_waits_for_them(monkeypatch):
    """After perf, a job's result needs nothing of its processes' ends: it is answered while they
    are reaped (their GPU memory and slots stay taken until they are gone), and the evaluator's
    close leaves no process of the job's behind. A job without perf reports its worker's close."""
    import os

    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    # other tests' evaluators (a module's fixture) live on, and their fork servers may fork spares
    # meanwhile: what is below them is theirs (this evaluator's processes all start after this)
    before = set(_descendants(os.getpid()))
    ev = Evaluator(perf=True, workers=1, timeout=120)
    try:
        with_perf = ev.submit("Activation/relu.py", RELU).result(timeout=600)
        assert with_perf["verdict"] == "ok" and with_perf["perf"]["status"] == "ok", with_perf["perf"]
        assert "worker_close_s" not in with_perf["info"]["timing"]  # not known when the result is out
    finally:
        ev.close()
    assert set(_descendants(os.getpid(), through_none_of=before)) - before == set()
    assert not ev.left_behind
    ev = Evaluator(perf=False, workers=1, timeout=120)
    with ev:
        without = ev.submit("Activation/relu.py", RELU).result(timeout=600)
    assert without["verdict"] == "ok" and "worker_close_s" in without["info"]["timing"]
