"""Summarise py-spy raw stacks of a suite run (benchmarks/device_profile.sh): samples per function,
inclusive, over the worker processes (or the parent's), so the biggest costs of a job show first.

    python benchmarks/profile_summary.py STACKS.txt [--parent] [--top 40]

py-spy samples at a fixed rate (20 Hz in device_profile.sh): samples / rate = seconds, summed over
processes, idle waits included (a worker waiting on ptxas shows under ``Popen.wait``).
"""

from __future__ import annotations

import argparse
import collections
import re


def summarise(path: str, parent: bool, top: int) -> list[str]:
    inclusive: collections.Counter = collections.Counter()
    by_kind: collections.Counter = collections.Counter()
    for line in open(path):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        n = int(count)
        kind = "worker" if "run_child" in stack else ("fork server" if "forkserver" in stack else "parent")
        by_kind[kind] += n
        if kind != ("parent" if parent else "worker"):
            continue
        frames = {re.sub(r":\d+\)", ")", f) for f in stack.split(";") if not f.startswith(("process ", "thread "))}
        for frame in frames:
            inclusive[frame] += n
    lines = [f"samples by process kind: {dict(by_kind)}"]
    lines += [f"{n:8d}  {frame[:160]}" for frame, n in inclusive.most_common(top)]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stacks")
    parser.add_argument("--parent", action="store_true", help="the parent's stacks instead of the workers'")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    print("\n".join(summarise(args.stacks, args.parent, args.top)))
