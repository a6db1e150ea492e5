"""What takes page-locked host memory in a CUDA process, as torch's host allocator counts it, and
which installed packages reach CUDA natively (a GPU kernel can address page-locked host memory:
README "Host memory reached from a kernel"). Run on a GPU machine; prints one JSON object.

    python3 benchmarks/host_pinned_probe.py
"""

from __future__ import annotations

import importlib.util
import json

import torch


def counters() -> dict:
    stats = torch.cuda.host_memory_stats()
    return {k: v for k, v in stats.items() if any(w in k for w in ("allocated", "alloc", "requests", "current"))}


def delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before.get(k, 0) for k in after if isinstance(after[k], (int, float)) and after[k] != before.get(k, 0)}


def main() -> None:
    x = torch.randn(1 << 20, device="cuda")
    mask = x > 0
    torch.cuda.synchronize()
    ops = {
        "empty(pin_memory=True) 4 MB": lambda: torch.empty(1 << 20, pin_memory=True),
        "cpu(non_blocking=True)": lambda: x.to("cpu", non_blocking=True),
        "cpu()": lambda: x.cpu(),
        "nonzero": lambda: torch.nonzero(mask),
        "masked_select": lambda: torch.masked_select(x, mask),
        "item": lambda: x.sum().item(),
        "unique": lambda: torch.unique(mask),
        "repeat_interleave": lambda: torch.repeat_interleave(torch.ones(4, dtype=torch.long, device="cuda")),
        "index_put bool": lambda: x.clone().index_put_((mask,), torch.tensor(0.0, device="cuda")),
        "tolist": lambda: x[:8].tolist(),
        "tensor(list, device=cuda)": lambda: torch.tensor([1.0, 2.0], device="cuda"),
        "randperm cuda": lambda: torch.randperm(1000, device="cuda"),
        "multinomial": lambda: torch.multinomial(torch.ones(10, device="cuda"), 3),
    }
    report: dict = {"torch": torch.__version__, "keys": sorted(torch.cuda.host_memory_stats()),
                    "raw": torch._C._cuda_hostMemoryStats()}
    for name, op in ops.items():
        before = counters()
        op()
        torch.cuda.synchronize()
        report[name] = delta(before, counters())
    report["packages"] = {name: importlib.util.find_spec(name.split(".")[0]) is not None and
                          importlib.util.find_spec(name) is not None
                          for name in ("cupy", "numba", "pycuda", "cuda", "cuda.bindings", "cuda.core",
                                       "nvidia.cuda_runtime", "pynvml", "nvmath", "cuda.cccl")}
    import sys
    report["cudart_in_sys_modules"] = "torch._C._cudart" in sys.modules
    report["cudart"] = sorted(n for n in dir(torch.cuda.cudart()) if not n.startswith("_"))
    print(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
