"""``kernelbenchx serve``: a warm :class:`~harness.api.Evaluator` over HTTP on localhost, for reward
loops in other processes or languages.

``POST /evaluate`` with a JSON body ``{"task_id": "Activation/relu.py", "code": "...",
"sample_id": 0, "timeout": 60}`` (``sample_id`` and ``timeout`` optional; ``timeout`` is seconds
for call and exe each, at most the server's) answers, once the job is done, with the job's
``metrics.json`` record. ``GET /health`` answers with the mode, the seed (null: each submission
draws its own) and the load. Answers:

| status | when |
| --- | --- |
| 200 | the job ran (whatever its verdict) |
| 400 | the body is not a JSON object with a string ``task_id`` and ``code``, or a field is malformed |
| 403 | a browser's request from a page of another origin (an ``Origin`` header that is not loopback) |
| 404 | another path |
| 413 | the body is larger than ``MAX_BODY_BYTES`` |
| 415 | the body is not declared ``application/json`` |
| 421 | a ``Host`` header that names no loopback host (a page reaching the server through DNS rebinding) |
| 429 | ``max_pending`` jobs already wait for a worker: retry later (``Retry-After``) |
| 500 | the harness failed on this request (said in ``error``; the server serves on) |
| 503 | the server is shutting down, or holds ``MAX_CONNECTIONS`` connections already |

HTTP is parsed by the standard library's ``http.server`` (one thread per connection); the server
binds to a loopback address unless ``allow_remote`` is given, since it executes whatever code it
receives (isolated as in ``kernelbenchx eval``, but still code from whoever can connect). A web page
the user visits can send requests to localhost too: without ``allow_remote`` the server answers only
requests that name a loopback host, come from no foreign origin and are declared JSON (a browser
sends no such request to another origin without asking first). A client that goes away while its
job still waits for a worker has it dropped.
"""

from __future__ import annotations

import ipaddress
import json
import math
import os
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from concurrent.futures import CancelledError
from concurrent.futures import TimeoutError as FutureTimeout

from harness.api import Evaluator, PoolClosed, QueueFull

MAX_BODY_BYTES = 1 << 20   # a kernel's source is a few kB; a model's whole answer well under this
RETRY_AFTER_S = 1
SOCKET_TIMEOUT_S = 10.0  # the longest wait for the next bytes of a request, and between requests of one connection
REQUEST_READ_S = 20.0    # the longest a request may take to arrive whole, however steadily its bytes trickle in
MAX_CONNECTIONS = 256    # connections served at once (each a thread); more are answered 503
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


class RemoteBindRefused(ValueError):
    """A non-loopback bind address without ``allow_remote``."""


def check_bind(host: str, allow_remote: bool = False) -> None:
    """Refuse a host that is not a loopback address (``localhost``, 127.0.0.0/8, ::1) unless told."""
    if allow_remote:
        return
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except socket.gaierror as exc:
        raise RemoteBindRefused(f"cannot resolve {host!r}: {exc}") from None
    remote = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback)
    if remote:
        raise RemoteBindRefused(f"{host!r} is not a loopback address ({', '.join(remote)}): the server runs the "
                                f"code it is sent; pass --allow-remote to serve other machines")


def _request_fields(body: Any) -> tuple[str, str, int, float | None]:
    """``task_id``, ``code``, ``sample_id``, ``timeout`` of a request body, or ValueError saying what is wrong."""
    if not isinstance(body, dict):
        raise ValueError("the body must be a JSON object")
    task_id, code = body.get("task_id"), body.get("code")
    if not isinstance(task_id, str) or not isinstance(code, str):
        raise ValueError('"task_id" and "code" must be strings')
    sample_id = body.get("sample_id", 0)
    if not isinstance(sample_id, int) or isinstance(sample_id, bool) or not 0 <= sample_id < 1 << 31:
        raise ValueError('"sample_id" must be a non-negative integer')
    timeout = body.get("timeout")
    if timeout is not None and (not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not timeout > 0):
        raise ValueError('"timeout" must be a positive number of seconds')
    if timeout is not None:
        try:
            timeout = float(timeout)
        except OverflowError:  # an integer past any float: longer than any limit, so the server's
            timeout = math.inf
    return task_id, code, sample_id, timeout


def _loopback_host(value: str) -> bool:
    """Whether ``value`` (a Host header's host, or an Origin's) names this machine's loopback."""
    host = value.strip().lower()
    if host.startswith("["):  # [::1]:8765
        host = host[1:].partition("]")[0]
    elif host.count(":") == 1:  # 127.0.0.1:8765, localhost:8765
        host = host.partition(":")[0]
    if host.rstrip(".") in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def foreign_request(headers: Any) -> tuple[int, str] | None:
    """Why a request may come from a web page rather than a local client (status and reason), or
    None: a browser names the page's origin, and the host it thinks it reaches (a name of the
    page's own that resolves here, through DNS rebinding), and a cross-origin request it sends
    without asking first is never declared JSON."""
    host = headers.get("Host")
    if host is not None and not _loopback_host(host):
        return 421, f"Host {host[:100]!r} is not a loopback host (start the server with --allow-remote to serve others)"
    origin = headers.get("Origin")
    if origin is not None and origin != "null" and not _loopback_host(origin.partition("://")[2].partition("/")[0]):
        return 403, f"requests from web pages of other origins are refused ({origin[:100]!r})"
    if origin == "null":
        return 403, "requests from sandboxed web pages are refused"
    return None


def _json_body(headers: Any) -> bool:
    return (headers.get("Content-Type") or "").partition(";")[0].strip().lower() == "application/json"


class EvaluationServer(ThreadingHTTPServer):
    """The HTTP server around one warm evaluator."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], evaluator: Evaluator, max_timeout: float,
                 max_connections: int = MAX_CONNECTIONS, request_read_s: float = REQUEST_READ_S,
                 allow_remote: bool = False) -> None:
        self.evaluator = evaluator
        self.max_timeout = max_timeout
        self.allow_remote = allow_remote  # no Host / Origin checks (foreign_request)
        self.stopping = threading.Event()
        # a thread per connection, at most this many: clients that open connections and send
        # nothing (or a body byte at a time) would otherwise each hold a thread for good
        self._connections = threading.BoundedSemaphore(max_connections)
        # The socket timeout bounds each wait for bytes, not a whole request: a client sending one
        # byte every few seconds kept its slot for good. Connections reading a request past their
        # deadline are shut by a watchdog (shutdown() wakes the handler's blocked read).
        self.request_read_s = request_read_s
        self._reading: dict[socket.socket, float] = {}
        self._reading_lock = threading.Lock()
        self._closed = threading.Event()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6  # ::1
        super().__init__(address, _Handler)
        threading.Thread(target=self._cut_slow_requests, name="kbx-serve-watchdog", daemon=True).start()

    def reading(self, connection: socket.socket, reading: bool) -> None:
        """``connection`` starts (``reading``) or has finished reading a request."""
        with self._reading_lock:
            if reading:
                self._reading[connection] = time.monotonic() + self.request_read_s
            else:
                self._reading.pop(connection, None)

    def _cut_slow_requests(self) -> None:
        while not self._closed.wait(min(1.0, self.request_read_s / 4)):
            now = time.monotonic()
            with self._reading_lock:
                late = [c for c, deadline in self._reading.items() if deadline < now]
                for connection in late:
                    del self._reading[connection]
            for connection in late:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass  # closed meanwhile

    def server_close(self) -> None:
        self._closed.set()
        super().server_close()

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._connections.acquire(blocking=False):
            # over the limit: answered at once without reading the request (the client may retry)
            busy = b'{"error": "the server holds its most connections: retry later"}'
            try:
                request.setblocking(False)
                request.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                             b"Retry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(busy), busy))
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # one line, not a traceback per client that breaks its pipe or times out (a flood of them
        # would drown the log); what failed on a request the harness answers itself is a 500
        exc = sys.exc_info()[1]
        if not isinstance(exc, (ConnectionError, TimeoutError, socket.timeout)):
            print(f"kernelbenchx serve: a connection failed: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._connections.release()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server: EvaluationServer
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT_S  # reading a request (and waiting for the next one) may take this long

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass  # one line per request would drown the log of a reward loop

    def handle_one_request(self) -> None:
        self.server.reading(self.connection, True)  # until the request is in (see EvaluationServer)
        self._body_read = False
        try:
            super().handle_one_request()
        finally:
            self.server.reading(self.connection, False)

    def _answer(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        if self._body_left_unread():
            # What follows on the connection is that body, which would be read as the next request:
            # a page's plain-text POST to another path carried a whole JSON request to /evaluate,
            # with headers of its choosing, past the Origin, Content-Type and Host checks
            self.close_connection = True
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _body_left_unread(self) -> bool:
        """Whether this request declares a body the handler has not read."""
        if getattr(self, "_body_read", False) or self.headers is None:
            return False
        declared = self.headers.get("Content-Length", "0").strip() != "0"
        return declared or self.headers.get("Transfer-Encoding") is not None

    def _refused_as_foreign(self) -> bool:
        """Answer a request a web page could have sent (foreign_request) and say so; with
        ``allow_remote`` nothing is refused here."""
        foreign = None if self.server.allow_remote else foreign_request(self.headers)
        if foreign:
            self._answer(foreign[0], {"error": foreign[1]})
        return foreign is not None

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        self.server.reading(self.connection, False)
        if self._refused_as_foreign():  # (the health answer names the run's seed)
            return None
        if self.path != "/health":
            return self._answer(404, {"error": f"no such path {self.path!r} (GET /health, POST /evaluate)"})
        ev = self.server.evaluator
        self._answer(200, {"status": "stopping" if self.server.stopping.is_set() else "ok", "mode": ev.mode,
                           "seed": ev.seed, **ev.load()})

    def do_POST(self) -> None:  # noqa: N802
        try:
            self._evaluate()
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the client went away: nobody to answer
        except Exception as exc:  # noqa: BLE001 - whatever failed on this request: answered, the server serves on
            self.close_connection = True
            try:
                self._answer(500, {"error": f"harness error: {type(exc).__name__}: {str(exc)[:500]}"})
            except OSError:
                pass

    def _evaluate(self) -> None:
        if self._refused_as_foreign():  # first, whatever the path (the body is not read)
            return None
        if self.path != "/evaluate":
            return self._answer(404, {"error": f"no such path {self.path!r} (POST /evaluate)"})
        if not _json_body(self.headers):
            return self._answer(415, {"error": "send the body as JSON (Content-Type: application/json)"})
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            return self._answer(400, {"error": "a Content-Length header is required"})
        if length > MAX_BODY_BYTES or length < 0:
            return self._answer(413, {"error": f"the body is larger than {MAX_BODY_BYTES} bytes"})
        raw = self.rfile.read(length)
        self._body_read = len(raw) == length
        self.server.reading(self.connection, False)  # the request is in: evaluating takes what it takes
        if len(raw) != length:  # cut while it trickled in (the read deadline), or the client stopped
            return self._answer(400, {"error": f"the body ended after {len(raw)} of {length} bytes"})
        try:
            task_id, code, sample_id, timeout = _request_fields(json.loads(raw or b"null"))
        except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError; nesting too deep
            return self._answer(400, {"error": str(exc)[:500] or type(exc).__name__})
        if self.server.stopping.is_set():
            return self._answer(503, {"error": "the server is shutting down"})
        timeout = min(timeout or self.server.max_timeout, self.server.max_timeout)
        try:
            future = self.server.evaluator.submit(task_id, code, sample_id=sample_id, timeout=timeout)
        except QueueFull as exc:
            return self._answer(429, {"error": str(exc)}, {"Retry-After": str(RETRY_AFTER_S)})
        except PoolClosed:
            return self._answer(503, {"error": "the server is shutting down"})
        try:
            record = self._result_while_connected(future)
        except PoolClosed:
            return self._answer(503, {"error": "the server shut down before the job ran"})
        except CancelledError:
            self.close_connection = True  # the client is gone, and its job with it
            return None
        except Exception as exc:  # noqa: BLE001 - the harness failed on this request: say so, serve on
            return self._answer(500, {"error": f"harness error: {type(exc).__name__}: {str(exc)[:500]}"})
        self._answer(200, record)

    def _result_while_connected(self, future: Any) -> dict[str, Any]:
        """The job's record; while it waits, the connection is watched: a client that closes it
        has its job dropped if no worker took it yet (CancelledError)."""
        while True:
            try:
                return future.result(timeout=1.0)
            except FutureTimeout:
                pass
            if self._client_gone():
                future.cancel()  # dropped while it waits; a running job finishes (its worker is cheap to let be)
                if future.cancelled():
                    raise CancelledError()

    def _client_gone(self) -> bool:
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True


def serve(host: str = "127.0.0.1", port: int = 8765, *, allow_remote: bool = False, seed: int | None = None,
          mode: str | None = None, workers: int | None = None, timeout: float = 300.0, perf: bool = True,
          compile_baseline: bool = False, max_pending: int = 64, backend: str = "local",
          address: str | None = None, fail_fast: bool = False) -> int:
    """Run the server until SIGINT or SIGTERM; returns the exit code. ``backend="ray"``: the
    submissions run on the Ray cluster at ``address``; ``fail_fast``: each submission stops at its
    first wrong case."""
    check_bind(host, allow_remote)
    evaluator = Evaluator(seed=seed, mode=mode, workers=workers, timeout=timeout, perf=perf,
                          compile_baseline=compile_baseline, max_pending=max_pending, backend=backend, address=address,
                          fail_fast=fail_fast)
    try:
        server = EvaluationServer((host, port), evaluator, max_timeout=timeout, allow_remote=allow_remote)
    except (OSError, OverflowError) as exc:  # port in use or out of range, an unknown host
        evaluator.close()
        print(f"kernelbenchx serve: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(*_: Any) -> None:
        if not stop.is_set():
            stop.set()
            return
        # a second signal while running jobs finish: end now; the workers die with this process
        # (PR_SET_PDEATHSIG), their folders under the temp dir may stay
        print("kernelbenchx serve: stopped at once; running jobs killed", file=sys.stderr, flush=True)
        os._exit(130)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    print(f"kernelbenchx serve: {server.url} (mode {evaluator.mode}, {evaluator.load()['slots']} worker slot(s), "
          f"at most {max_pending} waiting); POST /evaluate, GET /health; Ctrl-C stops (running jobs finish; "
          f"again: at once)", file=sys.stderr, flush=True)
    while not stop.wait(1.0):  # wakes for the signal handler on every platform
        pass
    shutdown(server)
    return 0


def shutdown(server: EvaluationServer) -> None:
    """Stop accepting, answer 503 to what still waits, let running jobs finish, stop every process."""
    server.stopping.set()
    server.evaluator.close()   # waiting jobs fail with PoolClosed (their requests get 503)
    server.shutdown()
    server.server_close()
    left = getattr(server.evaluator, "left_behind", [])
    if left:  # a job's directory shaped to resist removal: said, as eval's summary says it
        print(f"kernelbenchx serve: {len(left)} folder(s) could not be removed, e.g. {left[0]}", file=sys.stderr)
