# At import (before the harness sends the seed), searches the machine for what a worker has no need
# to read: the journal of the run in progress (its header holds the seed, from which every input
# follows), other runs' journals, the predictions file (the other submissions' code), and the
# user's tokens. It walks the folders above its job directory (which lies in the parent's temp
# dir; three levels up, where the test leaves its files) and the user's home, and reads every file
# with such a name it can open. What it read, and what it was refused, becomes its error message,
# which the test searches; the message ends with a marker, so a truncated one fails the test.
import os
import pwd

NAMES = {"journal.jsonl", "preds.jsonl", "summary.json", "token", ".netrc"}
UP = 3      # folders above the job directory searched (the scratch, the temp dir, the test's folder)
DEPTH = 4   # levels below each searched folder


def _search(folder, depth, found, seen):
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.path in seen or entry.is_symlink():
            continue
        seen.add(entry.path)
        if entry.name in NAMES:
            try:
                with open(entry.path, "rb") as f:
                    found.append(f"{entry.path}: read {f.readline(300).decode('latin-1').strip()}")
            except OSError as exc:  # refused (by Landlock, or the guard): what the harness should do
                found.append(f"{entry.path}: refused ({type(exc).__name__})")
        elif depth > 0 and entry.is_dir():
            _search(entry.path, depth - 1, found, seen)


def _look() -> list:
    found, seen = [], set()
    folder = os.getcwd()
    for _ in range(UP + 1):
        _search(folder, DEPTH, found, seen)
        folder = os.path.dirname(folder)
    _search(pwd.getpwuid(os.getuid()).pw_dir, DEPTH, found, seen)
    return found


REPORT = "found at import: " + "; ".join(_look()[:40]) + " END"


def relu(input, inplace=False):
    raise RuntimeError(REPORT)
