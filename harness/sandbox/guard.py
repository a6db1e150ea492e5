"""The worker's guard: a permanent audit hook (PEP 578) that keeps the harness out of the submission's reach.

The worker keeps its facts (the cases, the event key, the records, the monitors) in places the
submission can reach only by introspection or native access: the frames of the worker's own
functions, objects found by walking the garbage collector, raw memory. The guard refuses those
primitives to the submission. It is armed once, just before the submission is imported, and cannot
be removed.

Who asks decides. For each audited event the guard walks the Python stack outward from the code that
raised it, skipping the standard library, third-party packages and generated code (they act for
whoever called them), and looks at the first frame left:

- in torch, triton, numpy or the harness: a library doing its own work (Triton's compiler starts
  ``ptxas``, torch reads frames for its own bookkeeping): allowed;
- anything else (the submission's file, code it wrote into its directory): refused with
  :class:`GuardRefusal`.

A library acting for the submission may start processes and threads, load native code and write
into Triton's cache only when the submission entered it through Triton's launch path (the outermost
library frame below the submission's is in ``LAUNCH_ENTRY_FILES``): otherwise any library helper
that builds or loads native code would run the submission's.

A callable with no Python frame of its own (``functools.partial``, ``map`` over a builtin, a
builtin set as a hook, a dunder method or a finalizer) runs with the authority of whichever frame
calls it, so the nearest frame is not always who asks. Primitives that reach the harness's state
(frames, the collector's object lists, new functions or code, rebinding library objects, signals,
symlinks, tracing) are therefore refused to a library frame whenever the submission is on the
stack, and to the harness's own frames at any time: measured over every bundled solution's run,
libraries ask for them then only while a module is imported (allowed when nothing its import-time
code might call was rebound: :func:`import_environment_check`; the two torch and Triton import on
first use are imported before arming: :data:`LAZY_LIBRARY_MODULES`) and on the lines of
:data:`FRAME_TAKER_LINES`. The launch-path primitives
are refused to Triton's files that call back what the submission hands them (``CALLBACK_FILES``)
and to the harness's own launch wrappers.

Refused to the submission: frame access (``sys._getframe``, ``tb_frame``, ``gi_frame``, ...), garbage
collector traversal, ``ctypes``, loading native modules of its own, new processes and threads,
signals to other processes, tracing and profiling hooks, symlinks and hard links, code compiled
from strings (so no code of the submission's can pass for generated library code) or under another
file's name, rebinding the code or defaults of library functions and attributes of library types,
and writing into Triton's cache (whose modules Triton loads as native code). Files of the harness (its package, the bundled solutions and dataset, other jobs)
cannot be opened while any frame of the submission is on the stack, whoever opens them, nor can
``/proc`` entries of processes (``/proc/self/mem`` holds everything).

Some primitives raise no audit event (thread start on Python 3.11; the C functions that disable
torch's dispatch modes or stop the profiler): :func:`install_proxies` replaces them with stand-ins
that ask the hook for the original, which it hands out only to a library caller. Everything the
hook needs is captured in its closure when it is made; the hook itself is reachable from nowhere
but the interpreter's hook list, so nothing the submission can rebind changes its decisions.
"""

from __future__ import annotations

import gc
import hashlib
import operator
import os
import site
import sys
import sysconfig
import warnings
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import CodeType, FunctionType, MemberDescriptorType
from typing import Any, Callable

FETCH_EVENT = "kernelbenchx.guard.original"
LAUNCH_EVENT = "kernelbenchx.launch"  # raised by the launch stand-ins (integrity.LAUNCH_EVENT)
# torch's constructor of operator libraries (torch.library.Library and everything built on it):
# its stand-in also tells the guard which namespace a library registers kernels into.
LIBRARY_KEY = "torch._C._dispatch_library"
# torch's data constructors convert each value of their data (``__float__``, ``__index__``, ...)
# with PyTorch's Python dispatch key turned off: code of the submission's run from there does
# PyTorch work no dispatch mode sees, and a tensor inside the data is read back to the host unseen
# (tests/adversarial/constructor_callback_blinds_monitor.py; the sparse and nested constructors
# convert their indices, values and lists the same way: sparse_index_callback_blinds_monitor.py).
# Their stand-ins take plain data only: key -> the names of their positional parameters, each
# checked as given by position or by name ("self" is the tensor a method is called on).
_COMPRESSED = ("compressed_indices", "plain_indices", "values", "size")
DATA_CONSTRUCTORS = {"torch.tensor": ("data",), "torch.as_tensor": ("data",), "torch.asarray": ("obj",),
                     "torch.Tensor.new_tensor": ("self", "data"),
                     "torch.sparse_coo_tensor": ("indices", "values", "size"),
                     "torch.sparse_csr_tensor": ("crow_indices", "col_indices", "values", "size"),
                     "torch.sparse_bsr_tensor": ("crow_indices", "col_indices", "values", "size"),
                     "torch.sparse_csc_tensor": ("ccol_indices", "row_indices", "values", "size"),
                     "torch.sparse_bsc_tensor": ("ccol_indices", "row_indices", "values", "size"),
                     "torch.sparse_compressed_tensor": _COMPRESSED,
                     "torch._C._nested.nested_tensor": ("tensor_list",),
                     "torch.nested.as_nested_tensor": ("ts",)}
MAX_LIBRARY_SOURCE = 1 << 24  # bytes of a library file read to check source Triton's interpreter rewrites
MAX_DATA_VALUES = 1 << 20  # values a constructor's data may hold (a Python list of them is slow anyway)
# sys.monitoring (PEP 669, Python 3.12+): what would turn off or take over the harness's watch of the
# submission's code (watch_dispatch_keys); handed to library callers only, like the primitives above
MONITORING_FUNCTIONS = ("use_tool_id", "free_tool_id", "register_callback", "set_events", "set_local_events")

# Events refused to the submission whatever their arguments.
# (Not sys._getframemodulename: it hands back a module's name, a string, and reaches nothing; on
# Python 3.12 namedtuple, Enum's functional API and TypeVar ask for it, as does Triton 3.6's code
# generator, which makes a namedtuple as it compiles every kernel.)
REFUSED_EVENTS = frozenset({"cpython.PyInterpreterState_New",
    "sys._getframe", "sys._current_frames", "sys._current_exceptions",
    "sys.settrace", "sys.setprofile", "sys.addaudithook", "sys.monitoring.register_callback",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "function.__new__", "code.__new__",
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen",
    "pty.spawn", "_thread.start_new_thread", "_thread.start_joinable_thread",
    "os.kill", "os.killpg", "signal.pthread_kill", "os.symlink", "os.link",
    "_posixsubprocess.fork_exec", "mmap.__new__",
    # a socket carries open files past the disk watch (a deleted file in flight is in no process's
    # descriptor table), and its buffers hold memory no limit of the worker's counts
    "socket.__new__",
})
REFUSED_PREFIXES = ("ctypes.", "_ctypes.", "cffi.")
# A process or thread a library starts is started on a line that says so (Triton's ptxas, C
# compiler, ldconfig and tool-version checks; a thread's start or an executor's submit): a library
# line that calls whatever it was handed (Triton's code generator's `_check(cond, msg_fn)`,
# `LazyDict.get`, torch's `call_user_defined_fn`, a finalizer) asked on behalf of a callable with no
# frame of its own (trampolined in _make_hook)
PROCESS_EVENTS = frozenset({"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty",
                            "subprocess.Popen", "pty.spawn", "_posixsubprocess.fork_exec"})
THREAD_STARTS = frozenset({"_thread.start_new_thread", "_thread.start_new", "_thread.start_joinable_thread",
                           "threading._start_new_thread", "threading._start_joinable_thread"})
PROCESS_CALL_WORDS = (b"subprocess", b"Popen", b"check_output", b"check_call", b"getoutput", b"system(", b"spawn",
                      b"fork", b"execv", b"execl")
THREAD_CALL_WORDS = (b".start(", b"Thread(", b"submit(", b"start_new_thread", b".map(")
# What the instruction that asks for each primitive names (see instruction_reader)
PRIMITIVE_NAMES = {"sys._getframe": ("_getframe",), "sys._current_frames": ("_current_frames",),
                   "sys._current_exceptions": ("_current_exceptions",), "sys.settrace": ("settrace",),
                   "sys.setprofile": ("setprofile",), "sys.addaudithook": ("addaudithook",),
                   "sys.monitoring.register_callback": ("register_callback",), "gc.get_objects": ("get_objects",),
                   "gc.get_referrers": ("get_referrers",), "gc.get_referents": ("get_referents",),
                   "function.__new__": ("FunctionType", "LambdaType"), "code.__new__": ("CodeType", "replace")}
RESUMABLE = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR
FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "gi_yieldfrom", "cr_await"})
NATIVE_ACCESS_MODULES = frozenset({"ctypes", "_ctypes", "cffi", "_cffi_backend",
                                   # CPython's own test and internal extension modules: their functions
                                   # run code objects with any globals and start native threads without
                                   # an audit event (_testcapi), or start interpreters the audit hook does
                                   # not reach (_xxsubinterpreters: subinterpreter_clears_monitor.py)
                                   "_testcapi", "_testinternalcapi", "_testbuffer", "_testmultiphase",
                                   "_testsinglephase", "_testclinic", "_testclinic_limited", "_testlimitedcapi",
                                   "_testimportmultiple", "_testexternalinspection", "_xxtestfuzz", "_ctypes_test",
                                   "_xxsubinterpreters", "_xxinterpchannels", "_xxinterpqueues", "_interpreters",
                                   "_interpchannels", "_interpqueues", "xxlimited", "xxlimited_35", "xxsubtype"})
JITERATOR_LAUNCH = "_cuda_jiterator_compile_and_launch_kernel"
# Tensor methods replaced on the class by stand-ins: a data constructor, and the CPU loops that call
# a Python function once per element with no operator dispatched (work on the host no monitor sees)
TENSOR_METHODS = ("new_tensor", "apply_", "map_", "map2_")
# What sets the GPU memory cap the harness gives a worker (gpu_memory_cap.py): the setter,
# and the allocator's settings string (torch >= 2.10 reads "per_process_memory_fraction" from it;
# older versions name the setting function per backend)
GPU_MEMORY_LIMIT_SETTERS = ("_cuda_setMemoryFraction", "_accelerator_setAllocatorSettings",
                            "_cuda_cudaCachingAllocator_set_allocator_settings")
# Page-locked host memory a GPU kernel can address (pinned_host.py): host memory registered with CUDA
# outside torch's host allocator, and that allocator's counters reset (the worker's count of what a
# job took is read from them)
PINNED_HOST_PRIMITIVES = (("torch._C._cudart", "cudaHostRegister"), ("torch._C", "_cuda_resetAccumulatedHostMemoryStats"),
                          ("torch._C", "_cuda_resetPeakHostMemoryStats"))
# TorchScript's compilers that run a graph's operators natively, below the dispatcher (no mode sees
# them): the tensor-expression fuser (NNC) and the legacy and oneDNN fusers, switched off in the worker
# before the submission is imported (TORCHSCRIPT_FUSER_SWITCHES, each called with False); those
# switches and the other setters that would turn them back on; the passes that fuse a graph by hand;
# Static Runtime, which calls each operator's kernel directly; NNC's own Python bindings, a compute
# engine over raw buffers (torchscript_fuser_relu.py, static_runtime_relu.py, nnc_ir_evaluator_relu.py)
TORCHSCRIPT_FUSER_SWITCHES = ("_jit_set_texpr_fuser_enabled", "_jit_override_can_fuse_on_cpu",
                              "_jit_override_can_fuse_on_cpu_legacy", "_jit_override_can_fuse_on_gpu",
                              "_jit_set_llga_enabled")
TORCHSCRIPT_NATIVE_RUNNERS = (
    ("torch._C", (*TORCHSCRIPT_FUSER_SWITCHES, "_jit_set_nvfuser_enabled", "_jit_set_te_must_use_llvm_cpu",
                  "_jit_texpr_set_fallback_allowed", "_jit_pass_fuse_tensorexprs", "_jit_pass_fuse",
                  "_jit_to_static_module", "_fuse_to_static_module", "StaticModule")),
    ("torch._C._te", ("construct_codegen", "SimpleIREvaluator", "TensorExprKernel")))
# PEP 523's frame-evaluation hook as TorchDynamo exposes it: a callback installed there is handed
# every Python frame about to run, the harness's (its monitor's state in f_locals) among them, with no
# audit event on the way (eval_frame_callback_clears_monitor.py); the module's other setters hand
# callbacks the code or guards of frames, or steer which code runs for a frame. Installing a callback
# is refused to everyone in a worker (the harness uses none, and the submission's calls run no
# torch.compile); setting none (torch._dynamo.disable, which torch.manual_seed runs through, does) is
# not. The other setters are allowed to a library module being imported (torch._dynamo sets its hooks
# then), and refused whenever the submission is on the stack otherwise.
EVAL_FRAME_MODULE = "torch._C._dynamo.eval_frame"
EVAL_FRAME_SETTER = f"{EVAL_FRAME_MODULE}.set_eval_frame"
EVAL_FRAME_HOOKS = ("set_eval_frame", "set_bytecode_debugger_callback", "set_guard_error_hook",
                    "set_guard_complete_hook", "register_breakpoint_code", "set_code_exec_strategy",
                    "_load_precompile_entry", "set_skip_guard_eval_unsafe")
# What turns the dispatch modes or PyTorch's Python dispatch keys off, or takes a mode off the stack:
# refused while the submission is on the stack whoever calls them, the harness's own uses
# (HARNESS_PROXY_USES) aside. Torch code that names one on its line and then hands control back (a
# context manager: torch.sparse._semi_structured_ops.no_dispatch, fake tensors'
# in_kernel_invocation_manager; a fallback that calls the op it is given) ran the submission's
# PyTorch work unseen (dispatch_off_through_torch_helper.py).
DISPATCH_DISABLERS = frozenset(f"torch._C.{name}" for name in (
    "_DisableTorchDispatch", "_ExcludeDispatchKeyGuard", "ExcludeDispatchKeyGuard", "_ForceDispatchKeyGuard",
    "_SetExcludeDispatchKeyGuard", "_dispatch_tls_set_dispatch_key_excluded",
    "_dispatch_tls_set_dispatch_key_included", "_pop_torch_dispatch_stack", "_unset_dispatch_mode",
    "_set_dispatch_mode", "_RestorePythonTLSSnapshot", "_DisablePythonDispatcher", "_EnablePythonDispatcher",
    "_set_python_dispatcher", "_remove_meta_from_tls_excludes"))
# Proxied primitives whose stand-ins hand the guard their arguments
ARGUMENTS_SEEN = frozenset({*DATA_CONSTRUCTORS, EVAL_FRAME_SETTER})
# What starts or stops a profiler session (the harness's GPU trace, gpu_trace.py, is one; it runs
# with nothing of the submission's on the stack)
PROFILER_TOGGLES = frozenset({*(f"torch._C._autograd.{name}" for name in (
    "_enable_profiler", "_disable_profiler", "_prepare_profiler", "_toggle_collection_dynamic",
    "_enable_profiler_legacy", "_disable_profiler_legacy")), "torch.cuda.profiler.start", "torch.cuda.profiler.stop"})
# What starts a thread or sets a signal handler: code that runs beside or between the harness's,
# where the calling thread's dispatch modes see nothing. A library may do it for the submission
# only on Triton's launch path or as a library module is imported (torch's own thread pool,
# torch.utils._functools.prefetchable_cache, started a thread for a submission and ran torch's
# work there, unseen: thread_started_by_torch_pool.py)
BESIDE_THE_CALL = frozenset({"_thread.start_new_thread", "_thread.start_new", "_thread.start_joinable_thread",
                             "threading._start_new_thread", "threading._start_joinable_thread",
                             "signal.signal", "_signal.signal", "_signal.setitimer", "_signal.alarm",
                             "_signal.set_wakeup_fd", "_signal.siginterrupt"})
# Refused whenever the submission is on the stack, whoever calls them: torch's tensor printing takes
# every mode (the harness's monitor too) off the stack, then reads the values and calls the
# submission back (a str subclass's __radd__), all unseen
# (and a HigherOrderOperator of the submission's, with a handler registered for the monitor's type,
# had torch pop the monitor, hand it to the handler and run the handler unwatched); the jiterator's
# launch, which torch's own wrapper calls for whoever calls it (torch.cuda.jiterator._create_jit_fn:
# the submission's frame is never the caller), and a storage over a raw address (only torch's
# CUDA-graph trees call it, never for a submission's call)
REFUSED_WITH_SUBMISSION_ON_STACK = frozenset({"torch.utils._python_dispatch._disable_current_modes",
                                              "torch.utils._python_dispatch._pop_mode_temporarily",
                                              "torch.utils._python_dispatch._pop_mode",
                                              f"torch._C.{JITERATOR_LAUNCH}",
                                              "torch._C._construct_storage_from_data_pointer",
                                              *(f"torch._C.{name}" for name in GPU_MEMORY_LIMIT_SETTERS),
                                              *(f"{module}.{name}" for module, name in PINNED_HOST_PRIMITIVES),
                                              *(f"{module}.{name}" for module, names in TORCHSCRIPT_NATIVE_RUNNERS
                                                for name in names),
                                              # torch's helpers call these for whoever asks: a gc callback
                                              # of torch.utils.viz sets DEBUG_SAVEALL, torch's profile()
                                              # starts and stops a session (the harness's GPU trace is one)
                                              "gc.set_debug", *PROFILER_TOGGLES})
# Why a proxied primitive is refused to the submission, where the general reason does not say it
PROXY_REASONS = {f"torch._C.{JITERATOR_LAUNCH}": "torch.cuda.jiterator compiles and launches CUDA code of the "
                 "caller's, not Triton's, below the harness's monitors",
                 "torch._C._construct_storage_from_data_pointer": "a storage over a raw address reaches memory the "
                 "harness owns, its copies of results included",
                 **dict.fromkeys(("torch.Tensor.apply_", "torch.Tensor.map_", "torch.Tensor.map2_"),
                                 "it calls Python once per element, with no operator the harness's monitor sees"),
                 **dict.fromkeys(("torch.utils._python_dispatch._disable_current_modes",
                                  "torch.utils._python_dispatch._pop_mode_temporarily",
                                  "torch.utils._python_dispatch._pop_mode"),
                                 "print or format a tensor's values, or call torch code that takes the harness's "
                                 "monitor off the dispatch stack (a higher-order operator's handler): what runs "
                                 "there is unseen"),
                 **dict.fromkeys((f"{module}.{name}" for module, name in PINNED_HOST_PRIMITIVES),
                                 "a GPU kernel can address page-locked host memory, and work done on the host "
                                 "between two copy kernels is seen by no monitor"),
                 **dict.fromkeys((f"torch._C.{name}" for name in GPU_MEMORY_LIMIT_SETTERS),
                                 "the harness caps the GPU memory a worker may take at its share of the run's "
                                 "budget: its judge and other jobs need the rest"),
                 **{f"{module}.{name}": "TorchScript's fusers, Static Runtime and NNC run operators natively, "
                    "below the harness's monitor" for module, names in TORCHSCRIPT_NATIVE_RUNNERS for name in names},
                 **{f"{EVAL_FRAME_MODULE}.{name}": "TorchDynamo's frame-evaluation hooks hand a callback every "
                    "Python frame about to run, the harness's among them" for name in EVAL_FRAME_HOOKS},
                 **dict.fromkeys(PROFILER_TOGGLES, "a profiler session begun or ended inside the call ends the "
                                 "harness's own (which tells which GPU kernels the call ran)"),
                 "gc.set_debug": "with DEBUG_SAVEALL the collector keeps every unreachable object in gc.garbage, "
                 "frames among them, with no audit event (a frame's f_back leads to the harness's)",
                 **dict.fromkeys(("os.memfd_create", "posix.memfd_create"),
                                 "a memory-backed file takes memory no limit of the worker's counts"),
                 **dict.fromkeys(("os.pipe", "os.pipe2", "posix.pipe", "posix.pipe2", "_socket.socketpair",
                                  "socket.socketpair"),
                                 "kernel buffers take memory no limit of the worker's counts, and a socket "
                                 "passes open files past the disk watch")}
# The dispatch-mode stack's accessors hand out the modes on it, the harness's op monitor among them
# (whoever holds it can take it off the stack and put it back, or read and edit its findings). While
# the submission is on the stack and the stack holds a mode, only these lines of torch's may call
# them (file under torch, the line's text): each inspects what it reads, or, in the accessors' own bodies, hands it to one of
# these. torch.fx's get_torch_dispatch_modes() returns the stack to its caller, and so handed the
# monitor to the submission (library_returns_mode_stack.py).
MODE_STACK_ACCESSORS = frozenset({"torch._C._get_dispatch_stack_at", "torch._C._get_dispatch_mode",
                                  "torch.utils._python_dispatch._get_current_dispatch_mode",
                                  "torch.utils._python_dispatch._get_current_dispatch_mode_stack"})
MODE_STACK_READERS = frozenset({
    ("utils/_python_dispatch.py", "mode = _get_dispatch_stack_at(idx)"),  # is_in_torch_dispatch_mode
    ("utils/_python_dispatch.py", "return _get_dispatch_stack_at(stack_len - 1)"),
    ("utils/_python_dispatch.py", "return [_get_dispatch_stack_at(i) for i in range(stack_len)]"),
    ("utils/_python_dispatch.py", "post_dispatch_mode = torch._C._get_dispatch_mode(key)"),  # infra modes only
    ("_ops.py", "curr_mode = _get_current_dispatch_mode()"),  # higher-order operators' own dispatch
    ("_ops.py", "curr_mode = type(_get_current_dispatch_mode())"),
    ("nn/modules/activation.py", "torch.utils._python_dispatch._get_current_dispatch_mode_stack()"),
    ("_guards.py", "for i, m in enumerate(reversed(_get_current_dispatch_mode_stack())):"),  # detect_fake_mode
    ("_guards.py", "for _, m in enumerate(reversed(_get_current_dispatch_mode_stack())):"),  # (torch.load)
})
TRUSTED_PACKAGES = ("torch", "triton", "numpy", "harness")
# Standard-library modules that compile generated source on their caller's behalf (namedtuple,
# dataclasses, typing, enum), or source into a syntax tree only (ast.parse: Triton's interpreter
# and inspect read kernels that way): the submission may use them.
CODEGEN_MODULES = ("collections", "dataclasses", "typing", "enum", "ast")
# The largest file of Triton's cache the guard reads to keep or check its digest (triton_cache.py)
MAX_CACHE_FILE = 1 << 30
# Why a path given as an object of the submission's own class is refused (guard's plain_path)
UNJUDGED_PATH = ("a path given as an object of its own class (its __fspath__ may name one file to the guard "
                 "and another to the call: pass a str, bytes or a pathlib path)")
# Under /proc only these may be opened by the submission (a process's own entries expose its memory).
PROC_ALLOWED = ("/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/loadavg", "/proc/version")
# What one job could leave for another to find, where no file is written: names listed (another
# job's folder holds files whose names carry values), metadata set on files both can reach (mode,
# owner, times, extended attributes: Landlock covers none of them, and a worker run by the files'
# owner may change them on the libraries' own files), locks taken on files both can open, and the
# scheduling of other processes (tests/adversarial/sibling_job_*.py). While the submission is on the
# stack these are judged by their arguments (decide).
LISTING_EVENTS = frozenset({"os.listdir", "os.scandir"})
METADATA_EVENTS = frozenset({"os.chmod", "os.chown", "os.utime", "os.setxattr", "os.removexattr"})
# (sqlite locks its files with fcntl from C, /dev/null's too, which every job may open)
LOCK_EVENTS = frozenset({"fcntl.flock", "fcntl.lockf", "os.lockf", "sqlite3.connect"})
# fcntl commands that lock, lease, watch a folder or route signals (by value: F_GETLK 5, F_SETLK 6,
# F_SETLKW 7, F_SETOWN 8, F_SETSIG 10, F_SETOWN_EX 15, the open-file-description locks 36-38,
# F_SETLEASE 1024, F_GETLEASE 1025, F_NOTIFY 1026)
FCNTL_SHARED_STATE = frozenset({5, 6, 7, 8, 10, 15, 36, 37, 38, 1024, 1025, 1026})
# os functions that read or set another process's scheduling, by pid (no audit event: proxied),
# and where the pid is among their arguments
PID_SCOPED = {"sched_setaffinity": 0, "sched_getaffinity": 0, "sched_setscheduler": 0, "sched_getscheduler": 0,
              "sched_setparam": 0, "sched_getparam": 0, "sched_rr_get_interval": 0, "setpriority": 1,
              "getpriority": 1, "getpgid": 0, "getsid": 0}
PID_SCOPED_KEYS = {f"{module}.{name}": at for module in ("os", "posix") for name, at in PID_SCOPED.items()}
# Path functions that raise no audit event, proxied: what they tell of a path (its size, times,
# existence, a link's target) names state another job can set in its own folder (a red-team pair
# passed every answer through file sizes and times: stat_of_sibling_files.py), and /proc/<pid>
# entries of other processes (which descriptors are open: a channel too). Audited events that
# name paths are judged the same way (an error tells existence: mkdir's EEXIST before Landlock's
# EACCES).
PATH_READERS = frozenset({"stat", "lstat", "access", "readlink"})
PATH_READER_KEYS = frozenset(f"{module}.{name}" for module in ("os", "posix") for name in PATH_READERS)
PATH_EVENTS = frozenset({"os.mkdir", "os.rmdir", "os.remove", "os.rename", "os.replace", "os.truncate",
                         "os.mkfifo", "os.mknod", "os.getxattr", "os.listxattr"})
# What builds a module object from a built-in or extension module's definition: a second copy of
# one already loaded holds its original functions, none of the stand-ins above (a fresh `gc` with
# DEBUG_SAVEALL kept the harness's frames: proxy_bypass_fresh_builtin.py)
MODULE_CREATORS = frozenset({"_imp.create_builtin", "_imp.create_dynamic",
                             # ... and what runs such a definition again into a module (a reload)
                             "_imp.exec_builtin", "_imp.exec_dynamic"})
# Events a library may raise for the submission only on Triton's launch path: new processes and
# threads, native code (ctypes, cffi, extension modules from outside the libraries), writes into
# Triton's cache. Triton compiles (``ptxas``, the launcher's C source) and loads what it built when a
# kernel is launched; the same primitives reached through another library entry point would run
# native code of the submission's (``triton.runtime.build.compile_module_from_src``,
# ``torch.utils.cpp_extension``, ``numpy.ctypeslib``).
LAUNCH_PATH_EVENTS = frozenset({
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen",
    "pty.spawn", "_posixsubprocess.fork_exec", "_thread.start_new_thread", "_thread.start_joinable_thread",
})
# Triton's files that call back what the submission hands it (hooks, the grid, pre-run hooks, the
# interpreted kernel, the benchmarked function): a launch-path primitive asked for with one of them
# innermost is the callback's doing, not Triton's (called_back in _make_hook).
# (compiler.py and driver.py too: LazyDict.get calls whatever function it was handed, and
# _create_driver whatever class; the submission entered Triton there and had its build helper
# compile and load C of its own, or run a shell: native_through_lazydict.py)
CALLBACK_FILES = {"triton": ("runtime/jit.py", "runtime/autotuner.py", "runtime/interpreter.py", "testing.py",
                             "compiler/compiler.py", "runtime/driver.py"),
                  "torch": ("_higher_order_ops/triton_kernel_wrap.py", "_library/triton.py")}
# Of those, torch's wrappers that launch a kernel the submission names (``self.kernel.run(...)``,
# ``user_fn(*args)``): what they call must be Triton's machinery, the launch itself; a function
# that merely shares the name on their line is not (torch's ``collect_env.run`` set as a wrapper's
# kernel's ``run`` ran a shell: hop_wrapper_run_shell.py)
MACHINERY_ONLY_CALLERS = {"torch": ("_higher_order_ops/triton_kernel_wrap.py", "_library/triton.py")}
# The harness's own uses of a proxied primitive once armed ((file in the harness package, function)
# -> (the primitives, whether the submission may be on the stack meanwhile)): in CPU mode the
# interpreter's libdevice calls are evaluated with torch, with dispatch off (the kernel's own math,
# not the wrapper falling back); the perf server's sealed result files (sealed_files.py; its line
# calls a function bound at import with a name and flags of its own), and the raise of the worker's
# GPU memory cap when perf starts (gpu_memory_cap.py), both with nothing of the submission's
# on the stack.
HARNESS_PROXY_USES = {
    ("sandbox/interpreter_compat.py", "create_extern_elementwise"): (("torch._C._DisableTorchDispatch",), True),
    ("sealed_files.py", "sealable_file"): (("os.memfd_create", "posix.memfd_create"), False),
    ("gpu_memory_cap.py", "cap_gpu_memory"): (("torch._C._cuda_setMemoryFraction",), False),
}
# Where Triton's own machinery is, for a callback caller's callee (trusted_entry in _make_hook): the
# compiler, the runtime, the NVIDIA backend and triton.language (files or folders of Triton's
# package). Not the rest of Triton: its test runner, knobs (NvidiaTool.from_path runs the path it
# is given), testing helpers, tools, profiler and other backends start a program, a thread or load
# a library named by their arguments, and reached from a callback caller they would do it for the
# submission (``_test_runner._run`` handed to the compiler's LazyDict ran a shell; the AMD
# backend's codegen loader loaded the submission's C). Triton's callback callers reach those only
# through the machinery (the NVIDIA backend reads the ptxas knob), which is then the callee judged. Nor, in the runtime (``TRITON_NOT_MACHINERY``), the builder of
# native modules from C source (compile_module_from_src: Triton's launch path calls it from its
# driver, never straight from a callback caller) and the async-compile helper (its submit starts a
# thread of an executor the caller names, on which the submission's code then ran unwatched).
TRITON_MACHINERY = ("compiler/", "runtime/", "backends/nvidia/", "backends/__init__.py", "backends/compiler.py",
                    "backends/driver.py", "_utils.py", "language/", "experimental/")
TRITON_NOT_MACHINERY = ("runtime/build.py", "runtime/_async_compile.py")
# Triton's functions that put files into its cache ((file, function), None: any function of the
# file): the compiler, the builder of native modules, the cache's own group index, the autotuner's
# results and the driver. Not the remote cache's _materialize, whose line takes the manager, the
# bytes and the name from its arguments: handed to a trampoline it wrote the submission's bytes
# under any name as Triton's own put (cache_put_through_materialize.py)
TRITON_CACHE_WRITERS = (("compiler/compiler.py", "compile"), ("runtime/build.py", None), ("runtime/cache.py", "put_group"),
                        ("runtime/autotuner.py", None), ("backends/nvidia/driver.py", None))
# Library lines that take a frame for their own bookkeeping while the submission may be on the stack
# (package, file in it, the line's text, the local that is the depth or None for a constant; texts of
# several versions may be listed, a line absent from the installed one is ignored):
# torch.library notes where a library and each kernel registered through it come from (torch makes
# one lazily the first time a tensor subclass dispatches). Matched by file and line number, read
# from the file when the hook is made; a callable of the submission's with no frame of its own
# cannot run on such a line when the depth is a constant or an exact int (an int subclass's
# __index__ could be one), and only the line's own frame or the traceback module's stack walkers
# may take frames there (code the line calls can call the submission back: takes_frames_itself).
FRAME_TAKER_LINES = (("torch", "library.py", "f = sys._getframe(1)", None),
                     ("torch", "library.py", "frame = traceback.extract_stack(limit=2)[0]", None),  # torch 2.11
                     ("torch", "library.py", "frame = sys._getframe(_stacklevel)", "_stacklevel"),  # register_fake
                     ("torch", "_library/utils.py", "frame = inspect.getframeinfo(sys._getframe(stacklevel))",
                      "stacklevel"),
                     # Triton's compiler, as a kernel fails to compile, drops its own frames from the
                     # error's traceback by their file names (otherwise a compile error in a
                     # submission's kernel became an integrity verdict natively)
                     ("triton", "compiler/compiler.py",
                      "if not any(f for f in BAD_FILES if tb.tb_frame.f_code.co_filename.endswith(f)):", None))
# Library modules that torch and Triton import on first use, from inside a submission's call (shape
# broadcasting imports sympy; Triton's argument mangling imports Gluon), and whose import-time code
# takes frames (sympy's multipledispatch): imported before the guard is armed, so that they are
# imported once per fork server rather than inside the calls of every job that reaches them, where a
# library being imported is handed frames (reached_for in _make_hook). torch.save reads its options
# from torch.utils.serialization at its first call, which every job makes when it saves a call's
# outputs: imported there, it cost each job an import and a module-snapshot check (about 75 ms).
LAZY_LIBRARY_MODULES = ("torch.fx.experimental.symbolic_shapes", "triton.experimental.gluon",
                        "torch.utils.serialization")
# Where the submission may enter Triton for a launch (package -> files in it): Triton's launch,
# autotune, compile and driver entry points, and torch's wrappers that launch Triton kernels
# (``torch.library.wrap_triton``); the harness's own wrappers of the launch functions are added.
LAUNCH_ENTRY_FILES = {
    "triton": ("runtime/jit.py", "runtime/autotuner.py", "runtime/interpreter.py", "runtime/driver.py",
               "compiler/compiler.py", "testing.py"),
    "torch": ("_higher_order_ops/triton_kernel_wrap.py", "_library/triton.py"),
}


class GuardRefusal(PermissionError, ValueError):
    """The guard refused a primitive to the submission. A ``ValueError`` too, so standard-library
    code that falls back when frames are unavailable (``namedtuple``, ``typing``, ``logging``) still works."""


@dataclass(frozen=True)
class GuardPolicy:
    """What the guard protects. Paths are absolute and resolved (no symlinks)."""

    job_dir: str                      # the submission's own directory (its files may be opened)
    trusted_dirs: tuple[str, ...]     # code here acts for itself (torch, triton, numpy, harness)
    transparent_dirs: tuple[str, ...]  # code here acts for its caller (stdlib, site-packages)
    protected_dirs: tuple[str, ...]   # never opened while the submission is on the stack
    cache_dirs: tuple[str, ...]       # written only by library code (Triton's cache: its .so files are loaded)
    launch_entries: tuple[str, ...] = ()  # files through which the submission may reach LAUNCH_PATH_EVENTS
    callback_files: tuple[str, ...] = ()  # library files that call back what the submission hands them
    harness_dir: str = ""                 # the harness's own code (it asks for no primitive once armed)
    import_dirs: tuple[str, ...] = ()     # sys.path's folders (the import system lists them)


def _package_dir(name: str) -> str | None:
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    return str(Path(path).resolve().parent) if path else None


def policy_for(job_dir: Path, protected: list[Path]) -> GuardPolicy:
    """The policy for a worker in ``job_dir`` that must not read ``protected`` (plus the harness itself)."""
    trusted = tuple(d for d in (_package_dir(p) for p in TRUSTED_PACKAGES) if d)
    paths = sysconfig.get_paths()
    transparent = {paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]}
    transparent.update(site.getsitepackages() if hasattr(site, "getsitepackages") else [])
    transparent.update(p for p in sys.path if "-packages" in p)
    job = str(job_dir.resolve())
    launch = tuple(f"{root}/{f}" for package, files in LAUNCH_ENTRY_FILES.items()
                   if (root := _package_dir(package)) for f in files)
    launch += (str(Path(__file__).with_name("integrity.py").resolve()),)  # the launch counter's wrappers
    callbacks = tuple(f"{root}/{f}" for package, files in CALLBACK_FILES.items()
                      if (root := _package_dir(package)) for f in files)
    return GuardPolicy(
        job_dir=job, trusted_dirs=trusted,
        transparent_dirs=tuple(sorted(str(Path(p).resolve()) for p in transparent if p)),
        protected_dirs=tuple(sorted({str(p.resolve()) for p in protected} | {_package_dir("harness") or ""} - {""})),
        cache_dirs=(str((job_dir / "triton-cache").resolve()),), launch_entries=launch, callback_files=callbacks,
        harness_dir=_package_dir("harness") or "",
        import_dirs=tuple(sorted({str(Path(p).resolve()) for p in sys.path if isinstance(p, str) and p and os.path.isdir(p)})))


# -- proxies for primitives that raise no audit event ------------------------------------------

def _proxy(key: str, original: Callable, audit: Callable = sys.audit, event: str = FETCH_EVENT) -> Callable:
    """A stand-in for ``original`` that holds no reference to it: each call asks the guard's hook."""
    def proxy(*args: Any, **kwargs: Any) -> Any:
        box: list = []
        audit(event, key, box)
        return box[0](*args, **kwargs)
    return _named_like(proxy, key, original)


def _library_proxy(key: str, original: Callable, audit: Callable = sys.audit, event: str = FETCH_EVENT) -> Callable:
    """The stand-in for torch's operator-library constructor (``kind, ns, ...``): as :func:`_proxy`,
    and the guard sees the namespace."""
    def proxy(kind: Any, ns: Any, *args: Any, **kwargs: Any) -> Any:
        box: list = []
        audit(event, key, box, kind, ns)
        return box[0](kind, ns, *args, **kwargs)
    return _named_like(proxy, key, original)


def _data_proxy(key: str, original: Callable, audit: Callable = sys.audit, event: str = FETCH_EVENT) -> Callable:
    """The stand-in for a primitive the guard decides on by its arguments (:data:`ARGUMENTS_SEEN`: a
    data constructor, the frame-evaluation setter): as :func:`_proxy`, and the guard sees them."""
    def proxy(*args: Any, **kwargs: Any) -> Any:
        box: list = []
        audit(event, key, box, args, kwargs)
        return box[0](*args, **kwargs)
    return _named_like(proxy, key, original)


def plain_data_check() -> Callable[[Any, Any], str | None]:
    """A check of a data constructor's ``data`` (and ``device``), with the types it needs bound now:
    None for plain data (built-in numbers, exact lists and tuples of them, a ``torch.Size``, a
    ``range``, NumPy arrays of numbers, a tensor kept on its device), else what is not plain."""
    import numpy
    import torch
    tensor, ndarray, device_type, size = torch.Tensor, numpy.ndarray, torch.device, torch.Size
    scalars = (bool, int, float, complex)
    numpy_scalars = frozenset(t for t in numpy.sctypeDict.values() if isinstance(t, type))  # exact types only
    type_ = type
    list_iter, tuple_iter, range_len = list.__iter__, tuple.__iter__, range.__len__

    def check(data: Any, device: Any) -> str | None:
        kind = type_(data)
        if kind is tensor:  # converted without a dispatched op: only where no copy to another device happens
            target = device_type(device) if type_(device) in (str, device_type) else None
            if device is None or (target is not None and target.type == data.device.type
                                  and target.index in (None, data.device.index)):
                return None
            return "a tensor moved to another device (use .to() or .cpu(), which the harness watches)"
        stack, left = [data], MAX_DATA_VALUES
        while stack:
            left -= 1
            if left < 0:
                return f"more than {MAX_DATA_VALUES} values"
            value = stack.pop()
            kind = type_(value)
            if kind in scalars:
                continue
            if kind is list:
                stack.extend(list_iter(value))
            elif kind is tuple or kind is size:  # torch.Size: a tuple of ints (tensor(x.shape) is common)
                stack.extend(tuple_iter(value))
            elif kind is range:  # ints by construction; only its length counts
                try:
                    left -= range_len(value)
                except OverflowError:
                    left = -1
                if left < 0:
                    return f"more than {MAX_DATA_VALUES} values"
            elif (kind is ndarray and value.dtype.kind in "biufc") or kind in numpy_scalars:
                continue
            else:
                return f"a value of type {type.__dict__['__name__'].__get__(kind)}" + (
                    " (tensors inside a list are read back one value at a time, unseen)" if kind is tensor else "")
        return None
    return check


def _named_like(proxy: Callable, key: str, original: Callable) -> Callable:
    """``proxy`` under ``original``'s name and docstring."""
    proxy.__name__ = getattr(original, "__name__", key.rsplit(".", 1)[-1])
    proxy.__qualname__ = proxy.__name__
    proxy.__doc__ = getattr(original, "__doc__", None)
    return proxy


def _proxied_names() -> list[tuple[str, str]]:
    """(module, attribute) pairs to hand out only to library callers, where present."""
    names = [("_thread", "start_new_thread"), ("_thread", "start_new"), ("_thread", "start_joinable_thread"),
             ("threading", "_start_new_thread"), ("threading", "_start_joinable_thread"),
             ("torch._C", "_DisableTorchDispatch"), ("torch._C", "_ExcludeDispatchKeyGuard"),
             ("torch._C", "_pop_torch_dispatch_stack"), ("torch._C", "_get_dispatch_stack_at"),
             ("torch._C", "_get_dispatch_mode"), ("torch._C", "_unset_dispatch_mode"),
             ("torch._C", "_set_dispatch_mode"), ("torch._C", "_DisablePythonDispatcher"),
             ("torch._C", "_set_python_dispatcher"), ("torch._C", "_remove_meta_from_tls_excludes"),
             ("torch._C", "ExcludeDispatchKeyGuard"), ("torch._C", "_ForceDispatchKeyGuard"),
             ("torch._C", "_SetExcludeDispatchKeyGuard"), ("torch._C", "_RestorePythonTLSSnapshot"),
             ("torch._C", "_dispatch_tls_set_dispatch_key_excluded"),
             ("torch._C", "_dispatch_tls_set_dispatch_key_included"), ("torch._C", "_EnablePythonDispatcher"),
             ("torch.utils._python_dispatch", "_disable_current_modes"), ("torch.utils._python_dispatch", "_pop_mode"),
             ("torch.utils._python_dispatch", "_pop_mode_temporarily"),
             ("torch.utils._python_dispatch", "_get_current_dispatch_mode"),
             ("torch.utils._python_dispatch", "_get_current_dispatch_mode_stack"),
             ("torch._C._autograd", "_disable_profiler"), ("torch._C._autograd", "_enable_profiler"),
             ("torch._C._autograd", "_prepare_profiler"), ("torch._C._autograd", "_toggle_collection_dynamic"),
             ("torch._C._autograd", "_disable_profiler_legacy"), ("torch._C._autograd", "_enable_profiler_legacy"),
             ("torch._C._autograd", "_profiler_enabled"), ("torch.cuda.profiler", "stop"),
             ("torch.cuda.profiler", "start"), ("torch._C", "_dispatch_library"),
             # a signal handler runs code of the submission's between any two bytecodes of the
             # harness's (after the monitors stop, before a result is saved), as a thread would
             ("signal", "signal"), ("_signal", "signal"), ("_signal", "setitimer"), ("_signal", "alarm"),
             ("_signal", "set_wakeup_fd"), ("_signal", "siginterrupt"),
             *(tuple(key.rsplit(".", 1)) for key in DATA_CONSTRUCTORS if not key.startswith("torch.Tensor.")),
             # PyTorch's jiterator compiles CUDA C++ of the caller's at run time and launches it
             # below the wrapper-op monitor, under a kernel name the caller picks
             ("torch._C", JITERATOR_LAUNCH),
             # a storage over any address: the harness's own tensors (its copies of results) included
             ("torch._C", "_construct_storage_from_data_pointer"),
             # the cap on the GPU memory the worker may take (gpu_memory_cap.py)
             *(("torch._C", name) for name in GPU_MEMORY_LIMIT_SETTERS),
             # page-locked host memory outside torch's count, and the count reset (pinned_host.py)
             *PINNED_HOST_PRIMITIVES,
             # what runs TorchScript graphs or NNC code below the dispatcher
             *((module, name) for module, names in TORCHSCRIPT_NATIVE_RUNNERS for name in names),
             # what hands frames to a callback of TorchDynamo's (or the submission's)
             *((EVAL_FRAME_MODULE, name) for name in EVAL_FRAME_HOOKS),
             # memory-backed files: memory outside the worker's address-space limit, in no directory
             ("os", "memfd_create"), ("posix", "memfd_create"),
             # pipes and socket pairs: kernel buffers outside that limit too (a pipe's grows to 1 MiB
             # and more as root), and a socket pair passes open files past the disk watch
             ("os", "pipe"), ("os", "pipe2"), ("posix", "pipe"), ("posix", "pipe2"),
             ("_socket", "socketpair"), ("socket", "socketpair"),
             # what a path's metadata tells (PATH_READERS)
             *((module, name) for module in ("os", "posix") for name in sorted(PATH_READERS)),
             # a fresh copy of a loaded built-in or extension module (MODULE_CREATORS)
             *(tuple(key.split(".")) for key in sorted(MODULE_CREATORS)),
             # another process's scheduling (PID_SCOPED)
             *((module, name) for module in ("os", "posix") for name in PID_SCOPED),
             # the collector's debug flags: with DEBUG_SAVEALL every unreachable object it finds (a
             # finished frame in a cycle of the submission's own making among them) goes to
             # gc.garbage, a plain list, with no audit event on the way
             ("gc", "set_debug")]
    return [(m, a) for m, a in names if m in sys.modules and hasattr(sys.modules[m], a)]


def torchscript_fusers_off() -> None:
    """Switch TorchScript's fusers off in this process (TORCHSCRIPT_FUSER_SWITCHES): a scripted
    function then runs operator by operator, each seen by the harness's monitor. Before the proxies:
    the switches are refused from then on while the submission is on the stack."""
    torch_c = getattr(sys.modules.get("torch"), "_C", None)
    for name in TORCHSCRIPT_FUSER_SWITCHES:
        switch = getattr(torch_c, name, None)
        if switch is not None:
            switch(False)


def install_proxies() -> dict[str, Callable]:
    """Replace each proxied primitive, wherever a loaded module binds it, by a stand-in; returns
    the originals (for :func:`arm`, which alone keeps them afterwards)."""
    originals: dict[str, Callable] = {}
    stand_ins: dict[int, Callable] = {}  # id of an original -> its stand-in
    for module_name, attr in _proxied_names():
        original = getattr(sys.modules[module_name], attr)
        key = f"{module_name}.{attr}"
        originals[key] = original
        maker = _library_proxy if key == LIBRARY_KEY else _data_proxy \
            if key in ARGUMENTS_SEEN or key in PID_SCOPED_KEYS or key in MODULE_CREATORS or key in PATH_READER_KEYS \
            else _proxy
        stand_ins.setdefault(id(original), maker(key, original))
    monitoring = getattr(sys, "monitoring", None)
    for name in MONITORING_FUNCTIONS if monitoring is not None else ():
        key = f"sys.monitoring.{name}"
        originals[key] = getattr(monitoring, name)
        setattr(monitoring, name, _proxy(key, originals[key]))
    torch_module = sys.modules.get("torch")
    if torch_module is not None:  # methods: bound on the Python class, before the snapshot and the guard
        for name in TENSOR_METHODS:
            key = f"torch.Tensor.{name}"
            originals[key] = getattr(torch_module.Tensor, name)
            maker = _data_proxy if key in DATA_CONSTRUCTORS else _proxy
            setattr(torch_module.Tensor, name, maker(key, originals[key]))
    for module in list(sys.modules.values()):  # one pass over every binding of every module
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            stand_in = stand_ins.get(id(value))
            if stand_in is not None:
                namespace[name] = stand_in
    # the harness's own set-up calls os.stat (imports, tracebacks) before the guard's hook is armed:
    # until then another hook answers the path readers' stand-ins (arm ends it)
    originals[EARLY_ANSWERS] = _early_answers({k: v for k, v in originals.items() if k in PATH_READER_KEYS})
    return originals


EARLY_ANSWERS = "(early answers)"


def _early_answers(answers: dict[str, Callable]) -> Callable[[], None]:
    """An audit hook that hands ``answers`` to their stand-ins until the returned function is
    called (before the submission is imported). Audit hooks cannot be listed from Python, so no
    code of the submission's reaches this one's state."""
    live, fetch_event, get, str_, type_ = [True], FETCH_EVENT, dict.get, str, type

    def hook(event: str, args: tuple) -> None:
        if live and event == fetch_event and type_(args[0]) is str_:
            original = get(answers, args[0])
            if original is not None:
                args[1].append(original)

    sys.addaudithook(hook)
    return live.clear


# -- the hook ------------------------------------------------------------------------------------

def _make_hook(policy: GuardPolicy, originals: dict[str, Callable],
               compiler_state_changed: Callable[[], str | None] = lambda: None,
               launch_router: Callable[[Any, tuple], None] | None = None,
               environment_changed: Callable[[], str | None] | None = None,
               stand_in_codes: tuple = (), barrier_codes: frozenset = frozenset(),
               code_kinds: list | None = None) -> Callable[[str, tuple], None]:
    """The audit hook. Everything it uses is bound here, once: later rebinding of module attributes
    or builtins by the submission cannot change what it does."""
    getframe, get_ident = sys._getframe, __import__("_thread").get_ident
    # (the originals of what is proxied: a stand-in called here would ask this hook while it decides)
    os_open, os_close, O_PATH, O_RDONLY = os.open, os.close, getattr(os, "O_PATH", 0), os.O_RDONLY
    readlink, stat_ = originals.get("os.readlink", os.readlink), originals.get("os.stat", os.stat)
    S_ISDIR = __import__("stat").S_ISDIR
    FunctionType, CodeType = type(_make_hook), type(_make_hook.__code__)
    str_, bytes_, int_, list_, type_, issubclass_, len_, id_ = str, bytes, int, list, type, issubclass, len, id
    tuple_, slice_ = tuple, slice
    Refusal, fetch_event, launch_event = GuardRefusal, FETCH_EVENT, LAUNCH_EVENT
    type_module = type.__dict__["__module__"].__get__
    function_code = FunctionType.__dict__["__code__"].__get__
    refused_events, refused_prefixes, frame_attributes = REFUSED_EVENTS, REFUSED_PREFIXES, FRAME_ATTRIBUTES
    native_modules, trusted_packages, proc_allowed = NATIVE_ACCESS_MODULES, TRUSTED_PACKAGES, PROC_ALLOWED
    originals = dict(originals)
    job_dir, trusted, transparent = policy.job_dir, policy.trusted_dirs, policy.transparent_dirs
    protected, caches = policy.protected_dirs, policy.cache_dirs
    launch_events, launch_entries = LAUNCH_PATH_EVENTS, frozenset(policy.launch_entries)
    this_file = function_code(_make_hook).co_filename
    library_types = frozenset(library_type_ids())
    library_key, operator_namespaces = LIBRARY_KEY, operator_namespaces_now()
    # key -> (position, name) of each parameter whose value must be plain data
    data_constructors = {key: tuple((at, name) for at, name in enumerate(names) if name != "self")
                         for key, names in DATA_CONSTRUCTORS.items()}
    eval_frame_setter, eval_frame_hooks = EVAL_FRAME_SETTER, frozenset(f"{EVAL_FRAME_MODULE}.{n}" for n in EVAL_FRAME_HOOKS)
    with_submission_on_stack, dispatch_disablers = REFUSED_WITH_SUBMISSION_ON_STACK, DISPATCH_DISABLERS
    beside_the_call = BESIDE_THE_CALL
    process_events, thread_starts = PROCESS_EVENTS, THREAD_STARTS
    process_words, thread_words = PROCESS_CALL_WORDS, THREAD_CALL_WORDS
    constructor_names = frozenset({"__init__", "__new__", "__call__"})
    called_unnamed_ok = constructor_names | {"<lambda>"}  # in Triton's files (trampolined)
    identifier_bytes = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    loads_anywhere = frozenset({"ctypes.dlopen", "import"})  # a library loaded, a native module of the job's
    torch_root = _package_dir("torch")
    mode_stack_readers = frozenset((f"{torch_root}/{f}", text.encode()) for f, text in MODE_STACK_READERS) \
        if torch_root else frozenset()
    torch_c = getattr(sys.modules.get("torch"), "_C", None)
    mode_stack_depth = getattr(torch_c, "_len_torch_dispatch_stack", None) or (lambda: 0)
    proxy_reasons, default_reason = dict(PROXY_REASONS), ("it would blind the harness's monitors, or run code of its "
                                                          "own at any moment: a thread, a signal handler")
    plain_data = plain_data_check() if "torch" in sys.modules else (lambda data, device: None)
    read_fd, own_pid = os.read, os.getpid
    codegen_files = frozenset(str(getattr(sys.modules.get(name), "__file__", "")) for name in CODEGEN_MODULES) - {""}
    # Triton's JIT writes each kernel's argument binder as source (create_function_from_signature)
    triton_jit = str(getattr(sys.modules.get("triton.runtime.jit"), "__file__", "")) or None
    triton_interpreter = str(getattr(sys.modules.get("triton.runtime.interpreter"), "__file__", "")) or None
    write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
    callback_callers, harness_dirs = frozenset(policy.callback_files), (policy.harness_dir,) if policy.harness_dir else ()
    frame_takers = _frame_taker_lines()
    performed, performing, primitive_names, resumable = instruction_reader(), {}, dict(PRIMITIVE_NAMES), RESUMABLE
    taker_offsets = _frame_taker_offsets(frame_takers)
    harness_proxy_uses = {(f"{policy.harness_dir}/{f}", name): use for (f, name), use in HARNESS_PROXY_USES.items()}
    caller_tokens = _line_tokens(policy.callback_files)
    machinery_only_callers = frozenset(f"{root}/{f}" for package, files in MACHINERY_ONLY_CALLERS.items()
                                       if (root := _package_dir(package)) for f in files)
    triton_dirs = tuple(d for d in (_package_dir("triton"),) if d)
    not_machinery = frozenset(f"{d}/{f}" for d in triton_dirs for f in TRITON_NOT_MACHINERY)
    triton_machinery = tuple(f"{d}/{f}" for d in triton_dirs for f in TRITON_MACHINERY)
    traceback_walkers = _traceback_walkers()
    traceback_file = next(iter(traceback_walkers))[0] if traceback_walkers else None
    module_spec = _module_spec_reader()
    sys_dict, dict_get = sys.__dict__, dict.get
    kinds: dict[str, int] = {}          # filename -> 0 transparent, 1 library, 2 submission
    owned: set[int] = set()             # ids of generated code objects the submission ran (see own)
    source_lines: dict[str, tuple] = {}  # library file -> its lines, read from disk (called_unnamed)
    owned_codes: list = []
    # ids of generated code the submission may rebind as its own (defaults of namedtuple's __new__):
    # compiled from text just now, by the frame that runs it (exec or eval of a string), never a
    # code object that existed before (a harness dataclass's __init__, run with exec, was owned and
    # then given the submission's code: own_harness_dataclass_init)
    made_for_submission: set[int] = set()
    compiling: dict[int, Any] = {}  # thread -> the frame whose string is being compiled
    # thread -> LOOKING while the hook takes its caller's frame, DECIDING while it decides (see hook)
    inside: dict[int, int] = {}
    LOOKING, DECIDING = 2, 1
    gc_collect, gc_stats = gc.collect, gc.get_stats

    def collecting() -> bool:
        """Whether a garbage collection is running now, with its finalizers, weakref and gc callbacks
        (of anyone's, callables with no frame of their own among them) running inside it with
        whatever frame was innermost when it started: a frame-taking line's, or a library's being
        imported. Asking for a collection of the youngest generation does nothing then (CPython
        runs one collection at a time), and collects it otherwise."""
        before = gc_stats()[0]["collections"]
        gc_collect(0)
        return gc_stats()[0]["collections"] == before
    gc_enabled, gc_disable, gc_enable = gc.isenabled, gc.disable, gc.enable

    def under(path: str, roots: tuple) -> bool:
        for root in roots:
            if path == root or path.startswith(root + "/"):
                return True
        return False

    def kind(filename: str) -> int:
        if type_(filename) is not str_:
            return 2  # (looked up in no table: a str subclass's __hash__ would run inside the guard)
        found = kinds.get(filename)
        if found is None:
            if filename.startswith("<"):  # frozen modules, code libraries generate (the submission may not)
                found = 0
            elif "/./" in filename or "/../" in filename or "//" in filename \
                    or filename.endswith(("/.", "/..")):
                # a path spelled to start inside a library's folder and lead elsewhere (a module of the
                # submission's imported from sys.path entry "<torch>/../../job"): the libraries' own
                # files are found through normalised paths
                found = 2
            elif under(filename, trusted):
                found = 1
            elif under(filename, transparent):
                found = 0
            else:
                found = 2
            if len_(kinds) < 100_000:
                kinds[filename] = found
        return found

    def code_kind(code) -> int:
        """:func:`kind` of a code object: the submission's if it ran it as generated code."""
        if id_(code) in owned:
            return 2
        return kind(code.co_filename)

    if code_kinds is not None:  # the same judgement for the watches outside the hook (CodeBarrier, ...)
        code_kinds.append(code_kind)

    def own(code, fresh: bool = False, depth: int = 0) -> None:
        """Count ``code`` (and the functions defined in it) as the submission's whatever file it
        names: code generated from text (``"<string>"``, which otherwise acts for its caller) that the
        submission runs (a typing.ForwardRef's expression, a dataclass's methods built from field
        names it chose) would otherwise leave no frame of its own on the stack. ``fresh``: compiled
        from text just now by the frame that runs it, so also the submission's to rebind."""
        if depth > 32 or len_(owned) > 1_000_000 or (id_(code) in owned and not fresh):
            return
        if id_(code) not in owned:
            owned.add(id_(code))
            owned_codes.append(code)  # held, so no id is reused
        if fresh:
            made_for_submission.add(id_(code))
        for const in code.co_consts:
            if type_(const) is CodeType:
                own(const, fresh, depth + 1)

    def deciding(frame) -> int:
        """The kind of the first non-transparent frame from ``frame`` outward (1 if none)."""
        while frame is not None:
            k = code_kind(frame.f_code)
            if k:
                return k
            frame = frame.f_back
        return 1

    def asking_frame(frame):
        """The first non-transparent frame from ``frame`` outward: whose asking decides (None if none)."""
        while frame is not None:
            if code_kind(frame.f_code):
                return frame
            frame = frame.f_back
        return None

    def site_name(frame) -> str:
        filename = frame.f_code.co_filename
        for root in trusted:
            if filename.startswith(root + "/"):
                filename = filename[len_(root.rsplit("/", 1)[0]) + 1:]
                break
        return f"{filename} ({frame.f_code.co_name})"

    def is_caller(frame) -> bool:
        """A frame of Triton's that calls back what the submission hands it, or of the harness's
        launch stand-ins (whose originals can be made to be anything)."""
        return frame.f_code.co_filename in callback_callers or frame.f_code in stand_in_codes

    def trusted_entry(caller, entry) -> bool:
        """Whether ``entry`` (a library frame) is what ``caller`` (a Triton callback caller or a
        harness frame) called itself, not a callable of the submission's it called back: Triton's
        own machinery (``TRITON_MACHINERY``: its compiler, runtime, driver, cache, knobs; not the
        builder of native modules from C source nor the async-compile helper), or a function named
        on the line the caller is running."""
        filename = entry.f_code.co_filename
        if filename.startswith(triton_machinery) and filename not in not_machinery:
            return True
        if caller.f_code in stand_in_codes or caller.f_code.co_filename in machinery_only_callers:
            return False
        return entry.f_code.co_name in caller_tokens.get((caller.f_code.co_filename, caller.f_lineno), ())

    def called_back(frame) -> str | None:
        """Why a launch-path primitive a library frame asks for while the submission is on the
        stack is the submission's doing: between the asking frame and the submission, Triton's code
        that calls back what the submission hands it (hooks, the grid, pre-run hooks, heuristics,
        pruning; ``CALLBACK_FILES``) or the harness's launch stand-ins called into something that is
        neither Triton's own machinery nor named on the line they run. A callable with no Python
        frame of its own (``functools.partial(torch.ops.load_library, path)``, ``map`` over a
        builtin, a builtin set as a hook or dunder) runs with the authority of whoever calls it.
        None: allowed."""
        site = asking_frame(frame)
        if site is None or code_kind(site.f_code) != 1:
            return None
        filename = site.f_code.co_filename
        if under(filename, harness_dirs) and filename != this_file and site.f_code not in stand_in_codes:
            # (the guard's own stand-ins call the originals they were handed)
            return (f"the harness's {site_name(site)} asked for it, which it never does once armed (a callable of "
                    "the submission's with no frame of its own, run there, would)")
        if not submission_on_stack(site):
            return None
        if is_caller(site):
            return (f"{site_name(site)} asked for it while calling back something the submission handed it (a "
                    "callable with no frame of its own, functools.partial or map over a builtin, acts with the "
                    "authority of whoever calls it)")
        entry, outer = site, site.f_back
        while outer is not None:
            k = code_kind(outer.f_code)
            if k == 2:
                return None  # the submission called the library itself (on_launch_path judged that)
            if k == 1:
                if is_caller(outer):
                    if trusted_entry(outer, entry):
                        return None
                    return (f"{site_name(outer)} called {site_name(entry)}, which asked for it, while calling back "
                            "something the submission handed it (a callable with no frame of its own acts with "
                            "the authority of whoever calls it)")
                entry = outer
            outer = outer.f_back
        return None

    def named_on(line: bytes, name: str) -> bool:
        """Whether ``line`` holds ``name`` as a whole identifier (``run`` in ``self.run(``, not in
        ``rerun``)."""
        word, start = name.encode(), 0
        while True:
            at = line.find(word, start)
            if at < 0:
                return False
            end = at + len_(word)
            if (at == 0 or line[at - 1] not in identifier_bytes) and (end == len_(line) or line[end] not in identifier_bytes):
                return True
            start = at + 1

    def trampolined(frame, event: str) -> str | None:
        """Why a process, a thread or native code a library frame asks for is not that library's
        own doing: a process or thread asked for on a line that names no such call (a callable
        with no frame of its own, ``functools.partial(os.system, ...)``, run by library code that
        calls whatever it is handed); or the library function that asks (with the functions of its
        own file it was called through) called from another file by a line that does not name it
        (Triton's ``_check(cond, msg_fn)`` or ``LazyDict.get`` running ``NvidiaTool.from_path`` on a
        script of the submission's, or ``compile_module_from_src`` on its C). Lambdas, a class's
        construction and ``__call__`` are called without their names in Triton's files (its compile
        stages, its driver made), and so is a knob's descriptor, read as an attribute of
        ``triton.knobs``; elsewhere a class's construction counts as named by the class's name. A
        process, a thread, a library loaded with ctypes or a native module of the job's is judged
        so wherever it is asked for (torch's ``load_library`` ran the submission's library from a
        trampoline, torch's prefetch pool its thread); other ctypes calls only in Triton's files
        (its driver calls libcuda through ctypes). Judged with the submission on the stack or not
        (a finalizer runs such a chain between the calls). None: allowed."""
        site = asking_frame(frame)
        if site is None or code_kind(site.f_code) != 1:
            return None
        process, thread = event in process_events, event in thread_starts
        if process or thread:
            line = source_line(site.f_code.co_filename, site.f_lineno)
            for word in process_words if process else thread_words:
                if word in line:
                    break
            else:
                return (f"{site_name(site)} asked for it on a line that names no such call (a callable with no frame "
                        "of its own, handed to library code that calls whatever it is handed, acts with that code's "
                        "authority)")
        in_triton = under(site.f_code.co_filename, triton_dirs)
        if not (process or thread or in_triton or event in loads_anywhere):
            return None
        inner, outer = site, site.f_back
        while outer is not None and outer.f_code.co_filename == inner.f_code.co_filename:
            inner, outer = outer, outer.f_back
        if outer is None or code_kind(outer.f_code) == 2:
            return None  # the submission called it itself (on_launch_path judged that)
        code = inner.f_code
        name, line = code.co_name, source_line(outer.f_code.co_filename, outer.f_lineno)
        if type_(name) is not str_ or type_(code.co_qualname) is not str_:
            return "code whose name is not a plain str asked for it"
        if named_on(line, name):
            return None
        # Triton's own: its compile stages are lambdas, its driver is made by a class held in a
        # table, and a descriptor of its knobs is read as an attribute of triton.knobs (the NVIDIA
        # backend's ptxas path; one of the submission's making, handed to a trampoline, is not)
        if in_triton and (name in called_unnamed_ok or (name == "__get__" and b"knobs." in line)):
            return None
        # elsewhere a class made or called counts as named by its class's name (torch's
        # SubprocessHandler started a shell from its __init__, made by a trampoline)
        if name in constructor_names:
            owner = code.co_qualname.split(".", 1)[0]
            if owner and owner != name and named_on(line, owner):
                return None
        return (f"{site_name(outer)} called {site_name(inner)}, which asked for it, without naming it (library code "
                "that calls whatever it is handed lends it its authority)")

    def called_unnamed(caller, key: str) -> str | None:
        """Why a library frame that calls a proxied primitive while the submission is on the stack
        is not asking for itself: the line it runs does not name the primitive. A library function
        that calls what the submission hands it and returns the result (``tree_map(operator.call,
        [proxy])``) would hand back an instance of the original, and with it the original class."""
        if caller is None or code_kind(caller.f_code) != 1 or not submission_on_stack(caller):
            return None
        name = key.rsplit(".", 1)[-1].encode()
        if name in source_line(caller.f_code.co_filename, caller.f_lineno):
            return None
        return (f"{site_name(caller)} called it without naming it, for the submission (a library calling back "
                "something the submission handed it)")

    def source_line(filename: str, number: Any) -> bytes:
        """Line ``number`` of ``filename`` as it is on disk (b"" where unreadable), read once per file."""
        lines = source_lines.get(filename)
        if lines is None:
            content = read_file(filename, MAX_LIBRARY_SOURCE)
            lines = tuple(content.split(b"\n")) if content is not None else ()
            if len_(source_lines) < 10_000:
                source_lines[filename] = lines
        return lines[number - 1] if type_(number) is int_ and 0 < number <= len_(lines) else b""

    def takes_frames_itself(site, frame) -> bool:
        """Whether a frame-taking line (``site``) is the one asking, not code it ends up calling:
        the line is at its frame-taking instruction (:func:`_frame_taker_offsets`; not the
        ``append`` of a list the submission swapped), and the frame where the event fired is the
        line's own or the traceback module's ``extract_stack``.
        Formatting a stack looks up source lines, and linecache then calls a module's
        ``__loader__.get_source``, which the submission can make a callable with no frame of its own
        that takes frames or objects with the line's authority."""
        known = taker_offsets.get(id_(site.f_code))
        if known is None or known[0] is not site.f_code or site.f_lasti not in known[1]:
            return False  # the line is calling something else than what takes frames on it
        if frame is site:
            return True
        code = frame.f_code
        # (extract_stack takes the frame itself and walks from it: a walk_stack generator made with no
        # frame takes one when first resumed, and a suspended one of the submission's, resumed by a
        # callable with no frame of its own, would hand over every frame below it)
        return code.co_filename == traceback_file and code.co_name == "extract_stack"

    def performs(frame, names: tuple) -> bool:
        """Whether ``frame``, where a primitive was asked for, is itself at an instruction naming it
        (:func:`instruction_reader`): not calling something else that asked, a callable with no
        frame of its own or a dunder method. Never a generator's or coroutine's frame: whoever
        made it may have it resumed anywhere, and one that holds a frame walks ``f_back`` with no
        audit event (a ``traceback.walk_stack(None)`` of the submission's, resumed by traceback's own
        code from a ``functools.partial`` the import system called, handed over every frame:
        walk_stack_resumed_during_import.py)."""
        code = frame.f_code
        if code.co_flags & resumable:
            return False
        known = performing.get(id_(code))
        if known is None or known[0] is not code:
            known = (code, performed(code))
            if len_(performing) < 10_000:
                performing[id_(code)] = known
        found = known[1].get(frame.f_lasti)
        return found is not None and not found.isdisjoint(names)

    def reached_for(frame, names: tuple = (), frame_access: bool = False, sets_attribute: bool = False) -> str | None:
        """Why a primitive that reaches the harness's state (frames, the collector's object lists,
        new functions or code, rebinding library types), named by ``names``, is refused to a library
        frame: the harness asks for none once armed, and no library does (measured over every
        bundled solution), with or without the submission on the stack, except while a library
        module is being imported, and then by its own instructions (:func:`performs`). A callable
        of the submission's with no frame of its own (a ``functools.partial``, ``map`` over a
        builtin, a builtin set as a hook, a dunder method or a finalizer) runs with the authority of
        whichever frame calls it, so the asking frame alone proves nothing; and library code the
        harness calls after a call (saving its results, entering the op monitor) reads state the
        submission may have planted there (a thread-local flag whose ``__bool__`` is such a
        callable). ``sets_attribute``: library code setting an attribute of a type or function of
        its own, by its own instruction (dataclasses setting the ``__doc__`` of a class torch makes
        for the submission's custom operator). None: allowed."""
        site = asking_frame(frame)
        if site is None or code_kind(site.f_code) != 1:
            return None
        if site.f_code in barrier_codes and names == ("setprofile",):
            return None  # the harness's CodeBarrier sets and clears its watch
        if under(site.f_code.co_filename, harness_dirs):
            return (f"the harness's {site_name(site)} asked for it, which it never does once armed (a callable of "
                    "the submission's with no frame of its own, run there, would)")
        depth_name = frame_takers.get((site.f_code.co_filename, site.f_lineno), False) if frame_access else False
        if (depth_name is None or (depth_name and type_(site.f_locals.get(depth_name)) is int_)) \
                and takes_frames_itself(site, frame) and (environment_changed is None or not environment_changed()) \
                and not collecting():
            # (nothing the line calls may have been rebound: traceback.format_stack or walk_stack set
            # to a callable with no frame of its own ran there as the line itself: rebind_format_stack)
            return None
        if (sets_attribute or importing_library(frame)) and performs(frame, names) and not collecting():
            # a module's own code as it is imported (checked when the import began: nothing it
            # might call was rebound, no finder added: import_environment_check)
            return None
        if submission_on_stack(site):
            return (f"{site_name(site)} asked for it while the submission is running (a callable of the "
                    "submission's with no frame of its own, functools.partial or map over a builtin, a builtin set "
                    "as a hook or a dunder method, acts with the authority of whoever calls it)")
        return (f"{site_name(site)} asked for it while the harness ran library code around the submission's call (a "
                "callable of the submission's with no frame of its own, planted in state that code reads, acts "
                "with the authority of whoever calls it)")

    def entered_through(frame) -> str | None:
        """The file of the outermost library frame below the innermost submission frame (the
        library function the submission called), or None when no submission frame is on the stack."""
        entry = None
        while frame is not None:
            filename = frame.f_code.co_filename
            k = code_kind(frame.f_code)
            if k == 2:
                return entry or filename
            if k == 1:
                entry = filename
            frame = frame.f_back
        return None

    def on_launch_path(frame) -> bool:
        """The submission, if on the stack, reached this through Triton's launch path, and has not
        changed what steers Triton's compiler (else a legitimate compile would run its program)."""
        entry = entered_through(frame)
        if entry is None:
            return True
        if entry not in launch_entries:
            return False
        changed = compiler_state_changed()
        if changed:
            refuse(f"let Triton compile or load native code: {changed}")
        return True

    def generates_code(code) -> bool:
        """Library code that compiles source it wrote itself, for whoever called it."""
        filename = code.co_filename
        return filename in codegen_files or (filename == triton_jit and code.co_name.startswith("create_"))

    def importing_library(frame) -> bool:
        """A library module's own code running while it is imported (sympy and mpmath generate
        functions then, when torch imports them lazily for the submission)."""
        if code_kind(frame.f_code) == 2:
            return False
        frame = frame.f_back
        while frame is not None:
            filename = frame.f_code.co_filename
            if filename.startswith("<frozen importlib"):
                return True
            if code_kind(frame.f_code) == 2:
                return False
            frame = frame.f_back
        return False

    def runs_library_code(code) -> bool:
        """Code that executes libraries' code objects for whoever called it: the import system,
        Triton's interpreter (it re-executes the library's own @jit helpers, tl.sigmoid...)."""
        return code.co_filename.startswith("<frozen importlib") or (
            code.co_filename == triton_interpreter and code.co_name == "_compile_and_exec")

    def submission_on_stack(frame) -> bool:
        while frame is not None:
            if code_kind(frame.f_code) == 2:
                return True
            frame = frame.f_back
        return False

    def resolved(path: str) -> str:
        """Where ``path`` really leads (symlinks followed by the kernel, not by Python code)."""
        try:
            fd = os_open(path, O_PATH)
        except OSError:
            head, slash, tail = path.rpartition("/")
            if not tail:
                return path
            return resolved(head or ("/" if slash else ".")) + "/" + tail
        try:
            return readlink(f"/proc/self/fd/{fd}")
        finally:
            os_close(fd)

    def climbs_above_start(path: str) -> bool:
        """Whether a relative path's ``..`` components lead above the folder it starts from."""
        depth = 0
        for part in path.split("/"):
            if part == "..":
                depth -= 1
                if depth < 0:
                    return True
            elif part and part != ".":
                depth += 1
        return False

    def is_folder(path: str) -> bool:
        try:
            return S_ISDIR(stat_(path).st_mode)
        except (OSError, ValueError):
            return False

    def same_as_file(source: Any, path: str) -> bool:
        """Whether ``source`` is exactly the text of the file at ``path`` (an import compiling it)."""
        if type_(source) is str_:
            source = source.encode("utf-8", "surrogateescape")
        if type_(source) is not bytes_:
            return False
        return read_file(path, len_(source) + 1) == source

    def read_file(path: str, limit: int) -> bytes | None:
        """Up to ``limit`` bytes of the file at ``path`` (None if it cannot be opened)."""
        try:
            fd = os_open(path, O_RDONLY)
        except OSError:
            return None
        try:
            return read_fd(fd, limit)
        finally:
            os_close(fd)

    def rewritten_from_file(frame, filename: str) -> bool:
        """Whether the source lines Triton's interpreter rewrote (the ``lines`` its rewrite_ast
        frame, the caller of ``frame``, read) are a passage of ``filename`` as it is on disk."""
        reader = frame.f_back
        lines = dict_get(reader.f_locals, "lines") if reader is not None else None
        if type_(lines) is not list_ or not all(type_(line) is str_ for line in lines):
            return False
        text = "".join(lines).encode("utf-8", "surrogateescape")
        content = read_file(filename, MAX_LIBRARY_SOURCE)
        return bool(text) and content is not None and text in content

    NOT_PLAIN_NAMES = ("run code whose file or function name is not a plain string (a str subclass's methods would "
                       "run wherever the name is hashed or compared, in the guard's own checks among them)")

    def plain_names(code, depth: int = 0) -> bool:
        """Whether ``code`` and the code nested in it name their file and functions with exact
        strings (compiling an AST keeps a str subclass as the file name, and the audit event of
        that compile names no file)."""
        if type_(code.co_filename) is not str_ or type_(code.co_name) is not str_ \
                or type_(code.co_qualname) is not str_:
            return False
        if depth > 32:
            return True
        for const in code.co_consts:
            if type_(const) is CodeType and not plain_names(const, depth + 1):
                return False
        return True

    def reads_mode_stack_itself(frame) -> bool:
        """Whether the library line asking for a dispatch-mode stack accessor is one of
        :data:`MODE_STACK_READERS` (it inspects what it reads, hands it to nobody)."""
        site = asking_frame(frame)
        if site is None:
            return False
        return (site.f_code.co_filename, source_line(site.f_code.co_filename, site.f_lineno).strip()) in mode_stack_readers

    def refuse(what: str) -> None:
        raise Refusal(f"guard: the submission may not {what}")

    def plain_path(path: Any) -> Any:
        """An audited path as a plain str (or a descriptor's int, or None). A str or bytes subclass
        reaches the event as given: its value is copied by str's and bytes' own code, none of the
        subclass's runs. An os.PathLike reaches ``open`` (``_io.FileIO``) and the proxied path
        readers as given too: pathlib's own paths, whose fields hold plain strings, are read by
        pathlib's code, a directory entry by its own; any other object is ``unjudged`` (its
        ``__fspath__`` is the submission's to write, and may answer differently when asked again)."""
        kind = type_(path)
        if kind is str_ or kind is int_ or path is None:
            return path
        if kind in pathlib_types and plain_fields(path):
            try:
                path = str_(path)
            except Exception:
                return unjudged
            kind = type_(path)
        elif kind is dir_entry:
            path = dir_entry_path(path)
            kind = type_(path)
        if kind is not str_ and kind is not bytes_:
            if issubclass_(kind, str_):
                return str_.__str__(path)
            if not issubclass_(kind, bytes_):
                return unjudged
            path = bytes_.__getitem__(path, slice_(None))
        return path.decode("utf-8", "surrogateescape") if type_(path) is bytes_ else path

    def plain_fields(obj: Any) -> bool:
        """Whether every slot of ``obj`` (of a library class) that is set holds plain data: strings,
        ints, None, or lists and tuples of strings (pathlib's parts), so that pathlib's code reading
        them runs nothing of the submission's."""
        for cls in type_(obj).__mro__:
            names = proxy_get(type_dict(cls), "__slots__", ())
            for name in ((names,) if type_(names) is str_ else names):
                member = proxy_get(type_dict(cls), name) if type_(name) is str_ else None
                if type_(member) is not member_type:
                    continue
                try:
                    value = member_get(member, obj, cls)
                except AttributeError:
                    continue
                kind = type_(value)
                if kind is list_ or kind is tuple_:
                    for item in value:
                        if type_(item) is not str_:
                            return False
                elif kind is not str_ and kind is not int_ and value is not None:
                    return False
        return True

    def check_open(args: tuple, frame) -> None:
        path = plain_path(args[0] if len_(args) else None)
        if type_(path) is not str_ or not submission_on_stack(frame):
            if path is unjudged and submission_on_stack(frame):
                refuse(f"open {UNJUDGED_PATH}")
            return
        real = resolved(path)
        for candidate in (path, real):
            if candidate.startswith("/proc/") and candidate not in proc_allowed:
                refuse(f"open {path} (process entries under /proc expose the harness's memory)")
            if under(candidate, protected) and not under(candidate, (job_dir,)):
                refuse(f"open {path} (a file of the harness or of another job)")
        # The audit event does not carry os.open's dir_fd: a path is judged as if relative to the
        # working directory (the job's). A descriptor of a folder outside the job makes every path
        # opened relative to it unseen ("/proc" opened, then "<pid>/cmdline" from it: another
        # process's command line, a seed among its arguments: seed_from_process_list.py), and
        # so does ".." climbing from a descriptor of a folder deeper in the job than judged.
        if not path.startswith("/") and climbs_above_start(path):
            refuse(f"open {path} (a relative path that climbs above where it starts with '..' leads elsewhere "
                   "from a folder's descriptor than it seems)")
        if not under(real, (job_dir,)) and is_folder(real):
            refuse(f"open the folder {path} outside its job directory (what is opened relative to it is not seen)")
        flags = args[2] if len_(args) > 2 and type_(args[2]) is int_ else 0
        mode = args[1] if len_(args) > 1 and type_(args[1]) is str_ else ""
        writing = (flags & write_flags) or "w" in mode or "a" in mode or "x" in mode or "+" in mode
        if writing and under(real, caches) and (deciding(frame) == 2 or not on_launch_path(frame) or called_back(frame)):
            refuse(f"write into Triton's cache ({path}): its compiled modules are loaded as native code")

    # Folders whose names are not the submission's to list: other jobs' (the scratch root, and the
    # temp folder holding it and other runs' scratch roots), the harness's; sys.path's folders are
    # listed by imports (those not protected)
    import_dirs = policy.import_dirs
    scratch_parent = job_dir.rsplit("/", 2)[0]  # <temp>/kbx-jobs-*/job-*: the temp folder (unless "/")
    listing_hidden = tuple(sorted({*protected, *((scratch_parent,) if scratch_parent not in ("", "/") else ())}))
    listing_events, metadata_events, lock_events = LISTING_EVENTS, METADATA_EVENTS, LOCK_EVENTS
    fcntl_shared = FCNTL_SHARED_STATE
    pid_scoped = dict(PID_SCOPED_KEYS)
    module_creators, loaded_modules = MODULE_CREATORS, frozenset(sys.modules)
    spec_class, dict_ = type(sys.__spec__), dict  # (dict_get: bound above)
    object_getattribute = object.__getattribute__

    module_type = type(sys)
    # (os.PathLike objects plain_path may read: pathlib's own classes and a directory entry)
    pathlib_types = frozenset(t for t in (getattr(sys.modules.get("pathlib"), n, None) for n in (
        "PurePath", "PurePosixPath", "Path", "PosixPath")) if type_(t) is type)
    dir_entry, dir_entry_path = os.DirEntry, os.DirEntry.path.__get__
    member_type = MemberDescriptorType
    member_get = MemberDescriptorType.__get__
    type_dict, proxy_get = type.__dict__["__dict__"].__get__, type(type.__dict__).get
    unjudged = object()  # a path given as an object of the submission's class (plain_path)

    def spec_field(spec: Any, field: str) -> Any:
        """A field of a module spec of importlib's own class (``name``, ``origin``), or the matching
        one of a module (``__name__``, ``__file__``), read without running any code of the caller's
        (None for anything else, and for a value that is not a plain str)."""
        if type_(spec) is not spec_class and type_(spec) is not module_type:
            return None
        fields = object_getattribute(spec, "__dict__")
        if type_(spec) is module_type:
            field = "__name__" if field == "name" else "__file__"
        value = dict_get(fields, field) if type_(fields) is dict_ else None
        return value if type_(value) is str_ else None

    # the files of the extension modules loaded before the import: a spec of a new name over one of
    # them (its init function is found by the name's last part) is a second copy of that module
    loaded_native_files = frozenset(
        os.path.realpath(f) for f in (dict_get(object_getattribute(m, "__dict__"), "__file__")
                                      for m in list(sys.modules.values()) if type_(m) is module_type)
        if type_(f) is str_ and f.endswith(tuple(EXTENSION_SUFFIXES)))

    def check_chdir(args: tuple, frame) -> None:
        path = path_argument(args)
        if path is unjudged and submission_on_stack(frame):
            refuse(f"change its working directory to {UNJUDGED_PATH}")
        # (a descriptor is of a folder opened inside the job: check_open refuses the others)
        if type_(path) is str_ and submission_on_stack(frame) and not under(resolved(path), (job_dir,)):
            refuse(f"change its working directory to {path} (what it lists and opens relative to it is not "
                   "judged where it leads)")

    def path_argument(args: tuple) -> Any:
        return plain_path(args[0] if len_(args) else None)

    own_proc = str_(own_pid())
    path_reader_keys, path_events = PATH_READER_KEYS, PATH_EVENTS

    # what a path's metadata may not be read in: the folder holding the jobs' folders and the temp
    # folder around it (the harness's own files may be looked at, not opened: the import system
    # finds `import harness` there and the open is refused)
    run_areas = tuple(p for p in (job_dir.rsplit("/", 1)[0], scratch_parent) if p not in ("", "/"))

    def elsewhere(path: str, hidden: tuple = run_areas) -> Any:
        """Why ``path`` (a plain str) is not the submission's to name while it runs, or None:
        another process's entries under /proc, another job's folders (``hidden``)."""
        real = resolved(path)
        for candidate in (path, real):
            if candidate.startswith("/proc/"):
                head = candidate[6:].split("/", 1)[0]
                if head.isdigit() and head != own_proc:
                    return "another process's entries under /proc"
        # (under sys.path a protected file may be looked at, as the import system does, but not
        # listed: a checkout in the temp folder holds the harness)
        if under(real, (job_dir,)) or (under(real, import_dirs) and (hidden is run_areas or not under(real, protected))):
            return None
        if under(real, hidden):
            return "the names, sizes and times of files in other jobs' folders can carry what they computed"
        return None

    def check_listing(event: str, args: tuple, frame) -> None:
        path = path_argument(args)
        # None lists the working directory (the job's: check_chdir); a descriptor is of a folder
        # opened inside the job (check_open refuses the others)
        if type_(path) is not str_ or not submission_on_stack(frame):
            if path is unjudged and submission_on_stack(frame):
                refuse(f"list {UNJUDGED_PATH}")
            return
        for candidate in (path, resolved(path)):
            if candidate == "/proc" or candidate.startswith("/proc/"):
                refuse(f"list {path} (other processes' entries under /proc)")
        why = elsewhere(path, listing_hidden)
        if why:
            refuse(f"list {path} ({why})")

    def check_paths(event: str, args: tuple, frame) -> None:
        """An audited event naming paths (``os.mkdir``, ``os.rename``, ...): none of them elsewhere."""
        if not submission_on_stack(frame):
            return
        for value in args[:2] if event in ("os.rename", "os.replace") else args[:1]:
            path = plain_path(value)
            why = elsewhere(path) if type_(path) is str_ else UNJUDGED_PATH if path is unjudged else None
            if why:
                refuse(f"use {event} on {path if type_(path) is str_ else 'an object'} ({why})")

    def check_metadata(event: str, args: tuple, frame) -> None:
        if not submission_on_stack(frame):
            return
        path = path_argument(args)
        relative_to_fd = event != "os.setxattr" and event != "os.removexattr" and len_(args) > 0 \
            and type_(args[-1]) is int_ and args[-1] != -1
        if type_(path) is not str_ or relative_to_fd or not under(resolved(path), (job_dir,)):
            refuse(f"use {event} on {path!r} (a file's mode, owner, times and attributes outside its job "
                   "directory are state another job can read, and the libraries' files are the run's)")

    def is_library_object(obj: Any) -> bool:
        """A type or function the submission did not make (its own may be changed at will)."""
        if type_(obj) is FunctionType:
            # a function the submission generated just now (namedtuple's __new__, made from its field
            # names, gets its defaults set afterwards; typing.NamedTuple always does that) is its own
            code = function_code(obj)
            return id_(code) not in made_for_submission and kind(code.co_filename) != 2
        if issubclass_(type_(obj), type_):
            if id_(obj) in library_types:
                return True
            try:
                module = type_module(obj)
            except AttributeError:
                # a class being made has none yet (mypyc-compiled modules set it next); a library's
                # class cannot lose its own: deleting it is judged as it was
                return False
            return type_(module) is str_ and module.split(".", 1)[0] in trusted_packages
        return False

    own_reads = (function_code(read_file), function_code(resolved))
    # Triton's cache in a worker (triton_cache.py): the digest of each file this process's Triton
    # put there, told by the cache manager's own code; a file is served only with those bytes
    try:
        from harness.sandbox.triton_cache import CACHE_EVENT as cache_event, event_codes
        cache_codes = event_codes()
    except ImportError:  # (no Triton: no cache)
        cache_event, cache_codes = None, frozenset()
    cache_record: dict[str, bytes] = {}
    environ_setters = frozenset({os._Environ.__setitem__.__code__, os._Environ.__delitem__.__code__})
    from harness.sandbox.launch_check import COMPILER_ENV_EXEMPT, COMPILER_ENV_NAMES, COMPILER_ENV_PREFIXES
    compiler_env_names, compiler_env_prefixes = COMPILER_ENV_NAMES, COMPILER_ENV_PREFIXES
    compiler_env_exempt = COMPILER_ENV_EXEMPT
    cache_writers = frozenset((f"{d}/{f}", name) for d in triton_dirs for f, name in TRITON_CACHE_WRITERS)

    def cache_writer(code) -> bool:
        """Whether ``code`` is one of Triton's functions that put files into its cache."""
        filename = code.co_filename
        return (filename, None) in cache_writers or (filename, code.co_name) in cache_writers
    sha256 = hashlib.sha256
    decided = refused_events | {"open", fetch_event, cache_event, "object.__setattr__", "object.__delattr__", "import",
                                "compile", "exec", "marshal.loads", "marshal.load", "resource.prlimit",
                                "fcntl.fcntl", "os.chdir", "os.putenv", "os.unsetenv"} | LISTING_EVENTS | METADATA_EVENTS | LOCK_EVENTS | PATH_EVENTS

    def hook(event: str, args: tuple) -> None:
        # Fast exits first: attribute reads are audited on hot paths (Triton's launcher reads
        # functions' __code__), and timing must not pay for them.
        if event == "object.__getattr__":
            if args[1] not in frame_attributes:
                return
        elif event != launch_event and event not in decided and not event.startswith(refused_prefixes):
            return
        ident = get_ident()
        state = inside.get(ident)
        if state is not None:
            if state == LOOKING:  # the hook's own frame lookup, just below
                return
            inside_decision(event)
            return
        # The collector stays off while the hook runs: a finalizer it ran here would run inside
        # the decision (and be refused there, whatever it is)
        collector_was_on = gc_enabled()
        gc_disable()
        inside[ident] = LOOKING
        try:
            frame = getframe(1)
            if event == launch_event:
                # a launch stand-in asking for its original (integrity.LaunchCounter): the router holds
                # the counter and the launch check, out of everyone else's reach; it runs as any code
                # does, its own events decided
                del inside[ident]
                if launch_router is not None:
                    launch_router(frame, args)
                return
            inside[ident] = DECIDING
            decide(event, args, frame)
        finally:
            inside.pop(ident, None)
            if collector_was_on:
                gc_enable()

    def inside_decision(event: str) -> None:
        """An audited event raised while this thread's hook is deciding: the decision's own file
        reads (``read_file``, ``resolved``) pass; anything else is code the decision ran unawares
        (a dunder method of a value it read: a str subclass's ``__hash__`` as a file name's kind is
        looked up, a finalizer run as a reference is dropped), with no frame of its own or with
        one, and the guard's checks, not yet decided, would wave it through: refused outright."""
        if event == "open":
            ident = get_ident()
            inside[ident] = LOOKING
            try:
                asker = getframe(2)
            finally:
                inside[ident] = DECIDING
            if asker is not None and (asker.f_code is own_reads[0] or asker.f_code is own_reads[1]):
                return
        refuse(f"use {event} while the guard decides about another event (code run inside the guard's check)")

    def decide(event: str, args: tuple, frame) -> None:
        if event == "open":
            check_open(args, frame)
        elif event in listing_events:
            check_listing(event, args, frame)
        elif event == "os.chdir":
            check_chdir(args, frame)
        elif event in path_events:
            check_paths(event, args, frame)
        elif event in metadata_events:
            check_metadata(event, args, frame)
        elif event in lock_events or (event == "fcntl.fcntl" and len_(args) > 1 and args[1] in fcntl_shared):
            if submission_on_stack(frame):
                refuse(f"use {event} (a lock, lease or watch on a file is state another job can read)")
        elif event == cache_event:
            if frame is None or frame.f_code not in cache_codes or len_(args) != 3:
                refuse("raise the harness's Triton-cache event")
            action, path, answer = args
            if type_(path) is not str_:
                return
            real = resolved(path)
            if action == "put":
                # only a put Triton's own code asked for (its compiler, its builder, its cache's
                # put_group) on a line that calls put, of a file in the job's cache: the manager's
                # put called otherwise, with helpers of the caller's choosing, or handed to Triton
                # code that calls whatever it is handed (the compiler's LazyDict.get, a partial
                # with the planted bytes), records nothing
                caller = frame.f_back
                if caller is not None and under(real, caches) and cache_writer(caller.f_code) \
                        and b".put(" in source_line(caller.f_code.co_filename, caller.f_lineno) \
                        and len_(cache_record) < 100_000:
                    data = read_file(real, MAX_CACHE_FILE)
                    if data is not None:
                        cache_record[real] = sha256(data).digest()
            elif action == "get" and type_(answer) is list_:
                kept = dict_get(cache_record, real)
                data = read_file(real, MAX_CACHE_FILE) if kept is not None else None
                if data is not None and sha256(data).digest() == kept:
                    answer.append(True)
        elif event == fetch_event:
            key, box = args[0], args[1]
            # The proxy raised this event; the deciding frame is whoever called the proxy.
            if frame is None or frame.f_code.co_filename != this_file or type_(box) is not list_:
                refuse("ask the guard for originals")
            if key == library_key:
                # Kernels registered for an operator that existed before the import replace
                # PyTorch's own, for the harness's calls too (saving, copying and digesting results
                # after the monitors stop), and run below the wrapper-op monitor: refused while the
                # submission is on the stack, whoever builds the library, except by a library module
                # being imported (torch registers its own then). New namespaces stay open.
                ns = args[3] if len_(args) > 3 else None
                if (type_(ns) is not str_ or ns in operator_namespaces) and submission_on_stack(frame) \
                        and not importing_library(frame.f_back):
                    refuse(f"register kernels into PyTorch's operator namespace {ns!r} (torch.library on operators "
                           "the harness calls too)")
            elif key in data_constructors:
                # whoever calls it (a library may pass the submission's data on): the data must be plain
                call_args, call_kwargs = args[2], args[3]
                why = None
                for at, name in data_constructors[key]:
                    if why is None:
                        why = plain_data(call_args[at] if len_(call_args) > at else call_kwargs.get(name),
                                         call_kwargs.get("device"))
                if why:
                    refuse(f"build a tensor from {why}: torch's data constructors convert their values with "
                           "PyTorch's dispatch hooks off (pass numbers, lists of numbers or NumPy arrays)")
            elif key in path_reader_keys:
                # whoever calls it (os.path.exists, pathlib, the import system do, for the submission)
                call_args, call_kwargs = args[2], args[3]
                path = call_args[0] if type_(call_args) is tuple_ and len_(call_args) else (
                    dict_get(call_kwargs, "path") if type_(call_kwargs) is dict_ else None)
                path = plain_path(path)
                why = (elsewhere(path) if type_(path) is str_ else UNJUDGED_PATH if path is unjudged else None) \
                    if submission_on_stack(frame.f_back) else None
                if why:
                    refuse(f"call {key} on {path if type_(path) is str_ else 'an object'} ({why})")
            elif key in module_creators:
                # whoever calls it (the import system does, for the submission): no second copy of
                # a module loaded before the import
                call_args = args[2]
                spec = call_args[0] if type_(call_args) is tuple_ and len_(call_args) else None
                name, origin = spec_field(spec, "name"), spec_field(spec, "origin")
                if (name is None or name in loaded_modules or (origin is not None and resolved(origin) in
                                                               loaded_native_files)) \
                        and submission_on_stack(frame.f_back):
                    refuse(f"make a second copy of the module {name!r} ({key}: its functions would be the "
                           "originals of the harness's stand-ins)")
            elif key in pid_scoped:
                # another process's scheduling (CPU affinity, policy, priority): other jobs' and
                # the run's own processes (a trusted baseline slowed, or a channel between jobs)
                call_args = args[2]
                at = pid_scoped[key]
                pid = call_args[at] if type_(call_args) is tuple_ and len_(call_args) > at else None
                # (plain ints compared: an object of the submission's would run its __eq__ here)
                its_own = type_(pid) is int_ and (pid == 0 or pid == own_pid())
                which_ok = at == 0 or (its_own and type_(call_args[0]) is int_ and call_args[0] == 0)  # PRIO_PROCESS
                if (not its_own or not which_ok) and submission_on_stack(frame.f_back):
                    refuse(f"call {key} on another process (its scheduling is the run's, or another job's)")
            elif key == eval_frame_setter:
                # whoever calls it: no callback (None, or False for run-only) is the only setting allowed
                call_args, call_kwargs = args[2], args[3]
                callback = call_args[0] if len_(call_args) else call_kwargs.get("callback")
                if callback is not None and callback is not False:
                    refuse(f"call {key} with a callback ({proxy_reasons.get(key, default_reason)})")
            elif key in eval_frame_hooks:
                if submission_on_stack(frame.f_back) and not importing_library(frame.f_back):
                    refuse(f"call {key} ({proxy_reasons.get(key, default_reason)})")
            elif deciding(frame.f_back) == 2 or (key in with_submission_on_stack and submission_on_stack(frame.f_back)):
                refuse(f"call {key} ({proxy_reasons.get(key, default_reason)})")
            elif key in beside_the_call and submission_on_stack(frame.f_back) and not importing_library(frame.f_back) \
                    and not on_launch_path(frame.f_back):
                refuse(f"have {entered_through(frame.f_back)} call {key} for it ({default_reason}; a library may do "
                       "that for the submission only on Triton's launch path)")
            elif key in MODE_STACK_ACCESSORS and mode_stack_depth() > 0 and not reads_mode_stack_itself(frame.f_back) \
                    and submission_on_stack(frame.f_back):
                refuse(f"have torch read the dispatch-mode stack for it ({key} called from "
                       f"{site_name(asking_frame(frame.f_back))}: the harness's monitor is on that stack)")
            else:
                site = asking_frame(frame.f_back)
                use = harness_proxy_uses.get((site.f_code.co_filename, site.f_code.co_name)) if site is not None else None
                own_use = use is not None and key in use[0] and (use[1] or not submission_on_stack(frame.f_back))
                if not own_use and key in dispatch_disablers and submission_on_stack(frame.f_back):
                    refuse(f"have {site_name(site) if site is not None else 'a library'} call {key} (it turns the harness's monitor off while the "
                           "submission runs: what it does there is unseen)")
                why = None if own_use else called_back(frame.f_back) or called_unnamed(frame.f_back, key) \
                    or (trampolined(frame.f_back, key) if key in thread_starts else None)
                if why:
                    refuse(f"call {key}: {why}")
            box.append(originals[key])
        elif event in refused_events or event.startswith(refused_prefixes):
            if deciding(frame) == 2:
                refuse(f"use {event}")
            if event in launch_events or event.startswith(refused_prefixes):
                if not on_launch_path(frame):
                    refuse(f"use {event} through {entered_through(frame)} (a library may do that for the submission "
                           "only on Triton's launch path)")
                why = called_back(frame) or trampolined(frame, event)
            else:
                why = reached_for(frame, primitive_names.get(event, ()), frame_access=event == "sys._getframe")
            if why:
                refuse(f"use {event}: {why}")
        elif event == "object.__getattr__":
            if len_(args) > 1 and args[1] in frame_attributes:
                if deciding(frame) == 2:
                    refuse(f"read .{args[1]} (frames of the harness are out of reach)")
                # the traceback module walking a traceback's frames for the harness (to format an error
                # after a call) reads them itself: its walker driven by its own code, no submission on
                # the stack. Not for the submission: traceback's code hands each frame on to methods and
                # module globals the submission can override or swap for a moment (a StackSummary
                # subclass's own _extract_from_extended_frame_gen drained the walker and kept the
                # frames), and a library function iterating the walker would hand them over too
                # (walk_tb_drained_by_torch.py)
                walked = (frame is not None and (frame.f_code.co_filename, frame.f_code.co_name) in traceback_walkers
                          and frame.f_back is not None and frame.f_back.f_code.co_filename == traceback_file
                          and not submission_on_stack(frame))
                if not walked:
                    why = reached_for(frame, (args[1],), frame_access=True)
                    if why:
                        refuse(f"read .{args[1]}: {why}")
        elif event in ("object.__setattr__", "object.__delattr__"):
            value = args[2] if len_(args) > 2 else None
            if type_(value) is CodeType and not plain_names(value) and submission_on_stack(frame):
                refuse(NOT_PLAIN_NAMES)
            if (type_(value) is CodeType and kind(value.co_filename) != 2 and len_(args) > 1 and args[1] == "__code__"
                    and submission_on_stack(frame)):
                # a function of the submission's running a library's (or the harness's) code: its frames
                # would pass for that library's, with globals of the submission's choosing
                refuse(f"give a function the code of {value.co_filename.rsplit('/', 1)[-1]} ({value.co_name})")
            if args and is_library_object(args[0]):
                what = args[1] if len_(args) > 1 and type_(args[1]) is str_ else "attributes"
                if deciding(frame) == 2:
                    refuse(f"rebind {what} of a library type or function")
                why = reached_for(frame, (what, "setattr", "delattr"), sets_attribute=True)
                if why:
                    refuse(f"rebind {what} of a library type or function: {why}")
        elif event == "os.putenv" or event == "os.unsetenv":
            # The process's environment, which Triton's knobs and the programs its compiler starts
            # read, changes with the submission on the stack only through os.environ's own methods,
            # which keep the mapping the launch check reads in step: os.putenv alone changed what
            # Triton's knobs read (TRITON_PTXAS_PATH naming a script of the submission's) with
            # the mapping as it was (putenv_ptxas_script.py)
            if (frame is None or frame.f_code not in environ_setters) and submission_on_stack(frame):
                refuse(f"call {event} (set the environment through os.environ, whose changes the harness judges)")
            # and a variable that steers Triton's compiler not at all while the submission runs,
            # whoever sets it: set through os.environ and then deleted from its mapping alone
            # (os.environ._data, a plain dict), it stayed in the environment Triton reads with
            # nothing left for the launch check to see (environ_data_edited_in_place.py)
            key = args[0] if args else None
            if type_(key) is bytes_:
                key = key.decode("utf-8", "surrogateescape")
            if type_(key) is str_ and (key in compiler_env_names or key.startswith(compiler_env_prefixes)) \
                    and key not in compiler_env_exempt and submission_on_stack(frame):
                refuse(f"set or unset {key} in the environment (it steers the programs Triton's compiler runs)")
        elif event == "resource.prlimit":
            # another process's limits: the run's own (the CLI, its fork server, a trusted baseline) are
            # of the same user, and a file-descriptor or CPU-time limit set there broke the run and
            # other jobs (prlimit_on_trusted_processes.py); its own limits the worker may read and set within
            # their hard limits
            if args and args[0] not in (0, own_pid()):
                refuse("set or read another process's resource limits (resource.prlimit with a pid "
                       "other than the worker's own)")
        elif event == "import":
            # (a name or origin of a str subclass as a plain str: the checks below judge plain ones)
            name = plain_path(args[0] if args else "")
            origin = plain_path(args[1] if len_(args) > 1 else None)
            if (name is unjudged or origin is unjudged) and submission_on_stack(frame):
                refuse("import a module whose name or file is given as an object of its own class")
            if environment_changed is not None:
                # (whoever imports: a module torch imports lazily as the harness saves a result runs
                # its code with the same authority as one the submission's call imports)
                why = environment_changed()
                if why:
                    shown = name[:80] if type_(name) is str_ else "a module"
                    refuse(f"import {shown} after the submission {why}: the module's code, run as it is imported, "
                           "would call that")
            # (by its first name, by its last: an extension module's init function is named after
            # the last, so a spec "pkg._testcapi" over _testcapi's file loads it; and by its file)
            origin_name = origin.rsplit("/", 1)[-1].split(".", 1)[0] if type_(origin) is str_ else ""
            if type_(name) is str_ and (name.split(".", 1)[0] in native_modules or name.rsplit(".", 1)[-1] in
                                        native_modules or origin_name in native_modules):
                if deciding(frame) == 2:
                    refuse(f"import {name} (native access)")
                why = called_back(frame)
                if why:
                    refuse(f"import {name} (native access): {why}")
            if type_(origin) is str_ and kind(origin) == 2 and (deciding(frame) == 2 or not on_launch_path(frame)
                                                               or called_back(frame) or trampolined(frame, event)):
                refuse(f"load the native module {origin}")
        elif event == "compile":
            source, filename = (args[0], args[1]) if len_(args) > 1 else (None, None)
            if type_(filename) is bytes_:
                filename = filename.decode("utf-8", "surrogateescape")
            # Whoever compiles, while the submission is on the stack: a library may be calling a
            # callable the submission gave it (functools.partial(exec, ...) has no frame of its own).
            if type_(filename) is not str_ or not submission_on_stack(frame):
                return  # (an AST is compiled with no file name here: plain_names checks it as it runs)
            if filename.startswith("<"):
                # Code compiled from a string runs as "<string>", a name library-generated code shares:
                # only the standard library's code generators, Triton's binder and libraries being
                # imported may do it then.
                if frame is None or not (generates_code(frame.f_code) or importing_library(frame)):
                    refuse("compile or run code from a string (define functions in the file instead)")
                compiling[get_ident()] = frame
            elif kind(filename) != 2 and not same_as_file(source, filename):
                refuse(f"compile code under another file's name ({filename})")
        elif event == "exec":
            code = args[0] if args else None
            compiled_by = compiling.pop(get_ident(), None)
            if type_(code) is CodeType and not plain_names(code) and submission_on_stack(frame):
                refuse(NOT_PLAIN_NAMES)
            if type_(code) is not CodeType or kind(code.co_filename) == 2 or not submission_on_stack(frame):
                return
            if code.co_filename.startswith("<") and deciding(frame) == 2:
                own(code, fresh=compiled_by is frame)  # generated code the submission runs is the submission's
                return
            if frame is None or not runs_library_code(frame.f_code):
                if kind(code.co_filename) == 1:
                    refuse("run the harness's or a library's code objects with its own globals")
                # code named as the standard library's, run outside the import system while the
                # submission is on the stack: compiled from a syntax tree under that name (the compile
                # event names no file for a tree) its frames would act for their caller, a library
                # (ast_code_named_like_stdlib.py); it is the submission's
                own(code)
                return
            # The import system runs a module's code: its frames will count as the file the code names
            # (a library's, or the standard library's, which acts for whoever calls it), so the code
            # must be that file's, compiled from its source (a bytecode-only file keeps whatever name
            # was written into it)
            if not frame.f_code.co_filename.startswith("<frozen importlib"):
                # Triton's interpreter re-runs a @jit function from the source inspect found for it
                # (linecache, which the submission can fill): a library's must be its file's own text
                if kind(code.co_filename) == 1 and not rewritten_from_file(frame, code.co_filename):
                    refuse(f"have Triton's interpreter run source for {code.co_filename[:200]} that is not that "
                           "file's (the source cache it reads was changed)")
                return
            if dict_get(sys_dict, "pycache_prefix") is not None:
                refuse(f"run {code.co_filename[:200]} with sys.pycache_prefix set (its compiled form would be read "
                       "from a folder of the submission's)")
            claim = module_spec(frame)
            if claim is not None and claim != code.co_filename:
                refuse(f"run code that names {code.co_filename[:200]} as its file from {claim[:200]} (only a library's own "
                       "source file may run as that library's code)")
        elif event in ("marshal.loads", "marshal.load"):
            # code objects from bytes name any file they like: only the import system reads them (its
            # module's origin is checked as the code runs, above)
            if submission_on_stack(frame) and (frame is None or not frame.f_code.co_filename.startswith("<frozen importlib")):
                refuse(f"use {event} (code objects read from bytes can name any file as theirs)")

    return hook


def _module_spec_reader() -> Callable[[Any], str | None]:
    """``claim(frame)``: for the import system about to run a module's code (``frame`` runs
    ``exec``), None when the module is a library's source file loaded the standard way, else where
    its code really comes from (the loaded file, or the loader's type where there is none). Reads
    the import system's own frames; binds what it uses now."""
    from importlib.machinery import FrozenImporter, SourceFileLoader
    dict_, dict_get, type_, str_, set_, getattr_ = dict, dict.get, type, str, set, getattr

    def claim(frame: Any) -> str | None:
        for _ in range(6):  # _call_with_frames_removed <- exec_module (the loader and the module)
            if frame is None:
                return "an unknown loader"
            if frame.f_code.co_name == "exec_module" and frame.f_code.co_filename.startswith("<frozen importlib"):
                break
            frame = frame.f_back
        else:
            return "an unknown loader"
        caller = frame.f_back  # an import statement's machinery, not the submission calling exec_module itself
        if caller is None or not caller.f_code.co_filename.startswith("<frozen importlib"):
            return "a loader called outside the import system"
        local = frame.f_locals
        loader, module = dict_get(local, "self"), dict_get(local, "module")
        spec = dict_get(getattr_(module, "__dict__", {}), "__spec__") if module is not None else None
        origin = getattr_(spec, "origin", None)
        state = getattr_(loader, "__dict__", None)
        if (type_(loader) is SourceFileLoader and type_(origin) is str_ and origin.endswith(".py")
                and type_(state) is dict_ and set_(state) <= {"name", "path"} and dict_get(state, "path") == origin):
            # (an instance attribute, get_code say, would replace the loader's reading of the file)
            return origin
        if type_(loader) is FrozenImporter or loader is FrozenImporter:
            return None
        return f"{type_(loader).__name__} {origin!s}"
    return claim


def _traceback_walkers() -> frozenset[tuple[str, str]]:
    """(file, function) of the traceback module's generators that read each traceback entry's frame."""
    import traceback
    return frozenset((traceback.__file__, name) for name in ("walk_tb", "_walk_tb_with_full_positions")
                     if hasattr(traceback, name))


def _line_tokens(files: tuple[str, ...]) -> dict[tuple[str, int], frozenset[str]]:
    """(file, line number) -> the identifiers on that line, for each file (read when the hook is
    made: the hook itself calls no Python code to read them)."""
    import re
    identifier = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    found: dict[tuple[str, int], frozenset[str]] = {}
    for path in files:
        try:
            with open(path, encoding="utf-8") as source:
                for number, line in enumerate(source, 1):
                    found[(path, number)] = frozenset(identifier.findall(line))
        except OSError:
            continue
    return found


def _frame_taker_lines() -> dict[tuple[str, int], str | None]:
    """(file, line number) -> depth variable, for each :data:`FRAME_TAKER_LINES` entry in the
    installed libraries."""
    found: dict[tuple[str, int], str | None] = {}
    for package, relative, text, depth in FRAME_TAKER_LINES:
        root = _package_dir(package)
        if root is None:
            continue
        path = f"{root}/{relative}"
        try:
            with open(path, encoding="utf-8") as source:
                found.update(((path, number), depth) for number, line in enumerate(source, 1) if line.strip() == text)
        except OSError:
            continue
    return found


# The names whose call (or, for a traceback's frame, whose read) takes frames on a frame-taking line.
FRAME_TAKING_NAMES = {"_getframe": "call", "extract_stack": "call", "tb_frame": "read"}
CALL_OPS = frozenset({"CALL", "CALL_KW", "CALL_FUNCTION_EX", "CALL_FUNCTION", "CALL_METHOD"})


def _frame_taker_offsets(lines: dict[tuple[str, int], Any]) -> dict[int, tuple[Any, frozenset[int]]]:
    """id(code) -> (code, instruction offsets) for the code objects of the loaded modules that hold
    :data:`FRAME_TAKER_LINES`: the instructions of such a line that take frames (the call of
    ``sys._getframe`` or a traceback stack walker, the read of ``tb_frame``). A frame running any
    other instruction of the line (the ``append`` that stores a formatted stack) is calling
    something else, which the submission may have made a callable with no frame of its own
    (swapped_queue_on_frame_taking_line). Found now, before the submission is imported, from the modules' own
    functions and classes."""
    import dis
    numbers: dict[str, set[int]] = {}
    for path, number in lines:
        numbers.setdefault(path, set()).add(number)
    found: dict[int, tuple[Any, frozenset[int]]] = {}
    seen: set[int] = set()

    def visit_code(code, depth: int) -> None:
        if id(code) in seen or depth > 16:
            return
        seen.add(id(code))
        wanted = numbers.get(code.co_filename)
        if wanted and any(line in wanted for _, _, line in code.co_lines()):
            offsets = _taking_offsets(list(dis.get_instructions(code)), wanted, len(code.co_code))
            if offsets:
                found[id(code)] = (code, offsets)
        for const in code.co_consts:
            if isinstance(const, CodeType):
                visit_code(const, depth + 1)

    def visit(value, module: str, depth: int) -> None:
        if depth > 4:
            return
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            for accessor in (value.fget, value.fset, value.fdel):
                visit(accessor, module, depth + 1)
        elif isinstance(value, type):
            if value.__module__ == module:
                for member in list(vars(value).values()):
                    visit(member, module, depth + 1)
        elif isinstance(value, FunctionType):  # (no getattr on other objects: torch.ops makes what is asked for)
            visit_code(value.__code__, 0)
            visit(value.__dict__.get("__wrapped__"), module, depth + 1)

    names = {path.rsplit("/", 1)[-1] for path in numbers}
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.rsplit("/", 1)[-1] in names \
                and (path in numbers or os.path.realpath(path) in numbers):
            for value in list(vars(module).values()):
                visit(value, module.__name__, 0)
    return found


ATTRIBUTE_OPS = ("LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "DELETE_ATTR")
NAME_LOAD_OPS = ("LOAD_GLOBAL", "LOAD_NAME")
# Code whose instructions tell how each opcode above names its attribute or global in this Python
# (the index into co_names is shifted by flag bits that differ between versions)
_NAMING_PROBE = "g0\ng1.a0\ng1.a1 = 0\ndel g1.a2\ng1.a3()\ndef f():\n    return g2.a4 + g3.a5()\n"


def instruction_reader() -> Callable[[CodeType], dict[int, frozenset[str]]]:
    """``performed(code)``: instruction offset (with its inline caches) -> the names that
    instruction acts on. An attribute read, write or delete names its attribute; a call names the
    attributes and globals loaded since the call before it (``sys._getframe(depth + 1)`` calls
    ``_getframe``). A primitive asked for by a frame at an instruction that does not name it was
    asked for by something that instruction called: a callable with no frame of its own
    (``functools.partial``, ``map`` over a builtin) planted where library code calls it, or a
    dunder method run by a truth test. Decodes ``co_code`` with tables taken now, through the
    ``dis`` module as it is before the submission is imported (which may then change it)."""
    import dis
    import opcode
    probe = compile(_NAMING_PROBE, "<probe>", "exec")
    codes = [probe] + [c for c in probe.co_consts if isinstance(c, CodeType)]
    shifts: dict[int, int] = {}  # opcode -> how far its argument is shifted before indexing co_names
    for code in codes:
        for instruction in dis.get_instructions(code):
            if instruction.opname in ATTRIBUTE_OPS + NAME_LOAD_OPS and isinstance(instruction.argval, str):
                arg = instruction.arg or 0
                shift = next(s for s in range(3) if (arg >> s) < len(code.co_names)
                             and code.co_names[arg >> s] == instruction.argval)
                shifts[instruction.opcode] = shift
    attribute_ops = frozenset(opcode.opmap[name] for name in ATTRIBUTE_OPS if name in opcode.opmap)
    call_ops = frozenset(opcode.opmap[name] for name in CALL_OPS if name in opcode.opmap)
    # Python 3.11's PRECALL, once specialized for a builtin, makes the call itself
    precall = opcode.opmap.get("PRECALL", -1)
    loads = frozenset(op for op in shifts if opcode.opname[op] in ("LOAD_ATTR", "LOAD_METHOD") + NAME_LOAD_OPS)
    # an expression ends at a store, a pop, a jump or a return: what it loaded is not called later
    ends = frozenset(op for op, name in enumerate(opcode.opname)
                     if name.startswith(("STORE_", "DELETE_", "POP_", "RETURN_", "JUMP_")))
    cache, extended = opcode.opmap.get("CACHE", 0), opcode.opmap["EXTENDED_ARG"]
    frozenset_, range_, len_, get = frozenset, range, len, shifts.get

    def performed(code: CodeType) -> dict[int, frozenset[str]]:
        raw, names = code.co_code, code.co_names
        found: dict[int, frozenset[str]] = {}
        loaded: list[str] = []
        extend = 0
        last: list[int] = []  # offsets of the last instruction with what it names, caches added after
        for offset in range_(0, len_(raw) - 1, 2):
            op, arg = raw[offset], raw[offset + 1] | extend
            if op == cache:
                if last:
                    found[offset] = found[last[0]]
                continue
            last = []
            extend = (arg << 8) if op == extended else 0
            shift = get(op)
            if shift is not None and (arg >> shift) < len_(names):
                name = names[arg >> shift]
                if op in loads:
                    loaded.append(name)
                if op in attribute_ops:
                    found[offset], last = frozenset_((name,)), [offset]
            elif op in call_ops:
                found[offset], last, loaded = frozenset_(loaded), [offset], []
            elif op == precall:
                found[offset], last = frozenset_(loaded), [offset]
            if op in ends:
                loaded = []
        return found
    return performed


def _taking_offsets(instructions: list, lines: set[int], code_size: int) -> frozenset[int]:
    """Offsets of the frame-taking instructions among ``instructions`` on ``lines``: a read of
    ``tb_frame``; from the load of a frame-taking function to the call of it (no other call between).
    Each with its inline caches: Python 3.11 reports a frame that is calling as at the call's last
    cache entry."""
    offsets: set[int] = set()
    for index, instruction in enumerate(instructions):
        how = FRAME_TAKING_NAMES.get(instruction.argval) if isinstance(instruction.argval, str) else None
        if how is None or instruction.positions.lineno not in lines:
            continue
        last = index
        if how == "call":
            last = next((i for i in range(index + 1, len(instructions)) if instructions[i].opname in CALL_OPS), index)
        stop = instructions[last + 1].offset if last + 1 < len(instructions) else code_size
        offsets.update(range(instruction.offset, stop, 2))
    return frozenset(offsets)


# torch's device backends queue a call made before the device starts (torch.manual_seed in CPU mode)
# with the text of the stack, to say where it was queued if it fails later: formatting it takes
# frames while the submission is on the stack, with its code able to run inside (a finalizer, a
# dunder method). The workers record no such stack.
LAZY_CALL_MODULES = ("torch.cuda", "torch.xpu", "torch.mtia")


def _no_stack(*args: Any, **kwargs: Any) -> list[str]:
    return ["  (stack not recorded: a KernelBench-X worker takes no frames for queued device calls)\n"]


def record_no_lazy_call_stacks() -> None:
    """Give torch's device backends a ``traceback`` whose ``format_stack`` takes no frames (before
    the module snapshot, so that rebinding it back is seen)."""
    import types
    stand_in = types.ModuleType("kernelbenchx_no_stack")
    stand_in.format_stack = _no_stack
    for name in LAZY_CALL_MODULES:
        module = sys.modules.get(name)
        if module is not None and isinstance(vars(module).get("traceback"), types.ModuleType):
            module.traceback = stand_in


def import_lazy_library_modules() -> None:
    """Import :data:`LAZY_LIBRARY_MODULES` now (those the installed versions lack are skipped)."""
    import importlib
    for name in LAZY_LIBRARY_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def library_type_ids() -> set[int]:
    """Identities of the classes bound in every loaded module (before the submission is): their
    attributes are the libraries' behaviour, which the submission must not rebind."""
    ids: set[int] = set()
    with warnings.catch_warnings():  # a deprecated name's warning (torch.distributed.reduce_op) is noise in every job's stderr
        warnings.simplefilter("ignore")
        for module in list(sys.modules.values()):
            for value in list(getattr(module, "__dict__", {}).values()):
                if isinstance(value, type):
                    ids.add(id(value))
    return ids


def operator_namespaces_now() -> frozenset[str]:
    """The namespaces of every operator registered with PyTorch's dispatcher now (``aten``, ``prims``,
    ...), and ``_`` (a library of fallbacks for all of them); empty without torch."""
    torch_c = sys.modules.get("torch._C")
    names = getattr(torch_c, "_dispatch_get_all_op_names", None)
    return frozenset(str(name).split("::", 1)[0] for name in (names() if names else ())) | {"_"}


def arm(policy: GuardPolicy, originals: dict[str, Callable],
        compiler_state_changed: Callable[[], str | None] = lambda: None,
        launch_router: Callable[[Any, tuple], None] | None = None,
        environment_changed: Callable[[], str | None] | None = None, stand_in_codes: tuple = (),
        barrier: "CodeBarrier | None" = None) -> None:
    """Install the guard for good (an audit hook cannot be removed); ``compiler_state_changed``
    says why Triton's compiler would no longer run what it ran before the import (None: unchanged);
    ``launch_router`` answers the launch stand-ins' events (integrity.LaunchCounter.router);
    ``environment_changed`` says what the submission changed that a library module's import-time
    code would call (:func:`import_environment_check`), asked whenever a module is imported while
    the submission is on the stack; ``stand_in_codes`` the code of the harness's launch stand-ins
    (integrity.STAND_IN_CODES), judged like Triton's callback callers; ``barrier`` the worker's
    :class:`CodeBarrier` (the one harness code that sets a profile function once armed), to which
    the hook hands its judgement of whose code is whose (``code_kinds``: a list it appends that
    function to; :func:`watch_dispatch_keys` may share it)."""
    originals = dict(originals)
    early = originals.pop(EARLY_ANSWERS, None)
    sys.addaudithook(_make_hook(policy, originals, compiler_state_changed, launch_router, environment_changed,
                                frozenset(stand_in_codes), frozenset(CodeBarrier.codes() if barrier else ()),
                                barrier.code_kinds if barrier else None))
    if early is not None:
        early()  # the guard's hook answers from now on


STANDARD_STREAMS = ("stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__")


def import_environment_check(rebound: Callable[[], list[str]]) -> Callable[[], str | None]:
    """What a library module's import-time code would call that the submission changed: names it
    rebound (``rebound``, the module snapshot's check), finders or path hooks it added to the
    import system, a standard stream it replaced. Libraries get frames while they are imported (sympy's dispatch, typing,
    torch.library take them), so an import may start only while nothing of the submission's
    could be called from there with their authority. Read through bindings made now."""
    import io
    sys_dict, get, len_, is_, type_ = sys.__dict__, dict.get, len, operator.is_, type
    meta_path, path_hooks, prefix = list(sys.meta_path), list(sys.path_hooks), sys.pycache_prefix
    # the standard streams a warning or a print writes to (a warning at import, for one): the ones of
    # now, or any of the io module's own types (a submission silencing its prints with a StringIO)
    streams = {name: get(sys_dict, name) for name in STANDARD_STREAMS}
    # the finders the import system caches per sys.path entry: its own kinds only (a finder object of
    # the submission's there is called by every import that searches that entry)
    import importlib.machinery
    import zipimport
    finder_types = tuple({type(None), importlib.machinery.FileFinder, zipimport.zipimporter}
                         | {type(finder) for finder in sys.path_importer_cache.values()})
    values = dict.values

    def one_of(kind: type, kinds: tuple) -> bool:
        # by identity: a membership test would hash the type, and a metaclass's __hash__ is code of
        # the submission's, run inside the guard's check
        for known in kinds:
            if kind is known:
                return True
        return False
    io_types = tuple({t for module in (io, sys.modules.get("_io")) if module is not None
                      for t in vars(module).values() if isinstance(t, type)})

    def same(now: Any, then: list) -> bool:
        return type(now) is list and len_(now) == len_(then) and all(map(is_, now, then))

    def changed() -> str | None:
        names = rebound()
        if names:
            return f"rebound {', '.join(names)}"
        if get(sys_dict, "pycache_prefix") is not prefix:
            return "set sys.pycache_prefix (where compiled modules are read from)"
        if not same(get(sys_dict, "meta_path"), meta_path) or not same(get(sys_dict, "path_hooks"), path_hooks):
            return "changed the import system's finders (sys.meta_path, sys.path_hooks)"
        cache = get(sys_dict, "path_importer_cache")
        if type_(cache) is not dict:
            return "replaced sys.path_importer_cache"
        for finder in list(values(cache)):
            if not one_of(type_(finder), finder_types):
                return "put a finder of its own into sys.path_importer_cache"
        for name, then in streams.items():
            now = get(sys_dict, name)
            if now is not then and not one_of(type_(now), io_types):
                return f"replaced sys.{name} with an object of its own (a warning printed as a module loads writes to it)"
        return None
    return changed


class CodeBarrier:
    """Sections of the harness's work in which none of the submission's code may run: saving a
    call's results and digesting them. Library code the harness calls there reads state the
    submission could have planted (torch.save's thread-local flags, its configuration, sets it
    tests membership in): an object of the submission's there had its methods run inside the
    save, which then rebound a builtin the harness used next and restored it before any check
    (tests/adversarial/exe_result_forged_in_save.py). While a section is open a profile function
    watches every Python function that starts; one the guard's hook judges the submission's (its
    file, a module it wrote, however its path is spelled, code it had generated) is refused, and the
    section ends in a refusal even if library code swallowed the first. The judgement is the armed
    hook's (``code_kinds``, filled by :func:`arm`): before that nothing is refused.

    Use: ``with barrier("saving a call's outputs"): ...``; inside, ``barrier.outside(call)`` runs
    the submission's own call with the watch off. A callable with no frame of its own
    (``functools.partial`` of a builtin) starts no Python function and is not seen (README, "Not
    defended")."""

    def __init__(self, code_kinds: list | None = None) -> None:
        Refusal, breaches, current = GuardRefusal, [], []
        kinds: list = code_kinds if code_kinds is not None else []

        def watch(frame: Any, event: str, arg: Any) -> None:
            if event == "call" and kinds and kinds[0](frame.f_code) == 2:
                breaches.append(current[-1] if current else "working")
                raise Refusal(f"guard: the submission's code ran while the harness was {breaches[-1]} (library "
                              "code called something the submission had planted in its state)")

        self.code_kinds = kinds
        self._watch, self._breaches, self._current = watch, breaches, current
        self._setprofile, self._getprofile = sys.setprofile, sys.getprofile

    def __call__(self, what: str) -> "CodeBarrier":
        self._current.append(what)
        return self

    def __enter__(self) -> None:
        self._setprofile(self._watch)

    def __exit__(self, *exc: Any) -> None:
        watching = self._getprofile() is self._watch
        self._setprofile(None)
        what = self._current.pop() if self._current else "working"
        if self._breaches:
            raise GuardRefusal(f"guard: the submission's code ran while the harness was {self._breaches[-1]} "
                               "(library code called something the submission had planted in its state)")
        if not watching:  # taken off or replaced while the section was open: not by the harness
            raise GuardRefusal(f"guard: the harness's watch was taken off while it was {what}")

    def outside(self, call: Callable[[], Any]) -> Any:
        """``call()`` with the watch off, inside an open section: the submission's own call in the
        middle of the harness's work around it (a timed repetition between the timer's steps)."""
        self._setprofile(None)
        try:
            return call()
        finally:
            self._setprofile(self._watch)

    @classmethod
    def codes(cls) -> tuple:
        """The code of the methods that set and clear the profile function (see :func:`arm`)."""
        return (cls.__enter__.__code__, cls.__exit__.__code__, cls.outside.__code__)


def watch_dispatch_keys(submission_file: str, watching: list[int] | None = None,
                        policy: GuardPolicy | None = None, code_kinds: list | None = None) -> bool:
    """Refuse to run the submission's code while PyTorch's Python dispatch keys are excluded, which
    no dispatch mode then sees: torch's conversions of Python values (data constructors, indexing
    with list-likes, the legacy constructors, also reached through ``torch._C``) call ``__float__``,
    ``__getitem__``, ... that way, and so does a tensor subclass's or a mode's own handler. Uses
    ``sys.monitoring`` (PEP 669, Python 3.12+): a callback at the start of every Python function,
    disabled at once for every code object but the submission's file's, so it costs the harness
    nothing and the submission one check per call. With ``watching`` (the depths at which the
    harness's op monitors sit while they watch a call: integrity.TorchOpMonitor), its code is also
    refused while the dispatch-mode stack is shallower than that: torch code that takes the modes
    off the stack (its tensor printing does) and calls the submission back would run it unseen.
    With ``policy``, every file the guard counts as the submission's is watched, not only its own
    file (code it compiled under another file name, a module it wrote and imported); with
    ``code_kinds`` (filled by :func:`arm`), the guard's hook's own judgement of each code object
    once it is armed (a path spelled to start in a library's folder is the submission's). Returns whether
    it is installed (older Pythons: the constructor stand-ins are the only cover). Call before
    :func:`install_proxies`, which then hands the monitoring functions to library code only."""
    monitoring = getattr(sys, "monitoring", None)
    torch = sys.modules.get("torch")
    if monitoring is None or torch is None:
        return False
    tool = next((i for i in range(6) if monitoring.get_tool(i) is None), None)
    if tool is None:
        return False
    keys = tuple(getattr(torch._C.DispatchKey, n) for n in ("Python", "PythonTLSSnapshot")
                 if hasattr(torch._C.DispatchKey, n))
    excluded, disable, refusal = torch._C._dispatch_tls_is_dispatch_key_excluded, monitoring.DISABLE, GuardRefusal
    depth = torch._C._len_torch_dispatch_stack
    filename, watched = submission_file, watching if watching is not None else []
    libraries = (policy.trusted_dirs + policy.transparent_dirs) if policy is not None else None
    str_ = str

    def submissions(name: Any) -> bool:
        """Code of the submission's: its file, or (with the policy) any file outside the libraries."""
        if name == filename:
            return True
        if libraries is None or type(name) is not str_ or name.startswith("<"):
            return False
        return not any(name == root or name.startswith(root + "/") for root in libraries)

    kinds = code_kinds if code_kinds is not None else []

    def started(code: Any, offset: int) -> Any:
        if not (kinds[0](code) == 2 if kinds else submissions(code.co_filename)):
            return disable
        for key in keys:
            if excluded(key):
                raise refusal("guard: the submission may not run code while PyTorch's dispatch hooks are off (torch "
                              "called it back from a conversion, or a dispatch handler of its own: no monitor would "
                              "see the PyTorch work done there)")
        if watched and depth() < watched[-1]:
            raise refusal("guard: the submission may not run code while the harness's monitor is off the dispatch "
                          "stack (torch code that disables the modes, its tensor printing say, called it back: no "
                          "monitor would see the PyTorch work done there)")
        return None
    monitoring.use_tool_id(tool, "kernelbenchx-guard")
    monitoring.register_callback(tool, monitoring.events.PY_START, started)
    monitoring.set_events(tool, monitoring.events.PY_START)
    return True


def scrub_modules() -> None:
    """Drop the harness's modules (and the worker run as ``__main__``) from ``sys.modules``: an
    ``import harness...`` by the submission then finds no live state (and is refused by the guard,
    since it would open the harness's files)."""
    for name in [n for n in sys.modules if n == "harness" or n.startswith("harness.")]:
        del sys.modules[name]
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__spec__", None) is not None and str(main.__spec__.name).startswith("harness"):
        sys.modules["__main__"] = type(sys)("__main__")
