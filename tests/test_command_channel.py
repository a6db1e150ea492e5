"""The worker's command channel: the parent's commands are parsed by a JSON parser bound before the
submission is imported (harness/protocol.py frozen_json_decoder), so a submission that rebinds
json's module-level decoder (to learn which timed repetition is judged, or the seed) hears nothing
and changes nothing. The end-to-end attack is tests/adversarial/perf_right_only_when_kept.py."""

import io
import json
import sys

import pytest

from harness.perf.server import stdin_commands
from harness.protocol import frozen_json_decoder

LINES = ['{"cmd": "time", "case": 2, "side": "candidate", "reps": 7, "first": 14, "keep": 17}',
         '  {"cmd": "inputs", "seed": 918273645, "nested": [1, 2.5, null, true, {"k": "\\u00e9"}]}  ',
         '{"cmd": "done"}']


def test_it_parses_what_json_loads_parses():
    parse = frozen_json_decoder()
    for line in LINES:
        assert parse(line) == json.loads(line)


@pytest.mark.parametrize("bad", ['{"cmd": "time"} {"cmd": "done"}', '{"cmd": ', "", "nope"])
def test_it_refuses_what_is_not_one_json_value(bad):
    with pytest.raises(ValueError):
        frozen_json_decoder()(bad)


def test_rebinding_json_afterwards_neither_hears_nor_changes_the_commands(monkeypatch):
    expected = [json.loads(line) for line in LINES]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(LINES) + "\n"))
    commands = stdin_commands()  # bound before the "submission" runs, as the worker does
    heard = []

    class Listener:
        def decode(self, text, *args, **kwargs):
            heard.append(text)
            return {"cmd": "forged"}

    monkeypatch.setattr(json, "_default_decoder", Listener())
    monkeypatch.setattr(json.JSONDecoder, "decode", Listener.decode)
    assert json.loads(LINES[0]) == {"cmd": "forged"} and heard  # the attack works on json.loads itself
    heard.clear()
    assert list(commands) == expected
    assert heard == []
