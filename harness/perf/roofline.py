"""The GPU's measured ceilings: copy bandwidth and dense matmul FLOP/s per dtype.

Measured once per GPU model (never datasheet constants) and cached as JSON; "% of roofline" for a
case is the roofline time max(bytes / bandwidth, flops / peak) over its measured time.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import torch

from harness.files import write_json_atomic
from harness.precision import pin_precision

COPY_BYTES = 2 << 30             # 2 GiB source: far beyond any L2
MATMUL_N = 8192
MATMUL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8")
SPLIT_PRODUCTS_FOR_FLOAT32 = 3  # bfloat16 tensor-core products that emulate one float32 product
REPS = 20


def gpu_slug(name: str) -> str:
    """A folder name for a GPU model: 'NVIDIA H200' -> 'h200', 'NVIDIA A100-SXM4-80GB' -> 'a100-sxm4-80gb'."""
    name = re.sub(r"^(nvidia|amd)\s+", "", name.strip(), flags=re.I)
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unknown-gpu"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kernelbenchx" / "roofline"


def _median_ms(fn, reps: int = REPS) -> float:
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def _copy_ms(device: torch.device) -> float:
    src = torch.randn(COPY_BYTES // 4, device=device)
    dst = torch.empty_like(src)
    return _median_ms(lambda: dst.copy_(src))


def _matmul_ms(device: torch.device, dtype: torch.dtype, reps: int) -> float:
    if dtype == torch.int8:  # int8 x int8 -> int32 on the tensor cores
        a = torch.randint(-127, 128, (MATMUL_N, MATMUL_N), device=device, dtype=torch.int8)
        b = torch.randint(-127, 128, (MATMUL_N, MATMUL_N), device=device, dtype=torch.int8)
        return _median_ms(lambda: torch._int_mm(a, b), reps=reps)
    a = torch.randn(MATMUL_N, MATMUL_N, device=device).to(dtype)
    b = torch.randn(MATMUL_N, MATMUL_N, device=device).to(dtype)
    return _median_ms(lambda: torch.mm(a, b), reps=reps)


def measure(device: torch.device | str = "cuda") -> dict[str, Any]:
    """Copy bandwidth (bytes read + written per second) and matmul FLOP/s per dtype, on random data
    (zeros can run faster than real data), with TF32 off as in every timed call."""
    pin_precision(torch)
    device = torch.device(device)
    copy_ms = _copy_ms(device)
    peaks = {}
    for name in MATMUL_DTYPES:
        dtype = getattr(torch, name)
        try:
            ms = _matmul_ms(device, dtype, reps=5 if dtype == torch.float64 else REPS)
        except (RuntimeError, AttributeError):  # no int8 matmul in this torch/GPU: that peak stays unknown
            continue
        peaks[name] = 2 * MATMUL_N ** 3 / (ms * 1e-3)
    torch.cuda.empty_cache()
    return {"gpu": torch.cuda.get_device_name(device), "copy_bytes_per_s": 2 * COPY_BYTES / (copy_ms * 1e-3),
            "matmul_flops_per_s": peaks, "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "method": f"median of {REPS} CUDA-event timings: copy of {COPY_BYTES >> 20} MiB fp32 "
                      f"(read + write counted), torch.mm {MATMUL_N}^3 per dtype, TF32 off",
            "torch": torch.__version__, "cuda": str(torch.version.cuda)}


def load_or_measure(device: torch.device | str = "cuda", golden_dir: Path | None = None) -> dict[str, Any]:
    """The roofline of this GPU model: from the golden results, else the user cache, else measured now."""
    slug = gpu_slug(torch.cuda.get_device_name(device))
    for path in ([golden_dir / "roofline.json"] if golden_dir else []) + [cache_dir() / f"{slug}.json"]:
        if path.exists():
            try:
                return json.loads(path.read_text())
            except ValueError:
                pass  # a torn cache file: measure again
    return measure_and_cache(device)


def measure_and_cache(device: torch.device | str = "cuda") -> dict[str, Any]:
    """Measure now and store the result in the user cache for this GPU model."""
    data = measure(device)
    path = cache_dir() / f"{gpu_slug(data['gpu'])}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, data)
    return data


def case_dtype(tensors: list[torch.Tensor], declared: str | None = None) -> str:
    """The dtype whose matmul peak bounds a case: the task's declared ``COMPUTE_DTYPE`` (e.g. "int8"
    for a quantized task whose inputs are float), else that of its largest floating-point tensor."""
    if declared:
        return declared
    floats = [t for t in tensors if t.is_floating_point()]
    if not floats:
        return "float32"
    return str(max(floats, key=lambda t: t.numel()).dtype).removeprefix("torch.")


def roofline_ms(flops: float, bytes_moved: float, dtype: str, roofline: dict[str, Any]) -> float:
    """The fastest any kernel could do a case on this GPU: max(bytes / bandwidth, flops / peak).
    For float32 the peak is not only the measured float32 matmul (TF32 off) but also a third of the
    bfloat16 one: a kernel can reach float32 accuracy with three bfloat16 tensor-core products per
    product (the "bf16x3" split), so a true lower bound on its time must allow that rate."""
    peaks = roofline["matmul_flops_per_s"]
    peak = peaks.get(dtype) or peaks["float32"]
    if dtype == "int8":
        # int8 tensor cores run at twice the 16-bit rate on NVIDIA GPUs. torch._int_mm reaches far
        # less than that on an H200 (127 TFLOP/s measured, against 742 for float16), so the measured
        # figure alone would call an honest Triton int8 GEMM faster than physics: the bound is the
        # larger of it and twice every other measured peak.
        peak = max(peaks.get("int8", 0.0), 2 * max(v for k, v in peaks.items() if k != "int8"))
    if dtype == "float32" and peaks.get("bfloat16"):
        peak = max(peak, peaks["bfloat16"] / SPLIT_PRODUCTS_FOR_FLOAT32)
    return max(bytes_moved / roofline["copy_bytes_per_s"], flops / peak) * 1e3
