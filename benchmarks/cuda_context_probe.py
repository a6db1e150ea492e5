"""GPU memory a worker-like process holds outside PyTorch's caching allocator: its CUDA context and
loaded kernel code (harness/run/gpu_memory.py ``CUDA_CONTEXT``, the part of a call/exe allowance a
job in perf does not lend). Prints the driver's count of this process's memory (nvidia-smi) beside
the allocator's reserved bytes, after CUDA starts, after a Triton kernel, and after a few eager ops.

    python3 benchmarks/cuda_context_probe.py   (on a GPU)
"""

from __future__ import annotations

import os
import subprocess

import torch
import triton
import triton.language as tl


@triton.jit
def _add_one(x_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + 1, mask=mask)


def process_mib() -> int | None:
    """This process's GPU memory as the driver counts it (MiB), or None if nvidia-smi does not list it."""
    out = subprocess.run(["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader,nounits"],
                         capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        pid, _, used = line.partition(",")
        if pid.strip() == str(os.getpid()):
            return int(used.strip())
    return None


def show(step: str) -> None:
    torch.cuda.synchronize()
    used, reserved = process_mib(), torch.cuda.memory_reserved() >> 20
    outside = None if used is None else used - reserved
    print(f"{step}: process {used} MiB, allocator reserved {reserved} MiB, outside the allocator {outside} MiB")


if __name__ == "__main__":
    x = torch.zeros(1 << 20, device="cuda")
    show("CUDA started, 4 MiB tensor")
    _add_one[(triton.cdiv(x.numel(), 1024),)](x, x.numel(), BLOCK=1024)
    show("after a Triton kernel")
    y = torch.nn.functional.gelu(x).sum() + torch.softmax(x.view(1024, -1), -1).mean() + (x @ x.view(-1, 1)).sum()
    show("after eager elementwise, reduction, softmax and matmul")
