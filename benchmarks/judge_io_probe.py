"""Where the perf judge's time goes on this host: one perf-size result saved as the candidate saves
it (through page-locked memory when on a GPU, into a sealed memory-backed file: harness/perf/server.py,
harness/sealed_files.py; or, the fallback, into a file hashed as written) and loaded as the baseline
loads it (the sealed file mapped; the fallback's private copy hashed as read: harness/bounded_io.py),
then moved to the GPU for comparing (from the mapped pages, or through page-locked memory), beside
the raw speeds those steps are made of (SHA-256 and BLAKE2b, a memory copy, a page-locked allocation).

    python benchmarks/judge_io_probe.py [--mb 512] [--repeats 3] [--dir /tmp]

Prints one JSON object (seconds per step, the median of the repeats, and GB/s where it applies) and
the CPU's model and whether it has SHA instructions (``sha_ni``), which decide how fast hashing is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import torch

from harness.bounded_io import load_sealed_tensors, load_tensors, save_tensors
from harness.invoke import to_device
from harness.perf.server import _DigestingWriter, to_host
from harness.sealed_files import seal, sealable_file


def _cpu() -> dict:
    model, flags = "", ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and not model:
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = line.split(":", 1)[1]
    except OSError:
        pass
    return {"model": model, "sha_ni": " sha_ni" in f" {flags} ", "cpus": os.cpu_count()}


def _median_s(step, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clock = time.perf_counter()
        step()
        times.append(time.perf_counter() - clock)
    return round(statistics.median(times), 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=int, default=512)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    args = parser.parse_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    result = torch.randn(args.mb << 18, device=device)  # float32: mb MiB
    host = result.cpu()
    buffer = memoryview(host.numpy()).cast("B")
    gb = host.nbytes / 1e9
    out = {"cpu": _cpu(), "device": torch.cuda.get_device_name() if device == "cuda" else "cpu", "mb": args.mb,
           "folder": args.dir}
    raw = {"sha256_s": _median_s(lambda: hashlib.sha256(buffer).digest(), args.repeats),
           # the other strong hash of the standard library: faster than SHA-256 where the CPU has no SHA instructions
           "blake2b_s": _median_s(lambda: hashlib.blake2b(buffer, digest_size=32).digest(), args.repeats),
           "memcpy_s": _median_s(lambda: host.clone(), args.repeats)}
    if device == "cuda":
        raw["pinned_alloc_s"] = _median_s(lambda: torch.empty(host.shape, pin_memory=True), args.repeats)
        raw["to_host_pinned_s"] = _median_s(lambda: to_host(result), args.repeats)
    folder = tempfile.mkdtemp(prefix="kbx-judge-probe-", dir=args.dir)
    path = Path(folder) / "result.pt"
    digests: list[str] = []

    def save() -> None:
        with open(path, "wb") as file:
            writer = _DigestingWriter(file)
            save_tensors({"output": to_host(result)}, writer)
        digests.append(writer.hexdigest())

    def plain_save() -> None:
        with open(path, "wb") as file:
            save_tensors({"output": host}, file)

    sealed = []

    def sealed_save() -> None:
        fd = sealable_file("probe")
        with open(fd, "wb", closefd=False) as file:
            save_tensors({"output": to_host(result)}, file)
        sealed.append(seal(fd))

    def sealed_load() -> torch.Tensor:
        return load_sealed_tensors(os.getpid(), sealed[-1], 2 * host.nbytes)["output"]

    try:
        raw["sealed_save_s"] = _median_s(sealed_save, args.repeats)
        raw["sealed_load_s"] = _median_s(sealed_load, args.repeats)
        mapped = sealed_load()
        assert torch.equal(mapped, host), "the probe's sealed round trip changed the values"
        if device == "cuda":
            raw["mapped_to_gpu_pageable_s"] = _median_s(lambda: mapped.to(device), args.repeats)
            raw["mapped_to_gpu_s"] = _median_s(lambda: to_device(mapped, result.device), args.repeats)
        del mapped
    finally:
        for file in sealed:
            os.close(file.fd)
    try:
        raw["write_file_s"] = _median_s(plain_save, args.repeats)
        raw["candidate_save_s"] = _median_s(save, args.repeats)
        raw["baseline_load_s"] = _median_s(lambda: load_tensors(path, 2 * host.nbytes, sha256=digests[-1]),
                                           args.repeats)
        loaded = load_tensors(path, 2 * host.nbytes, sha256=digests[-1])["output"]
        assert torch.equal(loaded, host), "the probe's round trip changed the values"
    finally:
        path.unlink(missing_ok=True)
        os.rmdir(folder)
    out["seconds"] = raw
    out["gb_per_s"] = {k[:-2]: round(gb / s, 2) for k, s in raw.items() if s > 0 and k != "pinned_alloc_s"}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
