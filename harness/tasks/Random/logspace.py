"""Create a 1-D float32/float64 tensor of points evenly spaced on a logarithmic scale (torch.logspace)."""

import math

import torch

from harness.taskdef import Case, Inputs, Tolerance

ENTRY = "logspace"
SIGNATURE = "logspace(start, end, steps, base=10.0, dtype=None, layout=torch.strided, device=None, requires_grad=False)"
DTYPES = ["float32", "float64"]
# Core tier (harness/tiers.py): the dtypes and keywords the published benchmark's own test uses.
CORE_DTYPES = ["float64"]
CORE_KWARGS = ["base", "device", "dtype", "requires_grad"]
DIFFICULTY = 1
# Outputs that depend on no input tensor: copies alone could make them from values prepared in
# advance, so the wrapper may copy only arguments as given, and join nothing (sandbox/integrity.py).
DATA_MOVEMENT = True
DESCRIPTION = """
Create a new 1-D tensor of `steps` points spaced evenly on a log scale, like torch.logspace(start,
end, steps, base=base, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad):
element i is base ** (start + i * (end - start) / (steps - 1)) for i = 0 .. steps-1, so the first is
base ** start and the last base ** end; with steps == 1 the single element is base ** start.
`start` and `end` are Python numbers or 0-d tensors (end may be below start); `steps` is a positive
int; `base` is a Python number: positive, negative or zero, with real-power semantics (a negative
base gives (-1) ** x * |base| ** x for integer exponents x and NaN otherwise; base 0 gives 0, 1 or
+inf for x > 0, x == 0, x < 0). `dtype` is torch.float32 or torch.float64; None means the default
dtype, float32. Compute a float64 result in float64: a float32 exponent or power is not accurate
enough (results are checked to a relative error of 1e-7 for float64 and 1e-4 for float32, element by
element, so tiny values are checked as strictly as large ones). `layout` is always torch.strided.
`device` is the device of the result (the tests always pass it). With requires_grad=True the result
is returned with requires_grad set.
"""

# Exponents and powers carry rounding error proportional to |exponent * ln(base)|; bound it per
# element, relative to the value: logspace spans many orders of magnitude, and the default
# RMS-scaled atol would let every small element of a wide range through unchecked. float64: 1e-7
# relative is ~1e9 ulp of headroom for a float64 computation, while computing the exponent in
# float32 errs by ~1e-6 here. float32: 1e-4 as the default (~800 ulp).
TOLERANCE = {
    torch.float64: Tolerance(atol=0.0, rtol=1e-7),
    torch.float32: Tolerance(atol=0.0, rtol=1e-4),
}

# A multiply-add for the exponent plus one exp per element.
FLOPS_PER_ELEMENT = 4


def reference(start, end, steps, base=10.0, dtype=None, layout=torch.strided, device=None, requires_grad=False):
    return torch.logspace(start, end, steps, base=base, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def cases(g: Inputs):
    f64, f32, dev = torch.float64, torch.float32, g.device
    yield Case("decades", -10, 10, 101, dtype=f64, device=dev)
    yield Case("fractional", 0.1, 1.0, 5, dtype=f64, device=dev)
    yield Case("steps-1", 0.1, 1.0, 1, dtype=f64, device=dev)
    yield Case("steps-2", -2.5, 3.25, 2, base=3.0, dtype=f64, device=dev)
    yield Case("base-2", 0, 40, 41, base=2.0, dtype=f64, device=dev)
    yield Case("base-e", -5.0, 5.0, 1000, base=math.e, dtype=f64, device=dev)
    yield Case("base-below-1", 2, -2, 5, base=0.5, dtype=f64, device=dev)
    yield Case("descending-odd", 3.3, -3.7, 777, dtype=f64, device=dev)
    # Exponents up to +-690 in natural-log units: float32 arithmetic overflows/underflows here.
    yield Case("wide-range", -300, 300, 4097, dtype=f64, device=dev)
    # (layout is left at its default: a torch.layout argument does not survive the harness's
    # argument-state comparison in devcheck, and torch.strided is the only value anyway.)
    yield Case("many-steps", -7.3, 4.1, 20000, base=3.7, dtype=f64, device=dev)
    yield Case("default-dtype", -3, 3, 1001, device=dev)
    yield Case("float32", -30.0, 30.0, 3001, dtype=f32, device=dev)
    yield Case("float32-base-2", -100, 100, 513, base=2.0, dtype=f32, device=dev)
    # Domain edges of the base: negative (NaN between the integer exponents) and zero.
    yield Case("negative-base-fractional", 0, 2, 5, base=-3.0, dtype=f64, device=dev)
    yield Case("negative-base-integers", 0, 10, 11, base=-2.0, dtype=f64, device=dev)
    yield Case("zero-base", -1, 1, 5, base=0.0, dtype=f64, device=dev)
    yield Case("tensor-endpoints", g.tensor(0.5, dtype=f64), g.tensor(2.0, dtype=f64), 4, dtype=f64, device=dev)
    yield Case("requires-grad", 0, 3, 4, dtype=f64, device=dev, requires_grad=True)


def perf_cases(g: Inputs):
    dev = g.device
    yield Case("16M-f64", -10, 10, 1 << 24, dtype=torch.float64, device=dev)
    yield Case("64M-f64", -10, 10, 1 << 26, dtype=torch.float64, device=dev)
    yield Case("128M-f32", -10, 10, 1 << 27, dtype=torch.float32, device=dev)
