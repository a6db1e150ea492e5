"""A tiny OpenAI-compatible server for tests: answers each KernelBench-X prompt with the bundled
solution of the task it names (``good``) or with that solution's first wrong variant (``wrong``).
Listens on 127.0.0.1 only."""

from __future__ import annotations

import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import datasets

import harness
from harness.run.submissions import route_instruction

VARIANTS = Path(__file__).parent / "wrong_variants"


def _wrong(row: dict) -> str:
    path = VARIANTS / row["category"] / f"{row['name']}.py"
    if path.exists() and row["solution"]:
        spec = importlib.util.spec_from_file_location("_variants", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        edits = next(iter(module.VARIANTS.values()))
        code = row["solution"]
        for old, new in [edits] if isinstance(edits[0], str) else edits:
            code = code.replace(old, new, 1)
        return code
    return f"def {row['entry_point']}(*args, **kwargs):\n    raise RuntimeError('wrong on purpose')\n"


class FakeModelServer:
    """``with FakeModelServer("good") as url: ...`` serves /v1/completions and /v1/chat/completions."""

    def __init__(self, behaviour: str) -> None:
        rows = datasets.load_dataset(harness.dataset_path(), "all", split="test")
        self.answers = {r["task_id"]: (r["solution"] if behaviour == "good" else _wrong(r)) for r in rows}
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests += 1
                prompts = body.get("prompt")
                if prompts is None:
                    prompts = [body["messages"][-1]["content"]]
                elif isinstance(prompts, str):
                    prompts = [prompts]
                texts = [f"Here is the kernel:\n```python\n{server.answers.get(route_instruction(p), '')}```\n"
                         for p in prompts]
                if "messages" in body:
                    payload = {"id": "x", "object": "chat.completion", "model": "fake", "choices": [
                        {"index": 0, "message": {"role": "assistant", "content": texts[0]}, "finish_reason": "stop"}]}
                else:
                    payload = {"id": "x", "object": "text_completion", "model": "fake", "choices": [
                        {"index": i, "text": t, "finish_reason": "stop", "logprobs": None} for i, t in enumerate(texts)]}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    def __enter__(self) -> str:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
