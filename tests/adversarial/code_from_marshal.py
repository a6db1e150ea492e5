# Reads a code object back from bytes whose file name it rewrote to Triton's jit.py, and runs a
# function of it: its frames would count as Triton's (here it is only read, and refused).
import marshal
import os

import torch
import triton

_SOURCE = "def grab():\n    import sys\n    return sys._getframe(0)\n"


def relu(input, inplace=False):
    fake = os.path.join(os.path.dirname(triton.__file__), "runtime", "jit.py")
    real = "/" + "z" * (len(fake) - 1)
    data = marshal.dumps(compile(_SOURCE, real, "exec")).replace(real.encode(), fake.encode())
    namespace = {}
    exec(marshal.loads(data), namespace)
    return torch.relu(input)
