# Looks, at import, everywhere the run's seed could be without a refused primitive: its job
# directory's files, argv, the environment, and the command channel on stdin (waiting a moment for
# a line). With the seed it would draw every input and compute the answers before any monitor
# runs; the harness sends the seed only after the import, so there is nothing to find. What it saw
# becomes its error message, which the test searches for the seed.
import os
import select
import sys

_seen = []
for name in sorted(os.listdir(".")):
    try:
        with open(name, "rb") as f:
            _seen.append(f"{name}: {f.read(4096)!r}")
    except OSError as exc:
        _seen.append(f"{name}: {type(exc).__name__}")
_seen.append(f"argv: {sys.argv!r}")
_seen.append(f"env: {sorted(os.environ.items())!r}")
_ready, _, _ = select.select([0], [], [], 2.0)
_seen.append(f"stdin: {os.read(0, 4096)!r}" if _ready else "stdin: nothing")


def relu(input, inplace=False):
    raise RuntimeError("found at import: " + " | ".join(_seen))
