"""How long a perf job's result takes to reach the judge through a file, by where the file lives
(harness/run/scratch.py chooses): copy to host, save (bounded_io.save_tensors), map it back.

    python benchmarks/save_path_probe.py [--mb 450] [--dirs /tmp,/dev/shm]

Prints one JSON object: per folder, the seconds of each step and the folder's free bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

import torch

from harness.bounded_io import load_tensors, save_tensors


def probe(directory: str, tensor: torch.Tensor) -> dict:
    folder = tempfile.mkdtemp(prefix="kbx-probe-", dir=directory)
    path = os.path.join(folder, "result.pt")
    try:
        clock = time.perf_counter()
        host = tensor.cpu()
        copied = time.perf_counter()
        save_tensors({"out": host}, path)
        saved = time.perf_counter()
        loaded = load_tensors(path, 2 * tensor.nbytes + (1 << 20))
        back = loaded["out"].to(tensor.device)
        if tensor.is_cuda:
            torch.cuda.synchronize()
        mapped = time.perf_counter()
        assert torch.equal(back, tensor)
        return {"to_host_s": round(copied - clock, 3), "save_s": round(saved - copied, 3),
                "load_to_device_s": round(mapped - saved, 3), "free_bytes": shutil.disk_usage(directory).free}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=450)
    parser.add_argument("--dirs", default=f"{tempfile.gettempdir()},/dev/shm")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tensor = torch.randn(args.mb * (1 << 20) // 4, device=device)
    report = {"device": torch.cuda.get_device_name() if device == "cuda" else "cpu", "mb": args.mb}
    for directory in args.dirs.split(","):
        report[directory] = [probe(directory, tensor) for _ in range(args.repeats)] if os.path.isdir(directory) else "missing"
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
