# Looks, at import, everywhere the run's seed could be without a refused primitive: its job
# directory's files, argv, the environment, and the command channel on stdin (waiting a moment for
# a line). With the seed it would draw every input and compute the answers before any monitor
# runs; the harness sends the seed only after the import, so there is nothing to find. Every number
# it saw (runs of 4+ digits: the seed is one) becomes its error message, which the test searches for
# the seed; the message is short and ends with a marker, so a truncated one fails the test instead
# of hiding a number (a GPU machine's environment alone is longer than an error message may be).
import os
import re
import select
import sys

_texts, _looked = [], []
for name in sorted(os.listdir(".")):
    try:
        with open(name, "rb") as f:
            _texts.append(f.read(1 << 20).decode("latin-1"))
            _looked.append(name)
    except OSError:
        pass
_texts.append(repr(sys.argv))
_texts.append(repr(sorted(os.environ.items())))
_ready, _, _ = select.select([0], [], [], 2.0)
_stdin = os.read(0, 4096).decode("latin-1") if _ready else ""
_texts.append(_stdin)
_numbers = sorted({m for text in _texts for m in re.findall(r"\d{4,}", text)})
_report = (f"found at import: files {_looked}, argv, env: [{len(os.environ)} variables], "
           f"stdin: {'nothing' if not _ready else repr(_stdin[:200])}; numbers {_numbers[:200]} END")


def relu(input, inplace=False):
    raise RuntimeError(_report)
