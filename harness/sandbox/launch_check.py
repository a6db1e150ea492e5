"""What Triton may be handed when the submission launches a kernel.

Triton calls back into objects the submission gives it: the grid, autotune and heuristics hooks,
the kernel's arguments (``data_ptr``, ``__index__``, ...). Those calls come from Triton's own frames,
which the guard (guard.py) trusts to act for themselves, so a callback that is not Python code of
the submission's (``functools.partial(exec, ...)``, ``partial(os.system, ...)``, a library helper)
would run with Triton's authority. And Triton's compiler runs programs named by the environment and
``triton.knobs`` (the C compiler, ``ptxas``): a submission that changed those would have a legitimate
launch run its program. Before every launch, :class:`LaunchCheck` therefore requires:

- every callable Triton will call back (hooks, the grid, pre-run hooks, an interpreted kernel's
  function) to be a Python function or method written in the submission's file, or one of the few
  of Triton's own that Triton itself hands back there (``TRITON_CALLBACKS``): any other Triton
  function is a gadget, whose frames the guard trusts (``_test_runner._run`` as a grid ran a shell,
  ``AsyncCompileMode.submit`` started a thread that ran torch unwatched, the AMD backend's loader as
  a pre-run hook loaded the submission's C);
- every kernel argument to be a plain tensor, a number, a string, ``None`` or one of Triton's own
  types (tuples of those too);
- and, checked after the import, after each call and whenever Triton is about to run a program or
  load native code (see :meth:`LaunchCheck.compiler_state_changed`), the environment variables that
  steer the compiler (``CC``, ``PATH``, ``TRITON_*``, ...) and ``triton.knobs`` to be as they were
  before the submission was imported.

A refusal is a :class:`LaunchRefused` (``tampering: ...``), an integrity verdict. The check runs
from the launch counter's stand-ins (integrity.LaunchCounter), through the guard's audit hook: it is
reachable from nowhere the submission can write.
"""

from __future__ import annotations

import enum
import functools
import os
import sys
from typing import Any

from harness.shadowing import shadowed

_OWN_DICT = object.__getattribute__  # an instance's own __dict__ (a data descriptor of its type)

HOOK_ATTRIBUTES = ("pre_hook", "post_hook", "early_config_prune", "perf_model", "_do_bench")
# Triton's own functions that may be handed back to it (file in Triton's package, start of the
# qualified name): the autotuner's default hooks and benchmark wrappers (lambdas and closures its
# __init__ makes), and the benchmark functions of triton.testing (autotune(do_bench=...)); and
# for a kernel function only (an interpreted kernel, a @jit helper handed as an argument),
# triton.language's @jit helpers
TRITON_CALLBACKS = (("runtime/autotuner.py", "Autotuner.__init__.<locals>."), ("testing.py", "do_bench"))
TRITON_KERNEL_FUNCTIONS = (("language/", ""),)
# Environment variables that name or steer the programs and libraries Triton's compiler uses
COMPILER_ENV_PREFIXES = ("TRITON_", "CUDA_", "NVIDIA_", "LD_", "PTXAS", "NVCC")
COMPILER_ENV_NAMES = frozenset({"CC", "CXX", "PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
                                "PYTHONPATH", "HOME", "TMPDIR", "XDG_CACHE_HOME"})
# ...but for these, which steer no compiler: CUDA's debugging switches (CUDA_LAUNCH_BLOCKING set
# at import is a common leftover; it only makes launches wait for their kernels), the device
# selection and connection count read when a CUDA context starts (the worker's is made before the
# import, so setting them there changes nothing of its own: common leftovers of scripts that pick a
# card), Triton's switch that prints the autotuner's choice (TRITON_PRINT_AUTOTUNING, as common a
# leftover) and the one that lets a kernel read non-constexpr globals (its own error message
# recommends it; it changes which kernels compile, not which programs run)
COMPILER_ENV_EXEMPT = frozenset({"CUDA_LAUNCH_BLOCKING", "CUDA_DEVICE_ORDER", "CUDA_VISIBLE_DEVICES",
                                 "CUDA_DEVICE_MAX_CONNECTIONS", "TRITON_PRINT_AUTOTUNING",
                                 "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS"})
# Triton's knobs that may change after the import, for the same reason (section, name): the
# autotuner's printing of its choice
KNOBS_EXEMPT = frozenset({("autotuning", "print")})
MAX_DEPTH = 8  # Autotuner -> Heuristics -> ... -> JITFunction
# Triton's option to replace a compile stage's output with a file's (IR, PTX, a cubin): a kernel
# then runs code that was not compiled from its Triton source
IR_OVERRIDE = ("a launch or config asks Triton to take a stage's output from a file (ir_override): the kernel "
               "would run code not compiled from its Triton source")


class LaunchRefused(PermissionError):
    """A launch handed Triton something it would call with its own authority."""


class LaunchCheck:
    """Built before the submission is imported (it snapshots the environment and Triton's knobs)."""

    # numbers the launches of one call may pass in their arguments while recording: values computed
    # in Python and passed as kernel arguments (256 a launch, each float64 as two ints in a tuple)
    # were a task's whole answer beside a kernel that only stored them (logspace_tuple_args.py);
    # every task recorded so has a case of more than 20,000 values
    MAX_KERNEL_ARGUMENT_NUMBERS = 8192

    def __init__(self, submission_file: str, device_tensors_only: bool = False, record_launches: bool = False) -> None:
        """``device_tensors_only``: kernels run on a GPU, so every tensor argument must live there
        (a pinned host tensor is addressable from a kernel too: its values would be computed on the
        host, unseen, between two kernels that only copy). ``record_launches`` (a task whose outputs
        copies alone could make): from ``start_recording`` to ``take_launch_facts`` (one watched
        call), count the numbers the launches pass (refused past ``MAX_KERNEL_ARGUMENT_NUMBERS``)
        and the bytes of the storages they take that the op monitor does not know as the call's
        (memory prepared before it), for the monitor."""
        import numpy
        import torch
        import triton
        import triton.language as tl
        self._submission = os.path.realpath(submission_file)
        self._triton_dir = os.path.dirname(os.path.realpath(triton.__file__)) + os.sep
        self._function, self._method = type(_plain_function), type(self._refuse)
        # a partial of a function (called back, it runs that function's frame) and an instance of a
        # plain class whose __call__ is a function: read through C members and the classes' own
        # dictionaries, so nothing of the submission's runs as they are judged
        self._partial, self._partial_func = functools.partial, functools.partial.__dict__["func"].__get__
        self._partial_args = functools.partial.__dict__["args"].__get__
        self._partial_keywords = functools.partial.__dict__["keywords"].__get__
        self._type_mro, self._type_dict = type.__dict__["__mro__"].__get__, type.__dict__["__dict__"].__get__
        self._proxy_get, self._plain_class = type(type.__dict__).get, type
        self._tensor_types = (torch.Tensor, torch.nn.Parameter)
        self._device_tensors_only = device_tensors_only
        self._is_cuda = torch.Tensor.is_cuda.__get__
        self._scalar_types = (int, float, bool, str, type(None), torch.dtype)
        # sequences whose items are checked in turn: torch.Size is PyTorch's own tuple of ints (a
        # tensor's shape, which TensorDescriptor.from_tensor keeps), with no method of anyone else's
        self._sequence_types = frozenset({tuple, list, torch.Size})
        self._numpy_types = frozenset(t for t in numpy.sctypeDict.values() if isinstance(t, type))
        # Triton's own argument types, by identity: a class the submission makes is never one of them
        self._triton_types = frozenset(t for module in (tl, tl.core) for t in vars(module).values()
                                       if isinstance(t, type))
        descriptors = _tensor_descriptor_types()
        self._triton_types |= descriptors
        self._inspected_types = descriptors | {tl.constexpr}
        from triton.runtime import jit
        try:  # under TRITON_INTERPRET=1 @triton.jit makes an InterpretedFunction
            from triton.runtime.interpreter import InterpretedFunction
        except ImportError:  # pragma: no cover - a Triton without the interpreter
            InterpretedFunction = None
        self._jit_types = frozenset(t for t in (getattr(jit, "JITFunction", None), InterpretedFunction) if t is not None)
        # enums of numbers: the enum module's own classes and metaclass, and its code's file
        self._enum_meta, self._enum_file = type(enum.Enum), enum.Enum.__new__.__code__.co_filename
        self._enum_bases = frozenset(v for v in vars(enum).values() if isinstance(v, type)) | {int, float, object}
        self._enum_numbers = (int, float)
        self._enum_plain_values = frozenset({str, type(None), bool, int, list, dict, type, type(len),
                                             type(int.__add__), type(int.__format__)})
        # What the checks read, bound now: the checks run after each call, when the submission may
        # have replaced os.environ (an object whose methods are its code) or the names read here
        # (this module's globals are reachable through a method's __globals__).
        self._environ_state = _EnvironmentState(os, COMPILER_ENV_NAMES, COMPILER_ENV_PREFIXES, COMPILER_ENV_EXEMPT)
        self._environ = self._environ_state.read()
        self._knobs = _knobs_state()
        self._knobs_state = _knobs_state
        # the sections themselves, by identity (held, so no id is reused): a stand-in section of the
        # submission's, made to read like the original, would answer Triton's compiler
        knobs = sys.modules.get("triton.knobs")
        self._knobs_dict = vars(knobs) if knobs is not None else {}
        self._sections = dict(self._knobs_dict)
        self._dict_get = dict.get
        self._vars, self._type = vars, type
        self._records_launches, self._recording = record_launches, False
        self._numbers = 0
        self._known: Any = None          # the monitor's test of a storage (made in the call, or an argument's)
        self._prepared: set[int] = set()  # storages taken that it did not know, counted once each
        self._prepared_bytes = 0
        self._str_types, self._len = (str,), len
        self._callable = callable

    def _refuse(self, what: str) -> None:
        raise LaunchRefused(f"tampering: {what}")

    def _callable_ok(self, obj: Any, depth: int = 0, kernel: bool = False) -> bool:
        if obj is None:
            return True
        kind = self._type(obj)
        if kind is self._partial:
            return depth < MAX_DEPTH and self._callable_ok(self._partial_func(obj), depth + 1, kernel)
        if kind is self._method:
            obj = obj.__func__
        elif kind is not self._function and self._type(kind) is self._plain_class:
            obj = self._class_call(kind)  # an instance called: its class's __call__
        if self._type(obj) is not self._function:
            return False
        code = obj.__code__
        filename = os.path.realpath(code.co_filename)
        if filename == self._submission:
            return True
        if not filename.startswith(self._triton_dir):
            return False
        inside = filename[len(self._triton_dir):]
        for where, name in TRITON_CALLBACKS + (TRITON_KERNEL_FUNCTIONS if kernel else ()):
            placed = inside.startswith(where) if where.endswith("/") else inside == where
            if placed and code.co_qualname.startswith(name):
                return True
        return False

    def _as_judged(self, obj: Any, depth: int = 0) -> Any:
        """A callable that does what ``obj`` (judged by :meth:`_callable_ok`) does now: a partial
        remade from its function and arguments as they are, an instance bound to its class's
        ``__call__`` as it is; a function as it is (its code cannot be changed)."""
        kind = self._type(obj)
        if kind is self._partial and depth < MAX_DEPTH:
            return self._partial(self._as_judged(self._partial_func(obj), depth + 1),
                                 *self._partial_args(obj), **self._partial_keywords(obj))
        if kind is not self._function and kind is not self._method and self._type(kind) is self._plain_class:
            return self._partial(self._class_call(kind), obj)
        return obj

    def _class_call(self, cls: type) -> Any:
        """The ``__call__`` an instance of ``cls`` runs (the first in its classes' own dictionaries)."""
        for klass in self._type_mro(cls):
            found = self._proxy_get(self._type_dict(klass), "__call__")
            if found is not None:
                return found
        return None

    def _callback(self, obj: Any, what: str, kernel: bool = False) -> None:
        if not self._callable_ok(obj, kernel=kernel):
            self._refuse(f"the {what} Triton would call is a {self._type(obj).__name__}, not a Python function of "
                         "the submission's file (Triton calls it back with its own authority; of Triton's own "
                         "functions only those Triton itself hands back there are allowed)")

    def _argument(self, value: Any, depth: int = 0) -> None:
        kind = self._type(value)
        if kind in self._tensor_types:
            if self._device_tensors_only and not self._is_cuda(value):
                self._refuse("a kernel argument is a tensor in host memory: on a GPU every tensor a kernel reads "
                             "or writes must be on the GPU (host memory a kernel can address is work done on the "
                             "host, unseen)")
            hidden = shadowed(value)
            if hidden:  # Triton reads data_ptr() and friends of it, with its own authority
                self._refuse(f"a kernel argument is a tensor with an attribute of its own named {hidden!r}, which "
                             "hides torch.Tensor's")
            if self._recording:
                self._note_storage(value)
            return
        if kind in self._scalar_types:
            if self._recording:  # a string's characters count too: eight to a number
                self._numbers += (self._len(value) // 8 + 1) if kind in self._str_types else 1
            return
        if kind in self._jit_types:  # a @triton.jit function handed to a kernel (a constexpr parameter)
            self._callback(self._vars(value).get("fn"), "function of a @triton.jit argument", kernel=True)
            return
        if kind in self._inspected_types:
            # a constexpr's value, a tensor descriptor's base and sizes: handed on to Triton too
            if depth >= 4:
                self._refuse("kernel arguments nested too deeply")
            for item in self._vars(value).values():
                self._argument(item, depth + 1)
            return
        if kind in self._triton_types:
            # Triton's own type, but attributes of the instance's own are the submission's: a
            # tl.dtype given data_ptr() was taken for a tensor and called by the interpreter
            # (permute_copy_plumbing_attr.py); numbers they carry are counted (a tl.tuple of them)
            try:
                own = _OWN_DICT(value, "__dict__")
            except AttributeError:
                own = {}
            for item in (own.values() if self._type(own) is dict else ()):
                if self._callable(item):
                    self._refuse(f"a kernel argument of Triton's type {kind.__name__} holds a callable of its own "
                                 f"({self._type(item).__name__}): pass Triton's types as Triton makes them")
                if self._recording and depth < 4:
                    if self._type(item) in self._sequence_types or self._type(item) in self._triton_types:
                        self._argument(item, depth + 1)
                    else:
                        self._numbers += 1
            return
        if self._plain_enum(kind):  # an IntEnum member (a reduction mode, say): an int to Triton
            if self._recording:  # (and whatever its class carries: values in a list of its own)
                self._numbers += 1 + sum(self._len(v) for v in self._vars(kind).values()
                                         if self._type(v) in (list, dict))
            return
        if kind in self._numpy_types:
            self._numbers += 1 if self._recording else 0
            return
        if kind in self._sequence_types and depth < 4:
            for item in value:
                self._argument(item, depth + 1)
            return
        self._refuse(f"a kernel argument is a {kind.__name__}: pass tensors, numbers or Triton's own types "
                     "(Triton calls methods of its arguments)")

    def _plain_enum(self, kind: type) -> bool:
        """Whether ``kind`` is an enum of numbers (an IntEnum) with no code but the enum module's
        and the number type's: Triton hashes, compares and converts such a member, which then runs
        nothing of the submission's. Read through exact types only (no attribute of the class is
        looked up through code of its own)."""
        if self._type(kind) is not self._enum_meta:
            return False
        bases = type.__dict__["__mro__"].__get__(kind)[1:]
        if not all(base in self._enum_bases for base in bases) or not any(b in self._enum_numbers for b in bases):
            return False
        for value in self._vars(kind).values():
            kind_of_value = self._type(value)
            if kind_of_value is kind or kind_of_value in self._enum_plain_values:
                continue
            if kind_of_value is not self._function or value.__code__.co_filename != self._enum_file:
                return False
        return True

    def _note_storage(self, tensor: Any) -> None:
        """Count the bytes of the tensor's storage if the monitor does not know it as the call's,
        judged now: the storage's identity (its StorageImpl's address) could be a new one's once it
        is freed."""
        try:
            storage = tensor.untyped_storage()
            identity = storage._cdata
        except (RuntimeError, NotImplementedError):  # no storage (a meta tensor): nothing a kernel reads
            return
        if self._known is not None and not self._known(identity) and identity not in self._prepared:
            self._prepared.add(identity)
            self._prepared_bytes += storage.nbytes()

    def start_recording(self, known: Any = None) -> None:
        """A watched call starts: count its launches from none (when this check records);
        ``known(storage)``: the op monitor's test of memory made in the call or an argument's."""
        self._numbers, self._prepared_bytes, self._prepared = 0, 0, set()
        self._known = known
        self._recording = self._records_launches

    def take_launch_facts(self) -> int:
        """The watched call is over: the bytes of memory prepared before it that its launches
        took. Nothing is recorded until the next start (timed repetitions are not counted)."""
        taken = self._prepared_bytes
        self._recording, self._known, self._prepared, self._prepared_bytes = False, None, set(), 0
        return taken

    def compiler_state_changed(self) -> str | None:
        """Why the environment or ``triton.knobs`` no longer steer Triton's compiler as before the
        import (None if unchanged). Too slow for every launch (tens of microseconds): the worker
        asks after the import and after each call, the guard whenever Triton is about to run a
        program or load native code for the submission."""
        environ = self._environ_state.read()
        if environ is None:
            return "tampering: os.environ, its class or its own attributes were replaced: Triton's compiler reads it"
        if environ != self._environ:
            changed = sorted(k for k in set(environ) | set(self._environ) if environ.get(k) != self._environ.get(k))
            return (f"tampering: the environment changed since the import ({', '.join(changed)[:200]}): Triton's "
                    "compiler reads it")
        get, current = self._dict_get, self._knobs_dict
        replaced = [name for name, obj in self._sections.items() if get(current, name) is not obj]
        if replaced:
            return f"tampering: triton.knobs.{replaced[0]} was replaced since the import: Triton's compiler reads it"
        if self._knobs_state() != self._knobs:
            return "tampering: triton.knobs changed since the import: they name the programs Triton's compiler runs"
        return None

    def check(self, kernel: Any, args: tuple, kwargs: dict) -> None:
        """Raise :class:`LaunchRefused` unless launching ``kernel`` with ``args``/``kwargs`` hands
        Triton nothing it would call back (on every launch: kept cheap)."""
        if kwargs.get("ir_override") is not None:
            self._refuse(IR_OVERRIDE)
        grid = kwargs.get("grid")
        if callable(grid):
            self._callback(grid, "grid")
            # (what Triton calls is what was judged: a partial or an instance can be changed after
            # this check and before Triton calls it, by a pre-run hook of the submission's)
            kwargs["grid"] = self._as_judged(grid)
        elif grid is not None:
            self._argument(grid)
        for value in args:
            self._argument(value)
        for name, value in kwargs.items():
            if name != "grid":
                self._argument(value)
        if self._numbers > self.MAX_KERNEL_ARGUMENT_NUMBERS:
            raise LaunchRefused(f"host data: over {self.MAX_KERNEL_ARGUMENT_NUMBERS} numbers passed to kernels in one "
                                "call: values computed on the host; compute them in a kernel")
        node = kernel
        for _ in range(MAX_DEPTH):
            attributes = self._vars(node) if hasattr(node, "__dict__") else {}
            for name in HOOK_ATTRIBUTES:
                if name in attributes:
                    self._callback(attributes[name], f"{name} hook")
            for config in attributes.get("configs") or ():
                config_attributes = self._vars(config) if hasattr(config, "__dict__") else {}
                for name in ("pre_hook", "post_hook"):
                    self._callback(config_attributes.get(name), f"config {name}")
                if config_attributes.get("ir_override") is not None:
                    self._refuse(IR_OVERRIDE)
            values = attributes.get("values")
            if self._type(values) is dict:
                for value in values.values():
                    self._callback(value, "heuristics function")
            hooks = attributes.get("pre_run_hooks")
            if hooks:  # JITFunction.add_pre_run_hook: called with the launch's arguments
                if self._type(hooks) is not list:
                    self._refuse("a kernel's pre_run_hooks is not a list")
                for hook in hooks:
                    self._callback(hook, "pre-run hook")
            node = attributes.get("fn")
            if node is None:
                break
            if self._type(node) is self._function:
                # the interpreter calls it (and the compiler reads its source): Python code of the submission's file
                self._callback(node, "kernel function", kernel=True)
                break

def _plain_function() -> None:
    return None


class _EnvironmentState:
    """The compiler-steering variables of the environment, read through the mapping behind
    ``os.environ`` as it was when this was built, with built-in methods bound then: reading them
    runs no code of the submission's, and replacing ``os.environ`` itself, its class or any of its
    own attributes reads as None (an ``encodekey`` of the submission's made Triton's
    ``os.getenv("TRITON_PTXAS_PATH")`` read another, harmless-looking variable naming its script,
    while the mapping read here stayed as it was)."""

    def __init__(self, os_module: Any, names: frozenset, prefixes: tuple, exempt: frozenset = frozenset()) -> None:
        self._namespace, self._environ = os_module.__dict__, os_module.environ
        self._data = os_module.environ._data  # bytes -> bytes on POSIX
        self._class, self._own, self._len = type(os_module.environ), _OWN_DICT, len
        self._attributes = dict(_OWN_DICT(os_module.environ, "__dict__"))
        self._names, self._prefixes, self._exempt = names, prefixes, exempt
        self._items, self._get, self._decode = dict.items, dict.get, bytes.decode
        self._starts, self._type = str.startswith, type

    def read(self) -> dict[str, str] | None:
        if self._get(self._namespace, "environ") is not self._environ or self._type(self._environ) is not self._class:
            return None
        attributes = self._own(self._environ, "__dict__")
        if self._type(attributes) is not dict or self._len(attributes) != self._len(self._attributes):
            return None
        for name, value in self._items(self._attributes):
            if self._get(attributes, name, self) is not value:
                return None
        found = {}
        for key, value in list(self._items(self._data)):
            if self._type(key) is bytes and self._type(value) is bytes:
                key, value = self._decode(key, "utf-8", "surrogateescape"), self._decode(value, "utf-8", "surrogateescape")
            elif self._type(key) is not str or self._type(value) is not str:
                continue
            if (key in self._names or self._starts(key, self._prefixes)) and key not in self._exempt:
                found[key] = value
        return found


def _tensor_descriptor_types() -> frozenset:
    found = set()
    for name in ("triton.tools.tensor_descriptor", "triton.tools.experimental_descriptor"):
        module = sys.modules.get(name)
        if module is None:
            try:
                module = __import__(name, fromlist=["_"])
            except ImportError:
                continue
        found.update(t for t in vars(module).values() if isinstance(t, type) and t.__module__ == name)
    return frozenset(found)


_type_module = type.__dict__["__module__"].__get__
_SHOWN_TYPES = (str, int, float, bool, type(None))


def _shown(value: Any) -> str:
    """A knob's value as text: repr of a built-in scalar (or a tuple or list of them), else its
    type and identity."""
    kind = type(value)
    if kind in _SHOWN_TYPES or (kind in (tuple, list) and all(type(v) in _SHOWN_TYPES for v in value)):
        return repr(value)
    return f"<{_type_module(kind)}.{type.__dict__['__name__'].__get__(kind)} at {id(value):#x}>"


def _own_dict_or_none(obj: Any) -> dict | None:
    """An object's own attribute dict (read past its class's __getattribute__), or None."""
    try:
        held = _OWN_DICT(obj, "__dict__")
    except AttributeError:
        return None
    return held if type(held) is dict else None


def _knobs_state() -> str:
    """The values set on Triton's knobs (instance overrides and hook chains), as text."""
    knobs = sys.modules.get("triton.knobs")
    if knobs is None:
        return ""
    parts = []
    for name, section in sorted(vars(knobs).items()):
        # the class's own __module__ (a metaclass's property would be the submission's code), and
        # values shown by repr only when they are built-in scalars (any other repr could be its code)
        if _type_module(type(section)) != "triton.knobs" or isinstance(section, type):
            continue
        state = getattr(section, "__dict__", {})
        parts.append(f"{name}={sorted((k, _shown(v)) for k, v in state.items() if (name, k) not in KNOBS_EXEMPT)!r}")
        for attr, value in sorted(vars(type(section)).items()):
            # a knob's descriptor holds the variable it reads and its default (ptxas's path): one
            # changed in place (its default_path or key set to the submission's) was read by Triton
            # with nothing else changed
            if _type_module(type(value)) == "triton.knobs" and not isinstance(value, type):
                held = _own_dict_or_none(value)
                if held is not None:
                    parts.append(f"{name}.{attr}:{sorted((k, _shown(v)) for k, v in held.items())!r}")
            calls = getattr(value, "calls", None)
            if isinstance(calls, list):
                parts.append(f"{name}.{attr}={[id(c) for c in calls]}")
            elif callable(value) and not attr.startswith("_") and not isinstance(value, (property, type)):
                parts.append(f"{name}.{attr}={id(value)}")
    return "\n".join(parts)
