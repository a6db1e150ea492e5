"""The worker's command channel: the parent's commands are parsed by a JSON parser bound before the
submission is imported (harness/protocol.py frozen_json_decoder), so a submission that rebinds
json's module-level decoder (to learn which timed repetition is judged, or the seed) hears nothing
and changes nothing. The end-to-end attack is tests/adversarial/perf_right_only_when_kept.py."""

import json
import os

import pytest

from harness.perf.server import stdin_commands
from harness.protocol import frozen_json_decoder

LINES = ['{"cmd": "time", "case": 2, "side": "candidate", "reps": 7, "first": 14, "keep": 17, "command_seq": 0}',
         '  {"cmd": "inputs", "seed": 918273645, "nested": [1, 2.5, null, true, {"k": "\\u00e9"}], "command_seq": 1}  ',
         '{"cmd": "done", "command_seq": 2}']


def test_it_parses_what_json_loads_parses():
    parse = frozen_json_decoder()
    for line in LINES:
        assert parse(line) == json.loads(line)


@pytest.mark.parametrize("bad", ['{"cmd": "time"} {"cmd": "done"}', '{"cmd": ', "", "nope"])
def test_it_refuses_what_is_not_one_json_value(bad):
    with pytest.raises(ValueError):
        frozen_json_decoder()(bad)


def _pipe_with(text: str) -> int:
    read, write = os.pipe()
    os.write(write, text.encode())
    os.close(write)
    return read


def test_rebinding_json_afterwards_neither_hears_nor_changes_the_commands(monkeypatch):
    expected = [json.loads(line) for line in LINES]
    pipe = _pipe_with("\n".join(LINES) + "\n")
    commands = stdin_commands(pipe)  # bound before the "submission" runs, as the worker does
    os.close(pipe)  # read through a duplicate of its own
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


def test_commands_come_only_from_the_parents_pipe(tmp_path):
    """A file put on descriptor 0, or under the number of the harness's own duplicate of the pipe,
    feeds it nothing: the first is never read, the second ends the commands as tampering."""
    forged = tmp_path / "forged.jsonl"
    forged.write_text('{"cmd": "time", "case": 0, "keep": null}\n' * 3)
    pipe, parent = os.pipe()
    pipe_id = os.fstat(pipe).st_ino
    commands = stdin_commands(pipe)
    own = [int(n) for n in os.listdir("/proc/self/fd") if int(n) not in (pipe, parent) and _inode(int(n)) == pipe_id]
    assert len(own) == 1  # the duplicate it reads
    file = os.open(forged, os.O_RDONLY)
    try:
        os.write(parent, (LINES[0] + "\n").encode())
        os.dup2(file, pipe)  # the number the parent's pipe came in under: not what is read
        assert next(commands) == json.loads(LINES[0])
        os.write(parent, (LINES[1] + "\n").encode())
        os.dup2(file, own[0])  # the duplicate's own number: refused before it is read
        with pytest.raises(PermissionError, match="command pipe was replaced"):
            next(commands)
    finally:
        for fd in (file, pipe, parent, own[0]):
            os.close(fd)


def _inode(fd: int) -> int | None:
    try:
        return os.fstat(fd).st_ino
    except OSError:
        return None


def test_a_line_written_through_the_pipe_reopened_by_the_worker_is_tampering():
    """The pipe's write end can be reopened through /proc/self/fd (torch.save opens paths natively,
    unseen by the guard): a line written there comes before the parent's command of its number,
    which then comes twice; either way the order is broken, and the commands end as tampering."""
    pipe, parent = os.pipe()
    commands = stdin_commands(pipe)
    try:
        os.write(parent, (LINES[0] + "\n").encode())
        assert next(commands) == json.loads(LINES[0])
        with open(f"/proc/self/fd/{pipe}", "wb") as reopened:  # as the submission's torch.save did
            reopened.write(b'{"cmd": "time", "case": 0, "keep": null, "command_seq": 1}\n')
        os.write(parent, (LINES[1] + "\n").encode())
        assert next(commands)["case"] == 0  # the forged line, numbered right, comes first...
        with pytest.raises(PermissionError, match="out of the parent's order"):
            next(commands)  # ...and the parent's own command of that number is then refused
        unnumbered = stdin_commands(_pipe_with('{"cmd": "done"}\n'))
        with pytest.raises(PermissionError, match="out of the parent's order"):
            next(unnumbered)
    finally:
        for fd in (pipe, parent):
            os.close(fd)
