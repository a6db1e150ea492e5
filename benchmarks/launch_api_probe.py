"""Which launch API queued each GPU kernel, as the profiler the harness traces calls with reports
it (GPU only). A question for the GPU trace (README "Not defended": the launch counter can be
edited through the patched launch function's closure): if the trace ties every kernel to the API
call that queued it, the submission's kernels could be told from library kernels named like them
by how they were launched (Triton's launcher calls the driver's cuLaunchKernelEx; PyTorch's kernels
go through the runtime's cudaLaunchKernel, its runtime-compiled ones through cuLaunchKernel)
instead of by a count kept in the submission's process.

    python benchmarks/launch_api_probe.py [--cpu-events]

Runs a Triton kernel, torch.relu, a jiterator op (torch.special.airy_ai), a matmul and a copy
under the same profiler settings as harness/sandbox/gpu_trace.py (``--cpu-events``: with CPU
events on too, to see whether the runtime/driver calls need them) and prints every event: device
type, name, correlation id, and for CPU-side events the kernels linked to them.
"""

from __future__ import annotations

import argparse

import torch
import triton
import triton.language as tl


@triton.jit
def probe_relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


def workload() -> None:
    x = torch.randn(1 << 20, device="cuda")
    y = torch.empty_like(x)
    probe_relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    torch.relu(x)
    torch.special.airy_ai(x[:1024])
    a = torch.randn(512, 512, device="cuda")
    a @ a
    y.copy_(x)
    torch.cuda.synchronize()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu-events", action="store_true")
    args = parser.parse_args()
    from torch.autograd.profiler import profile
    workload()  # compile and load everything first: the traced pass launches only
    with profile(use_cpu=args.cpu_events, use_device="cuda", use_kineto=True) as prof:
        workload()
    print("function_events:")
    for event in prof.function_events:
        linked = [k.name[:60] for k in getattr(event, "kernels", [])]
        print(f"  {str(event.device_type):22} id={event.id:<6} {event.name[:100]!r} kernels={linked}")
    print("kineto events:")
    for event in prof.kineto_results.events():
        print(f"  {str(event.device_type()):22} corr={event.correlation_id():<8} {event.name()[:100]!r}")


if __name__ == "__main__":
    main()
