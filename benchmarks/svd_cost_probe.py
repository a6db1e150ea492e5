"""Seconds of float64 singular values (what the linear-algebra checks' condition numbers cost) on
the GPU and on the host, per shape and method:

    python benchmarks/svd_cost_probe.py 4096 [--batch 1] [--methods gpu,cpu,cpu1,gesvdj,gesvda]

``gpu``: torch.linalg.svdvals on CUDA; ``cpu``: on the host with torch's default threads; ``cpu1``:
on the host with one thread; ``gesvdj`` / ``gesvda``: torch.linalg.svd on CUDA with that cuSOLVER
driver. Prints one JSON line per method as it finishes (so ``timeout`` keeps what was measured)
with the seconds and the largest relative difference from the first method's values."""

from __future__ import annotations

import argparse
import json
import time

import torch


def _values(method: str, a: torch.Tensor) -> torch.Tensor:
    if method == "gpu":
        return torch.linalg.svdvals(a.cuda())
    if method in ("cpu", "cpu1"):
        threads = torch.get_num_threads()
        if method == "cpu1":
            torch.set_num_threads(1)
        try:
            return torch.linalg.svdvals(a.cpu())
        finally:
            torch.set_num_threads(threads)
    return torch.linalg.svd(a.cuda(), full_matrices=False, driver=method).S


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--methods", default="gpu,cpu,cpu1,gesvdj,gesvda")
    args = parser.parse_args()
    g = torch.Generator().manual_seed(0)
    shape = (args.batch, args.n, args.n) if args.batch > 1 else (args.n, args.n)
    a = torch.randn(shape, generator=g, dtype=torch.float64)
    if torch.cuda.is_available():
        torch.zeros(1, device="cuda")  # CUDA context outside the timings
        torch.linalg.svdvals(torch.eye(4, dtype=torch.float64, device="cuda"))  # cuSOLVER handle too
    first = None
    for method in args.methods.split(","):
        clock = time.perf_counter()
        s = _values(method, a)
        if s.is_cuda:
            torch.cuda.synchronize()
        seconds = time.perf_counter() - clock
        s = s.cpu()
        first = s if first is None else first
        diff = float(((s - first).abs() / first.abs().clamp_min(1e-300)).max())
        print(json.dumps({"shape": list(shape), "method": method, "s": round(seconds, 3),
                          "threads": torch.get_num_threads(), "max_rel_diff": diff}), flush=True)


if __name__ == "__main__":
    main()
