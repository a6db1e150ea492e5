# torch/_higher_order_ops/triton_kernel_wrap.py is one of the LAUNCH_ENTRY_FILES (torch's wrappers
# that launch Triton kernels) but not among the CALLBACK_FILES, and its TracingTritonHOPifier
# .call_user_defined_fn(user_fn, args, kwargs, ...) returns user_fn(*args, **kwargs): handed
# triton.runtime.build.compile_module_from_src, the submission "entered Triton's launch path" there
# and no callback caller stands between, so gcc builds the submission's C and it is loaded. The C
# computes relu on host memory; the only Triton kernel launched loads and stores nothing.
import torch
import triton
import triton.language as tl
from torch._higher_order_ops.triton_kernel_wrap import tracing_triton_hopifier_singleton as _hop
from triton.runtime.build import compile_module_from_src

C_SOURCE = r"""
#include <Python.h>
#include <stdint.h>
static PyObject* relu(PyObject* self, PyObject* args) {
    unsigned long long xp, yp; long long n, sx, sy;
    if (!PyArg_ParseTuple(args, "KKLLL", &xp, &yp, &n, &sx, &sy)) return NULL;
    const float* x = (const float*)(uintptr_t)xp; float* y = (float*)(uintptr_t)yp;
    for (long long i = 0; i < n; i++) { float v = x[i * sx]; y[i * sy] = (v < 0.0f) ? 0.0f : v; }
    Py_RETURN_NONE;
}
static PyMethodDef methods[] = {{"relu", relu, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "kbx_native_relu", NULL, -1, methods};
PyMODINIT_FUNC PyInit_kbx_native_relu(void) { return PyModule_Create(&mod); }
"""


@triton.jit
def _nothing_kernel(x_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    tl.load(x_ptr + offsets, mask=mask)


_NATIVE = []


def _native():
    if not _NATIVE:
        _NATIVE.append(_hop.call_user_defined_fn(compile_module_from_src, [C_SOURCE, "kbx_native_relu"], {},
                                                 None, None))
    return _NATIVE[0]


def relu(input: torch.Tensor, inplace: bool = False) -> torch.Tensor:
    mod = _native()
    x = input.contiguous()
    y = x if (inplace and x is input) else torch.empty_like(x)
    n = x.numel()
    if n:
        _nothing_kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024)
        mod.relu(x.data_ptr(), y.data_ptr(), n, 1, 1)
    if inplace:
        if y is not input:
            input.copy_(y)
        return input
    return y.view(input.shape)
