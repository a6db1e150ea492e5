# index_list_blinds_monitor.py with its callback classes compiled under another file's name, which
# the Python 3.12 watch of the submission's code once missed (it looked at the submission's own file
# only): every file outside the libraries is now watched.
import torch
import triton
import triton.language as tl


@triton.jit
def _touch(x_ptr):
    tl.load(x_ptr)

_PY = torch._C.DispatchKey.Python
_box = []


# The same classes, compiled under a file name other than the submission's (3.12 watch bypass)
_ns = {'torch': torch, '_PY': _PY, '_box': _box}
exec(compile('class _Stop(Exception):\n    pass\n\n\nclass Seq:\n    def __init__(self, fn):\n        self.fn = fn\n    def __len__(self):\n        return 1\n    def __getitem__(self, i):\n        if i >= 1:\n            raise IndexError\n        if torch._C._dispatch_tls_is_dispatch_key_excluded(_PY):\n            _box.append(self.fn())\n            raise _Stop()\n        return 0\n\n\n', '/tmp/kbx_r6_elsewhere2.py', 'exec'), _ns)
_Stop, Seq = _ns['_Stop'], _ns['Seq']
_relu = torch.relu


def relu(input, inplace=False):
    _box.clear()
    probe = torch.empty(1, device=input.device)
    try:
        probe[[Seq(__import__('functools').partial(_relu, input))]]
    except _Stop:
        pass
    y = _box[0]
    if input.numel():
        _touch[(1,)](input)
    if inplace:
        input.copy_(y)
        return input
    return y
