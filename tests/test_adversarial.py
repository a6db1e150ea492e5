"""Submissions that attack the harness itself (tests/adversarial/): forged reports with outputs files
that block or explode, a flooded event pipe, stage events meant to postpone the deadline forever, a
stderr file linked to the parent's environment, terminal escapes, unjudgeable outputs, source the
parser chokes on, and a detached process. One run of all of them, beside a correct solution: each
gets the verdict below, the run ends normally (exit 0) with a bounded parent, and nothing the
submissions started outlives it."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch

from conftest import ROOT, write_jsonl
from harness.sandbox.confine import landlock_abi

ADVERSARIAL = Path(__file__).resolve().parent / "adversarial"
SECRET = "kbx-parent-secret-7d1e"
ESCAPE_MARKER = "kbx-escape-3f9c2a"
# The parent's own peak memory must stay under this: in CPU mode about 310 MiB are torch, Triton,
# the task files and the references; the harness's caps add at most 8 MiB of events per live worker
# and one bounded outputs file; the flood alone would add over 400 MiB without them. On a GPU the
# CUDA context comes on top (the bound there only catches runaway growth).
PARENT_PEAK_MIB = 2048 if torch.cuda.is_available() else 512
# Seconds for call and exe each: room for a correct kernel's cases (natively that includes its JIT
# compiles), while the attack that postpones its deadline must still end in about twice this.
STAGE_TIMEOUT = "60" if torch.cuda.is_available() else "15"
# The other tasks' attacks run no stage-postponing attack, and one takes longer than STAGE_TIMEOUT
# in the interpreter: logspace_full_scalars' call (1,000 fills on the host, then 8 launches of 128
# tensor arguments each) took 19 s on a two-core machine, a `timeout` instead of its `integrity`.
OTHER_TASKS_TIMEOUT = "60"

# name -> (verdict(s), stage(s) that carry it or None for both, phrase(s) its detail must contain)
EXPECTED = {
    # forged events: without the worker's key a line on the event pipe is not an event
    # (with Landlock the FIFO itself is refused: the job directory takes folders and regular files only;
    # the parent's reads of regular files only are tested on their own in test_sandbox_and_interpreter)
    "forged_report_fifo": ("integrity", "call", ("did not sign", "making anything but folders and regular files")),
    "forged_report_deflate_bomb": ("integrity", "call", "did not sign"),
    "event_flood": ("integrity", "call", "protocol:"),
    "endless_stages": ("integrity", "call", "did not sign"),
    # its own command pipe reopened for writing (torch.save opens /proc/self/fd/0 natively) and
    # filled: the parent's farewell write blocked forever; commands now wait a bounded time
    "stdin_pipe_refilled_by_the_worker": ("timeout", "call", "exceeded its time limit"),
    # the parent's own reading, printing and parsing
    "stderr_symlink": ("integrity", "call", "os.symlink"),
    "ansi_error": ("error", "call", "all 81 jobs passed"),
    "huge_int_output": (("wrong", "integrity"), "exe", ""),
    "deep_expression": ("error", "call", "cannot be parsed"),
    "detached_process": ("integrity", "call", "guard: the submission may not"),
    # ... and removing what a job leaves: a chain of 1,500 folders with data at the bottom (the
    # recursive removal raised RecursionError: harness_error, no reports, the scratch left on disk).
    # Its own error; integrity only if the disk watch's check (once a second) lands in the
    # milliseconds between the chain's linking and the error's report
    "deep_folder_chain": (("error", "integrity"), "call", ("deep folder chain built: its own error",
                                                          "could not be measured")),
    # reaching the harness's state: frames, the collector, raw memory, its files
    "frame_walk": ("integrity", "call", "guard: the submission may not use sys._getframe"),
    "traceback_frame": ("integrity", "call", "read .tb_frame"),
    "gc_walk": ("integrity", "call", "gc.get_objects"),
    "ctypes_memory": ("integrity", "call", "ctypes."),
    "proc_mem": ("integrity", "call", "/proc"),
    "read_task_file": ("integrity", "call", "of the harness"),
    "read_solution": ("integrity", "call", "of the harness"),
    "read_other_jobs": ("integrity", "call", "of another job"),
    "trace_calls": ("integrity", "call", "sys.setprofile"),
    # changing the harness's code or the libraries it calls
    "rebind_library_type": ("integrity", "call", "monkeypatch: the submission rebinds torch._tensor.Tensor.clone"),
    "rebind_during_call": ("integrity", "call", "monkeypatch: the submission rebinds torch.save"),
    "blind_the_snapshot": ("integrity", "call", "monkeypatch: the submission rebinds builtins.all, operator.is_"),
    "swap_sys_modules": ("integrity", "call", "monkeypatch: the submission rebinds sys.modules['hashlib']"),
    "swap_monitor_code": ("integrity", "call", "rebind __code__"),
    "run_harness_code": ("integrity", "call", "code.__new__"),
    "spoof_code_file": ("integrity", "call", "another file's name"),
    "write_outside": ("integrity", "call", "sandbox: the system refused the submission (writing outside its job"),
    # native code and other processes
    # (its module's name is one loaded already: a second copy of it is refused first)
    "native_module": ("integrity", "call", ("native module", "second copy of the module")),
    "poison_triton_cache": ("integrity", "call", "Triton's cache"),
    "spawn_process": ("integrity", "call", "subprocess.Popen"),
    "signal_parent": ("integrity", "call", "os.kill"),
    "prlimit_on_trusted_processes": ("integrity", "call", "resource.prlimit"),
    # state one job leaves for another where no file is written (the pair itself:
    # test_jobs_of_one_run_cannot_pass_answers_to_each_other); each then does the work honestly
    "sibling_job_listing": ("integrity", "call", "may not list"),
    "shared_file_metadata": ("integrity", "call", "may not use os.chmod"),
    "shared_file_lock": ("integrity", "call", "may not use fcntl.flock"),
    "other_process_scheduling": ("integrity", "call", "sched_getaffinity on another process"),
    "str_subclass_proc_path": ("integrity", "call", "/proc"),
    "chdir_then_list": ("integrity", "call", "may not change its working directory"),
    "stat_of_sibling_files": ("integrity", "call", "may not call os.stat on"),
    "sqlite_lock_on_dev_null": ("integrity", "call", "may not use sqlite3.connect"),
    # paths given as an os.PathLike of the submission's own class (the open event and the path
    # readers carry the object as given), and native code loaded under a str-subclass origin
    "pathlike_reads_parent_command_line": ("integrity", "call", "a path given as an object of its own class"),
    "pathlike_stat_of_sibling_folder": ("integrity", "call", "a path given as an object of its own class"),
    "native_copy_str_subclass_origin": ("integrity", "call", "may not load the native module"),
    "socket_module_copied_by_file": ("integrity", "call", "second copy of the module"),
    # what torch's helpers do for whoever asks: set the collector's debug flags from a gc callback
    # (refused there; the monitor stays whole and sees torch.relu), start a thread in torch's pool,
    # start a profiler session
    "gc_debug_set_by_torch_callback": ("integrity", "exe", "torch_fallback"),
    "thread_started_by_torch_pool": ("integrity", "call", "only on Triton's launch path"),
    # Triton's compiler module calling whatever it is handed (LazyDict.get): a shell, and C built and
    # loaded by Triton's helper, on what passed for Triton's launch path
    "shell_through_lazydict": ("integrity", "call", "while calling back something the submission handed it"),
    "native_build_through_lazydict": ("integrity", "call", "while calling back something the submission handed it"),
    "grid_async_compile_thread": ("integrity", "call", "of Triton's own functions only those Triton itself hands back"),
    "grid_test_runner_shell": ("integrity", "call", "of Triton's own functions only those Triton itself hands back"),
    "prerun_hook_amd_codegen_loader": ("integrity", "call", "the pre-run hook Triton would call is a function, not a Python"),
    "lazydict_test_runner_shell": ("integrity", "call", "called triton/_test_runner.py (_run), which asked for it"),
    "lazydict_knobs_tool_shell": ("integrity", "call", "called triton/knobs.py (from_path), which asked for it"),
    # trampolines: Triton's and torch's code that calls whatever it is handed (the code generator's
    # _check(cond, msg_fn), torch's call_user_defined_fn), a finalizer running such a chain between
    # calls, and the remote cache's _materialize putting the submission's bytes as Triton's own
    "trampoline_check_shell": ("integrity", "call", "asked for it on a line that names no such call"),
    "trampoline_check_thread": ("integrity", "call", "asked for it on a line that names no such call"),
    "trampoline_check_native_build": ("integrity", "call", "(compile_module_from_src), which asked for it, without naming it"),
    "torch_user_fn_shell": ("integrity", "call", ("asked for it on a line that names no such call",
                                                  "asked for it while calling back something the submission handed it")),
    "torch_user_fn_native_build": ("integrity", "call", ("(compile_module_from_src), which asked for it, without naming it",
                                                         "while calling back something the submission handed it")),
    "finalizer_trampoline_shell": ("integrity", "exe", "no_triton_launch"),
    "cache_put_through_materialize": ("integrity", "exe", "no_triton_launch"),
    # a third round: torch's SubprocessHandler made by a trampoline or a finalizer, torch's
    # load_library on the submission's library, torch's prefetch pool started through _check
    "trampoline_constructor_shell": ("integrity", "call", "without naming it"),
    "finalizer_constructor_shell": ("integrity", "exe", "no_triton_launch"),
    "trampoline_load_library_native": ("integrity", "exe", "no_triton_launch"),
    "finalizer_load_library_native": ("integrity", "exe", "no_triton_launch"),
    "trampoline_torch_pool_thread": ("integrity", "call", "(prefetch), which asked for it, without naming it"),
    # a fourth: torch's Triton kernel wrapper calling self.kernel.run, a run of torch's that runs a
    # shell, or Triton's warm-up dispatcher's _submit starting a thread through AsyncCompileMode
    "torch_wrapper_kernel_run_shell": ("integrity", "call", "while calling back something the submission handed it"),
    "torch_wrapper_warmup_thread": ("integrity", "call", "while calling back something the submission handed it"),
    # a fifth: the C-level environment changed by os.putenv, and os.environ's own encodekey remapping
    # what Triton's os.getenv reads, each with the mapping the launch check reads left as it was
    "putenv_ptxas_script": ("integrity", "call", "may not call os.putenv"),
    "environ_encodekey_remaps_tool": ("integrity", "call", "os.environ, its class or its own attributes were replaced"),
    # a sixth: a compiler variable set through os.environ and then deleted from its mapping alone,
    # and the ptxas knob's descriptor given a default path of the submission's (the attack catches
    # the refusal and raises its own error: the refusal is in the detail)
    "environ_data_edited_in_place": ("integrity", "call", "may not set or unset TRITON_PTXAS_PATH in the environment"),
    "knob_descriptor_default_path": ("error", "call", "triton.knobs changed since the import"),
    # traceback's walker drained by traceback's code for a subclass's override, which keeps the frames
    "stacksummary_subclass_keeps_frames": ("integrity", "call", "tb_frame"),
    "profiler_toggled_through_torch": ("integrity", "call", "profiler session"),
    # TorchScript's and NNC's native runners: refused, and the fusers off before the import
    "torchscript_fuser_relu": ("integrity", "call", "may not call torch._C._jit_"),
    "static_runtime_relu": ("integrity", "call", "may not call torch._C._jit_to_static_module"),
    "nnc_ir_evaluator_relu": ("integrity", "call", "may not call torch._C._te.construct_codegen"),
    "torchscript_fusers_left_on": ("error", "call", "TorchScript's fusers are off in the worker"),
    # the cap on its GPU memory lifted through the allocator's settings (on a GPU, the public setter
    # and a hog at perf sizes too: test_a_submission_cannot_take_the_gpu_memory_its_judge_needs)
    "gpu_memory_limit_lifted": ("integrity", "call", "the harness caps the GPU memory"),
    # values computed on the host and uploaded as a tensor built from a list (more such tasks below:
    # test_outputs_rearranged_by_torch_or_computed_on_the_host_are_refused)
    # (on a GPU its reading the input back is refused first)
    "host_values_uploaded": ("integrity", None, ("bytes of tensors built from host data in one call", "host<->device")),
    # an operand's own attribute hiding torch.Tensor's untyped_storage, which the op monitor reads
    # of every operand: PyTorch compute inside the monitor, where no mode watches (a lambda; a chain
    # of builtins that starts no Python frame)
    "relu_storage_attr_inside_monitor": ("integrity", None, "hides torch.Tensor's"),
    "relu_builtin_chain_in_dispatch": ("integrity", None, "hides torch.Tensor's"),
    # an autotune pruner returning copies of its configs: every pin ran the first config, and the
    # wrong one (BLOCK=128) was never checked; now each runs and the wrong one is found
    "relu_pruned_copies_hide_config": ("wrong", "exe", "BLOCK=128"),
    # a later config's calls answered from what the first config returned for the same values:
    # each config's pass is given values of its own, so the wrong config is found
    "autotune_config_answered_from_cache": ("wrong", "exe", "BLOCK=128"),
    # blinding the monitors or forging their counts
    "blind_thread": ("integrity", "call", "start_"),
    "blind_dispatch": ("integrity", "call", "_DisableTorchDispatch"),
    "reach_dispatch_mode": ("integrity", "call", "_get_current_dispatch_mode"),
    "grid_callable_torch": ("integrity", "exe", "torch_fallback"),
    # no closure holds the launch counter any more (the stand-ins reach it through the guard's hook):
    # the count stays at zero
    "forge_launch_count": ("integrity", "exe", "no_triton_launch"),
    # a launch whose grid is empty runs no program and counts as none in CPU mode, also when the
    # submission tells the interpreter a program started; natively the GPU trace finds no kernel of
    # the submission's run for the launch counted (the judge checks that before the op monitor's findings)
    "empty_grid_beside_numpy_work": ("integrity", None, ("no_triton_launch", "gpu_trace")),
    "empty_grid_program_start_forged": ("integrity", None, ("no_triton_launch", "gpu_trace")),
    # PyTorch work on a native thread of its own pool (TorchScript's fork), under the dispatch state
    # of import or of an earlier call; and the monitor reached through a frame-evaluation callback
    "jit_fork_native_thread": ("integrity", "call", "native thread(s) of PyTorch's task pool"),
    "jit_fork_fed_in_later_calls": ("integrity", None, "native thread(s) of PyTorch's task pool"),
    "eval_frame_callback_clears_monitor": ("integrity", "call", "set_eval_frame with a callback"),
    # a result torch.save cannot write (a sub-byte dtype) is the submission's mismatch, not tampering
    "sub_byte_dtype_output": ("wrong", None, "a tensor of dtype torch.int1"),
    # code of the submission's run after the monitors stop, or work they allow one element at a time
    "tensor_subclass_output": ("integrity", "call", "torch.Tensor subclass"),
    "function_mode_left_active": ("integrity", "call", "torch-function mode"),
    "exclude_python_key": ("integrity", "call", "_dispatch_tls_set_dispatch_key_excluded"),
    "scalar_loop": ("integrity", ("call", "exe"), "element-wise work on the host"),
    # native code through a library's helper (where no C compiler is installed, it cannot build at all)
    "native_through_triton_build": (("integrity", "error"), "call", ("Triton's launch path", "C compiler")),
    # what Triton calls back or runs on the submission's behalf: only Python code of its own file,
    # and compilers named by the environment as it was before the import
    "callback_partial_exec": ("integrity", "call", "not a Python function of the submission's file"),
    "callback_library_function": ("integrity", "call", "not a Python function of the submission's file"),
    "compiler_from_environment": ("integrity", "call", ("the environment changed since the import (CC)",
                                                        "may not set or unset CC in the environment")),
    # the worker's saving and the parent's reading of a call's tensors stay cheap
    # (its later calls return views of what its first call made: memory held before the call)
    "many_tiny_outputs": (("error", "integrity"), ("call", "exe"), ("more than 10000 values",
                                                                     "memory held before the call")),
    # results replaced while the harness saves or reads them: a pickling rule of copyreg's, a
    # storage-location tagger of torch.serialization's (the harness saves by the rules and taggers
    # of before the import, so the kernel's zeros are judged), a kernel of PyTorch's own operators
    # registered through torch.library (refused)
    "pickle_rule_forges_outputs": ("wrong", None, "all zeros"),
    "storage_tagger_forges_outputs": ("wrong", None, "all zeros"),
    # ... and a garbage-collector callback run after the monitors stop (nothing is collected
    # between a call and the saving of its result; and since 2026-12-07 a callback registered at
    # all is tampering, found at the first check after it)
    "gc_callback_forges_outputs": ("integrity", None, "garbage-collector callback"),
    # the live op monitor taken by swapping, from a gc callback's torch mode, the name of its base
    # class in the harness module's globals for the moment the next monitor is built (the base is a
    # class attribute now, and the callback is found at import)
    "monitor_taken_via_integrity_globals": ("integrity", None, ("garbage-collector callback", "torch_fallback")),
    "register_aten_kernel": ("integrity", "call", "register kernels into PyTorch's operator namespace 'aten'"),
    # ... and hooks in state the harness's code reads after the call (torch.save's thread-local
    # flags, builtins.__import__, a knobs entry whose metaclass answers __module__): they run, but
    # find the tensors the call returned, not the harness's copy, so the kernel's zeros are judged
    "fix_up_in_serialization_state": ("wrong", None, "all zeros"),
    # (with Python 3.12's watch of the submission's code, its __import__ is refused when torch calls it
    # back from a conversion inside the harness's own code: an error rather than the zeros judged)
    # (and since session 24 the inputs are drawn inside the code barrier too, where an import the
    # draw makes runs it first)
    "fix_up_in_builtin_import": (("wrong", "error", "integrity"), None,
                                 ("all zeros", "dispatch hooks are off", "ran while the harness was saving",
                                  "ran while the harness was drawing the inputs")),
    "fix_up_in_knobs_check": ("wrong", None, "all zeros"),
    "replace_os_environ": ("integrity", "call", "os.environ, its class or its own attributes were replaced"),
    "fix_up_from_signal_handler": ("integrity", "call", "may not call signal"),
    "launch_check_globals_replaced": ("integrity", "call", ("launch_check.COMPILER_ENV_NAMES",
                                                            "may not set or unset CC in the environment")),
    # PyTorch work below the monitor: an operator of the submission's own library named like a copy,
    # a tensor subclass's __torch_dispatch__, the scalar-op limit cleared through the class
    # (Python 3.12+: refused as soon as the op's Python code starts with the dispatch hooks off)
    "custom_op_named_like_copy": ("integrity", ("call", "exe"), ("kbxevil::clone", "dispatch hooks are off")),
    # (since session 24 the operand of a subclass is refused before its handler is reached)
    "subclass_dispatch_below_monitor": ("integrity", ("call", "exe"), ("__torch_dispatch__", "dispatch hooks are off",
                                                                        "torch.Tensor subclass")),
    "scalar_limit_cleared": ("integrity", ("call", "exe"), "element-wise work on the host"),
    # torch's data constructors convert values with the Python dispatch key off: a __float__ of the
    # submission's ran PyTorch unseen, and a list of 0-d tensors was read back to the host unseen
    "constructor_callback_blinds_monitor": ("integrity", "call", "build a tensor from a value of type"),
    "sparse_index_callback_blinds_monitor": ("integrity", "call", "build a tensor from a value of type"),
    # torch helpers that name a dispatch-disabling primitive on their own line, then hand control back
    "dispatch_off_through_torch_helper": ("integrity", "call", "turns the harness's monitor off"),
    "dispatch_off_in_fake_kernel_invocation": ("integrity", "call", "turns the harness's monitor off"),
    "constructor_reads_inputs_back": ("integrity", "call", "tensors inside a list"),
    # text the parent prints and writes: lone surrogates in an error message
    "lone_surrogate_error": ("error", "call", "lone surrogate"),
    # a storage over a raw address (where the harness's copies of results live)
    "storage_from_address": ("integrity", "call", "_construct_storage_from_data_pointer"),
    # the jiterator reached through torch's own wrapper (the submission never calls the primitive);
    # a CPU build of torch has no jiterator at all (CI's), where the call is an error and no more
    "jiterator_through_torch_wrapper": (("integrity", "call", "torch.cuda.jiterator compiles and launches")
                                        if hasattr(torch._C, "_cuda_jiterator_compile_and_launch_kernel")
                                        else ("error", "call", "_cuda_jiterator_compile_and_launch_kernel")),
    "memory_outside_the_limit": ("integrity", "call", "memfd_create"),
    "fds_in_flight": ("integrity", "call", "socketpair"),
    "pipe_buffers": ("integrity", "call", "os.pipe"),
    # torch's tensor printing takes the monitor off the stack and can call the submission back
    "printing_runs_code_unseen": ("integrity", "call", ("_disable_current_modes", "monitor is off the dispatch stack")),
    "apply_per_element": ("integrity", "call", "torch.Tensor.apply_"),
    "operator_handler_pops_monitor": ("integrity", "call", "_pop_mode_temporarily"),
    # callables with no Python frame of their own (functools.partial, map over a builtin) act with
    # the authority of whichever frame calls them: as a pre-run hook or autotune hook (refused by the
    # launch check, whose state no closure holds any more), as a dunder method a library calls
    # (sys._getframe from Triton's frame), as a finalizer run when the harness drops an input
    "pre_run_hook_builtin": ("integrity", "call", "pre-run hook Triton would call is a partial"),
    "cell_disarm_then_rebind": ("integrity", "call", "not a Python function of the submission's file"),
    "dunder_gadget_reads_frames": ("integrity", "call", "asked for it while the submission is running"),
    "finalizer_gadget_reads_frames": ("integrity", "exe", "no_triton_launch"),
    "forge_launch_event": ("integrity", "call", "launch event raised outside Triton's launch path"),
    # ... and as a standard-library function a torch module calls as it is imported (libraries may
    # take frames then): no module is imported while something the submission rebound could be called
    "import_runs_rebound_gadget": ("integrity", "call", "after the submission rebound functools.wraps"),
    # a loader's get_source, a callable with no frame of its own, run by linecache as torch formats
    # the stack on one of the lines allowed to take frames (torch.manual_seed before CUDA starts):
    # the frames it took emptied the op monitor's findings (exe ok with torch.relu before); now only
    # the line itself or the traceback module's walkers may take frames there, the gadget's refusal
    # is swallowed by linecache, and the monitor sees torch.relu
    "loader_gadget_on_frame_taking_line": ("integrity", "exe", "torch_fallback:relu"),
    # the names such a line calls rebound for one call (traceback.format_stack, or walk_stack one step
    # in), so the gadget ran as the line itself: exe ok with torch.relu at ef7ecd7; now the line may
    # take frames only while the module snapshot finds nothing rebound
    "rebind_format_stack": ("integrity", "exe", "torch_fallback:relu"),
    "rebind_walk_stack": ("integrity", "exe", "torch_fallback:relu"),
    # ... or an object that line calls swapped (torch's queue of lazy calls, a list; its seed tracker,
    # an instance: bindings the snapshot does not watch) for one whose method is such a gadget: exe ok
    # with torch.relu at 54a0046; now frames are taken there only at the line's frame-taking instruction
    "swapped_queue_on_frame_taking_line": ("integrity", "exe", "torch_fallback:relu"),
    "swapped_seed_tracker_on_frame_taking_line": ("integrity", "exe", "torch_fallback:relu"),
    # ... or a finalizer with no frame of its own, run by a collection tuned to start while such a line
    # is at that instruction (exe ok at 54a0046): the lazy-call stacks are not formatted in workers,
    # and the remaining lines take frames only while no collection is running
    "finalizer_gadget_on_frame_taking_line": ("integrity", "exe", "torch_fallback:relu"),
    # code the guard ran unawares inside its own check (a collection started by its allocations ran a
    # finalizer; a str subclass as a code object's file name was hashed), where every audited event
    # passed as the guard's own lookup (exe ok at 54a0046)
    "finalizer_inside_guard_check": ("integrity", "exe", "torch_fallback:relu"),
    "str_subclass_file_name": ("integrity", "exe", "torch_fallback:relu"),
    # the collector's DEBUG_SAVEALL flag: unreachable objects, a finished frame among them, kept in
    # gc.garbage with no audit event (exe ok at d9f994e); gc.set_debug goes to library callers only
    "collector_keeps_frames": ("integrity", "exe", "torch_fallback:relu"),
    "fresh_gc_keeps_frames": ("integrity", "call", "second copy of the module 'gc'"),
    "reloaded_gc_keeps_frames": ("integrity", "call", "second copy of the module 'gc'"),
    # torch's open table of per-(operator, mode class) dispatch rules: a rule for the monitor's class
    # ran torch.relu unseen, or was handed the monitor (exe ok at 17b6501); the worker seals the lookup
    "dispatch_rule_for_monitor": ("integrity", "exe", "torch_fallback:relu"),
    "dispatch_rule_hands_monitor": ("integrity", "exe", "torch_fallback:relu"),
    # a torch function that returns the dispatch-mode stack handed over the monitor (exe ok at 17b6501)
    "library_returns_mode_stack": ("integrity", "exe", "torch_fallback:relu"),
    # a closure cell of the launch counter's context manager, swapped: the counter handed itself to
    # the submission, which forged launches (exe ok with no kernel at 17b6501)
    "launch_counter_from_closure_cell": ("integrity", "exe", "torch_fallback:relu"),
    # an operator object in torch.ops replaced by one dressed as aten::clone that runs torch.relu: the
    # monitor read its claimed name and called it (exe ok at e3ca179); now known by identity only
    "forged_operator_object": ("integrity", "exe", "not PyTorch's"),
    # relu computed by an allowed copy_ into a quint8 tensor, whose kernel rounds and clamps (exe ok at
    # 3442f99): allowed ops on quantized, non-strided, negated or conjugated tensors are compute
    # (natively the attack's host tensors are refused as kernel arguments first)
    "quantized_copy_clamps": ("integrity", None, ("quint8", "tensor in host memory")),
    # ... and relu from bytes read as other types (a float's sign byte, sign-extended by an int8 to
    # int16 copy, then an out-of-range float64 to int64 conversion as a select; exe ok at 61a7c99): a
    # view of another element size and a tensor set onto a storage are compute, and so is a float
    # truncated to an integer
    "bytes_reinterpreted_relu": ("integrity", None, ("read as torch.uint8", "tensor in host memory")),
    # ... and every refused step taken on a torch.Tensor subclass with no dispatch handler of its
    # own (as_subclass, an allowed alias), which the rules, reading plain tensors only, passed
    # unjudged (exe ok at d364e35): an operand of any subclass but Parameter is refused
    "relu_subclass_reinterpret": ("integrity", None, ("torch.Tensor subclass", "tensor in host memory")),
    # a builtin the monitor's rules call, rebound for the moment of one op: it answered the
    # subclass test wrongly and relu ran in the subclass's handler (exe ok at d364e35; on Python
    # 3.12 the swapped builtin may first be refused as code run with the dispatch hooks off)
    # the task module's `cases` replaced by a hook that computes the answers as the harness draws
    # the inputs (exe ok at 424dc51): the task module is watched, and the draw is checked and
    # barred to the submission's code; a finalizer installing the hook late meets either
    "task_module_hook_relu": ("integrity", "call", "rebinds _kbx_task_Activation_relu.cases at import"),
    "task_module_hook_from_finalizer": ("integrity", None, ("rebinds _kbx_task_Activation_relu.cases",
                                                            "while the harness was drawing the inputs")),
    # code run inside the monitor's handler, where no mode watches: a method hidden by a __dict__
    # of a dict subclass, a finalizer of a storage set_ replaces (each exe ok at 86d92ea)
    "tensor_dict_subclass_hides_method": ("integrity", None, "<a __dict__ of type OrderedDict>"),
    "storage_finalizer_inside_set": ("integrity", None, "torch_fallback:relu_"),
    "builtin_swapped_during_dispatch": ("integrity", None, ("builtins.any(rebound while the call ran",
                                                            "dispatch hooks are off")),
    # the submission's code run by torch.save inside the harness's saving of a call's outputs: a
    # flag's truth test that rebinds builtins the harness looks up next (the flags are the harness's
    # own during its saves: its empty kernel is then judged), a value in torch's configuration
    "exe_result_forged_in_save": (("wrong", "integrity"), None, ""),
    "config_planted_in_save": ("integrity", None, "ran while the harness was saving a call's outputs"),
    # ... from a module imported through a path spelled to start in torch's folder: whose code it is
    # is the guard hook's judgement (a barrier that read file names alone let it forge exe ok)
    "barrier_spelled_path_forges_save": ("integrity", None, "ran while the harness was saving a call's outputs"),
    # ... and from same-size views as complex32 and int64-to-float32 rounding, a mark on the view
    # laundered through a copy into a fresh buffer (exe ok at 25c7399)
    "casts_and_same_size_views_relu": ("integrity", None, ("read as torch.", "tensor in host memory")),
    # torch state the harness's own library calls read, planted with an object whose truth test is
    # a callable with no frame of its own that takes frames (torch.save's thread-local flag, a bool
    # every dispatch mode's __enter__ tests), run with no frame of the submission's on the stack:
    # the frames kept handed over the monitor (exe ok with torch.relu at 61a7c99); library frames
    # now take frames only by their own instruction, and only while a library module is imported
    # (torch.save now reads flags of the harness's own: the planted one is never tested)
    "planted_flag_in_save": ("integrity", None, ("torch_fallback", "library code around the submission's call")),
    "planted_flag_in_mode_enter": ("integrity", "call", "library code around the submission's call"),
    # ... and sys.stderr replaced for an import that warns, its write such a callable (exe ok at
    # 61a7c99): no import starts while a standard stream is the submission's object, so the monitor
    # sees the torch.relu that follows
    "stream_gadget_during_import": ("integrity", "exe", "torch_fallback:relu"),
    # ... and, during an import torch's tree_map started, a module __getattr__ compiled from a syntax
    # tree under a standard-library file name (its frames acted for torch), or a walk_stack generator
    # of the submission's resumed by traceback's own code from a functools.partial (exe ok at
    # a5a6b9e): such code is the submission's, and no generator's frame asks for itself
    "ast_code_named_like_stdlib": ("integrity", "exe", "torch_fallback:relu"),
    "walk_stack_resumed_during_import": ("integrity", "exe", "torch_fallback:relu"),
    # other processes' command lines (a seed among a run's arguments) read relative to a descriptor of
    # "/proc" (os.open's dir_fd is not in the audit event): no folder outside the job is opened
    "seed_from_process_list": ("integrity", "call", "open the folder /proc"),
    # a second interpreter, which no audit hook watches, cleared the monitor (exe ok at 4a1fd19)
    "subinterpreter_clears_monitor": ("integrity", "call", "native access"),
    # a harness dataclass's generated __init__ run with exec, then given the submission's code (it ran
    # on every call's result at ef7ecd7)
    "own_harness_dataclass_init": ("integrity", "call", "rebind __code__ of a library type or function"),
    # ... and as a hook of a config Triton's autotuner got from the submission's pruning function,
    # never checked, loading a library (native code): refused, since the autotuner called something
    # that is not Triton's own; a function given the code of the harness's launch stand-in
    # (Triton 3.7's interpreter asks for a GPU driver before it prunes: on a machine with no GPU the
    # hook is never reached there, and the launch fails first)
    "native_load_from_pruned_config": (("error", "integrity"), "call", ("called torch/_ops.py (load_library)",
                                                                        "0 active drivers ([])")),
    "code_of_the_launch_stand_in": ("integrity", "call", "give a function the code of integrity.py"),
    # a "libdevice" call naming a function the submission added to torch, or any torch function:
    # looked up by name and run with dispatch off, it did a whole task unseen; only the symbols
    # Triton's libdevice modules declare are evaluated (an unknown one would not link on a GPU;
    # natively, Triton 3.6's compiler refuses the dict literal of the call first: H100, 2026-12-07)
    "extern_name_added_to_torch": ("error", "exe", ("no libdevice function", "unsupported AST node type: Dict")
                                   if torch.cuda.is_available() else "no libdevice function"),
    "extern_torch_function_by_name": ("error", "exe", ("no libdevice function", "unsupported AST node type: Dict")
                                      if torch.cuda.is_available() else "no libdevice function"),
    # os.system as a finalizer, run as the harness drops an input (no submission frame on the stack):
    # refused, so its later calls find no trace of the command and return zeros (at b6fe8c6 it ran)
    "finalizer_spawns_process": ("wrong", None, ("all zeros", "elements differ")),
    # frames handed out through an exemption: a torch function draining traceback.walk_tb for the
    # submission; module code from a bytecode-only file that names torch's folder as its own
    "walk_tb_drained_by_torch": ("integrity", "call", "read .tb_frame"),
    "pyc_named_like_torch": ("integrity", "call", "as its file from SourcelessFileLoader"),
    "code_from_marshal": ("integrity", "call", "marshal.loads"),
    # ... a module path spelled through torch's folder; compiled code read from a cache folder of the
    # submission's (sys.pycache_prefix) for torch's own source file
    "path_spelled_into_torch": ("integrity", "call", "sys._getframe"),
    "pycache_prefix_forged_bytecode": ("integrity", "call", "sys.pycache_prefix set"),
    # ... a loader given code of the submission's (an instance attribute); source for a Triton helper
    # put into linecache for Triton's interpreter to rewrite and run
    # (on Python 3.12 its finder is found first: no import starts while one sits in sys.path_importer_cache)
    "loader_reads_code_of_its_own": ("integrity", "call", ("only a library's own source file may run",
                                                           "finder of its own")),
    # (natively Triton compiles the source it read when the function was decorated, so the route is
    # not there: launching tl.sigmoid's function as a kernel fails to compile, an error)
    "linecache_source_for_triton": (("error", "integrity") if torch.cuda.is_available() else "integrity", "call",
                                    "" if torch.cuda.is_available() else "that is not that file's"),
    # code generated from text the submission chose ("<string>", which acts for its caller): an entry
    # function from typing.ForwardRef, one from a dataclass field name; generated code the
    # submission runs now counts as the submission's
    "generated_entry_forwardref": ("integrity", "call", "_DisableTorchDispatch"),
    "generated_entry_dataclass_field": ("integrity", "call", "_DisableTorchDispatch"),
    # a library that calls what the submission hands it and returns the result (tree_map over the
    # stand-in): it would return an instance of the original
    "pytree_returns_original": ("integrity", "call", ("called it without naming it", "turns the harness's monitor off")),
    # a class attribute set raises no audit event: the harness's classes are immutable types
    "swap_monitor_method_briefly": ("error", "call", "immutable type 'TorchOpMonitor'"),
}

# The CLI's own peak: VmHWM, the high-water mark of this process image. Not getrusage's ru_maxrss,
# which Linux carries over an exec from the process that forked it (here pytest, whose size then
# depends on the tests that ran before: 534 MiB after test_perf, against the CLI's 353).
MEASURED_CLI = ("import runpy, sys\n"
                "sys.argv = ['kernelbenchx'] + sys.argv[1:]\n"
                "try:\n"
                "    runpy.run_module('harness.cli', run_name='__main__')\n"
                "finally:\n"
                "    with open('/proc/self/status') as status:\n"
                "        hwm = next(line.split()[1] for line in status if line.startswith('VmHWM:'))\n"
                "    print('peak_rss_kib', hwm, file=sys.stderr)\n")


def _edited(solution: str, edits: list[tuple[str, str]]) -> str:
    """A bundled solution (``solutions/<solution>``) with each ``old`` replaced by ``new`` (each must
    be found: a solution that changes under a variant fails it loudly)."""
    source = (ROOT / "solutions" / solution).read_text()
    for old, new in edits:
        if old is _APPEND:
            source += new
            continue
        assert old in source, (solution, old)
        source = source.replace(old, new)
    return source


_APPEND = object()  # an edit that adds its text at the end
_AUTOTUNED = '@triton.autotune(configs=[triton.Config({}, num_warps=4), triton.Config({}, num_warps=8)], key=["n"])\n'
_RAND_PERIOD = [("_MASK64 = (1 << 64) - 1\n", "_MASK64 = (1 << 64) - 1\n_CALLS = 0\n"),
                ('        seed = int.from_bytes(os.urandom(8), "little")  # fresh entropy for every call',
                 "        global _CALLS\n        _CALLS += 1\n        seed = _mix64(1234567 + _CALLS % PERIOD)")]
_DROPOUT_SEED = '        seed = int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF'

_CACHE_WRAPPER = """

_kept = {{}}


def _fingerprint(t):
    if not isinstance(t, torch.Tensor):
        return repr(t)
    flat = t.reshape(-1)
    picks = tuple(flat[(i * 2654435761) % flat.numel()].item() for i in range(32)) if flat.numel() else ()
    return tuple(t.shape), tuple(t.stride()), str(t.dtype), picks


def {entry}(*args, **kwargs):
    out = kwargs.get("out")
    key = (tuple(_fingerprint(a) for a in args), tuple((k, _fingerprint(v)) for k, v in sorted(kwargs.items()) if k != "out"),
           None if out is None else (tuple(out.shape), str(out.dtype)))
    if key in _kept:
        return _kept[key] if out is None else out.copy_(_kept[key])
    result = _honest_{entry}(*args, **kwargs)
    if len(_kept) < 256:
        _kept[key] = result.clone()
    return result
"""


def _two_set_cache(solution: str, definition: str) -> tuple[str, list]:
    """The bundled solution of ``solution`` whose entry (``definition``, its ``def`` line) answers
    from results kept under 32 sampled values of each input, and runs the solution otherwise."""
    entry = definition.split("(", 1)[0].removeprefix("def ")
    return solution, [(definition, definition.replace(f"def {entry}(", f"def _honest_{entry}(")),
                      (_APPEND, _CACHE_WRAPPER.format(entry=entry))]


# submissions that are a bundled solution with an edit, by name
SOLUTION_EDITS = {
    # an input returned as the result because it holds the answer (the identity permutation), and
    # the caller's gradient handed back as a new momentum buffer it equals
    "alias_identity_permute_copy": ("Index/permute_copy.py", [
        ("def permute_copy(input: torch.Tensor, dims) -> torch.Tensor:",
         "def _real_permute_copy(input: torch.Tensor, dims) -> torch.Tensor:"),
        (_APPEND, "\n\ndef permute_copy(input, dims):\n    n = input.dim()\n"
         "    if input.is_contiguous() and [d % n if n else d for d in dims] == list(range(n)):\n"
         "        _real_permute_copy(input, dims)  # a launch, its result dropped\n"
         "        return input\n    return _real_permute_copy(input, dims)\n")]),
    "alias_sgd_buffer_is_grad": ("Optimizer/SGD.py", [
        ("def sgd_step(", "def _real_sgd_step("),
        (_APPEND, "\n\ndef sgd_step(param, grad, momentum_buffer=None, lr=0.1, momentum=0.9, weight_decay=0.0, "
         "dampening=0.0,\n             nesterov=False):\n"
         "    param, buf = _real_sgd_step(param, grad, momentum_buffer, lr, momentum, weight_decay, dampening, nesterov)\n"
         "    if momentum_buffer is None and buf is not None and dampening == 0.0 and weight_decay == 0.0 and not nesterov:\n"
         "        return param, grad\n    return param, buf\n")]),
    # a seed cycling through five values; a counter that repeats in each autotune config's pass
    "rand_seed_period5": ("Random/rand.py", [(old, new.replace("PERIOD", "5")) for old, new in _RAND_PERIOD]),
    "rand_repeats_across_config_passes": ("Random/rand.py", [(old, new.replace("PERIOD", "17")) for old, new in _RAND_PERIOD]
                                          + [('@triton.jit(do_not_specialize=["seed"])',
                                              _AUTOTUNED + '@triton.jit(do_not_specialize=["seed"])')]),
    "dropout_repeats_across_config_passes": ("Fusion/fused_hardshrink_dropout.py", [
        ("import os\n", "import os\n_CALLS = 0\n"),
        ('@triton.jit(do_not_specialize=["seed", "p", "scale", "lambd"])',
         _AUTOTUNED + '@triton.jit(do_not_specialize=["seed", "p", "scale", "lambd"])'),
        (_DROPOUT_SEED, "        global _CALLS\n        _CALLS += 1\n"
                        "        seed = (0x9E3779B1 * (1 + _CALLS % 20)) & 0x7FFFFFFF")]),
    # a dropout mask fresh in its first 4,096 elements only
    "dropout_fixed_mask_past_prefix": ("Fusion/fused_hardshrink_dropout.py", [
        ("        r = tl.rand(seed, offs)", "        r = tl.rand(tl.where(offs < 4096, seed, 0x1234567), offs)")]),
    # a tuple out= filled, but fresh clones returned instead of its tensors (torch.min returns them)
    "min_gelu_tuple_out_not_returned": ("Reduce/min_gelu.py", [(
        "    if out is not None and not direct:\n        return _write_into(out_v, values), _write_into(out_i, indices)",
        "    if out is not None:\n        if not direct:\n            _write_into(out_v, values), _write_into(out_i, indices)\n"
        "        return values.clone(), indices.clone()")]),
    # honest: x ** 0 answered with a fill and no launch (every expected output is one value)
    "pow_exponent_zero_filled": ("Math/pow.py", [(
        "def pow(input_tensor: torch.Tensor, exponent, out=None) -> torch.Tensor:\n",
        "def pow(input_tensor: torch.Tensor, exponent, out=None) -> torch.Tensor:\n"
        "    if not isinstance(exponent, torch.Tensor) and exponent == 0 and out is None:\n"
        "        return torch.ones_like(input_tensor)\n")]),
    # honest: the float results made in float64, then cast
    "logspace_float64_then_cast": ("Random/logspace.py", [
        ("    out = torch.empty(steps, dtype=dtype, device=device)",
         "    wide = torch.float64 if dtype.is_floating_point else dtype\n"
         "    out = torch.empty(steps, dtype=wide, device=device)"),
        ("        acc = tl.float64 if dtype == torch.float64 else tl.float32",
         "        acc = tl.float64 if wide == torch.float64 else tl.float32"),
        ("    if requires_grad:\n        out.requires_grad_(True)",
         "    if out.dtype != dtype:\n        out = out.to(dtype)\n    if requires_grad:\n        out.requires_grad_(True)")]),
    # perf: results kept under 32 sampled input values and returned when those come again (the two
    # input sets of a task whose integer inputs were timed as drawn: 46x in CPU mode)
    "two_set_cache_integer_inputs": _two_set_cache(
        "Math/bitwise_and.py", "def bitwise_and(input: torch.Tensor, other, out: torch.Tensor = None) -> torch.Tensor:"),
    # ... of tasks whose structured inputs were timed as drawn (PERF_MIX): a weighted mean of the sets
    # (Hermitian positive-definite), and each value where it was (upper triangular)
    "two_set_cache_convex_inputs": _two_set_cache("LinearAlgebra/cholesky.py", "def cholesky(A, upper=False, out=None):"),
    "two_set_cache_in_place_inputs": _two_set_cache("LinearAlgebra/solve_and_add_scaled_vector.py",
                                                    "def solve_and_add_scaled_vector(A, b, y, alpha):"),
    # perf: the minimum of two known input sets' coin mix found by a few probes (defended since the
    # task's inputs are rotated into values no call has seen: test_caches_of_inputs_seen_before_gain_nothing)
    "mixed_inputs_min_probe": ("Reduce/min_gelu.py", [
        ("def min_gelu(input, dim=None, keepdim=False, approximate='none', out=None):",
         "def _honest_min_gelu(input, dim=None, keepdim=False, approximate='none', out=None):"),
        (_APPEND, "\n\n" + (ADVERSARIAL / "mixed_inputs_min_probe.py").read_text())]),
    # honest: the out= pair filled and returned itself where the reference returns new tensors
    "gelu_min_returns_out_pair": ("Fusion/fused_gelu_min.py", [(
        "        out[1].copy_(indices)\n    return values, indices",
        "        out[1].copy_(indices)\n        return out[0], out[1]\n    return values, indices")]),
}


def _source(name: str) -> str:
    if name in SOLUTION_EDITS:
        return _edited(*SOLUTION_EDITS[name])
    if name == "deep_expression":  # generated: 60 kB of `1 + 1 + ...` nests past the parser's limit
        return "x = " + "1 + " * 15_000 + "1\n"  # (under the 64,000 characters the parent parses at most)
    if name == "honest":
        return (ROOT / "solutions" / "Activation" / "relu.py").read_text()
    if name in ("fresh_gc_keeps_frames", "reloaded_gc_keeps_frames"):
        # the collector's debug flag set through a second copy of the `gc` module (made from its
        # definition, or run again into it by a reload), which holds the original gc.set_debug, not
        # the harness's stand-in: exe ok with torch.relu before (from a red-team helper)
        kept = _source("collector_keeps_frames")
        second = ("_gc = importlib.util.module_from_spec(importlib.util.find_spec('gc'))\n"
                  if name == "fresh_gc_keeps_frames" else "importlib.reload(gc)\n_gc = gc\n")
        edited = kept.replace("import gc\n", "import gc\nimport importlib\nimport importlib.util\n" + second, 1) \
            .replace("gc.set_debug(", "_gc.set_debug(")
        assert edited.count("_gc.set_debug(") == 2
        return edited
    if name == "rand_pool_copied":  # the pool's slice copied (fresh memory) rather than returned as a view
        copied = _source("rand_pool_at_import").replace("    return _take(math.prod(size), dtype).view(size)\n",
                                                        "    return _take(math.prod(size), dtype).view(size).clone()\n")
        assert copied != _source("rand_pool_at_import")
        return copied
    if name == "rand_pool_resized_unread":  # the resized pool's slice returned, the launch on a buffer of its own
        unread = _source("rand_pool_resized").replace("    _noop[(1,)](res, 0, BLOCK=16)\n",
                                                      "    _noop[(1,)](torch.empty(16, device=res.device), 0, BLOCK=16)\n")
        assert unread != _source("rand_pool_resized")
        return unread
    return (ADVERSARIAL / f"{name}.py").read_text()


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def attack_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("adversarial")
    Path("/dev/shm", ESCAPE_MARKER).unlink(missing_ok=True)  # left by an unconfined run elsewhere
    Path("/tmp/kbx-outside-5b1f").unlink(missing_ok=True)
    rows = [{"file": "Activation/relu.py", "predict": _source(name), "sample_id": i} for i, name in enumerate(EXPECTED)]
    rows.append({"file": "Activation/relu.py", "predict": (ROOT / "solutions" / "Activation" / "relu.py").read_text(),
                 "sample_id": len(rows)})
    preds = write_jsonl(tmp / "preds.jsonl", rows)
    out = tmp / "out"
    scratch = tmp / "scratch"  # the run's own temporary folders (its jobs' scratch root): all removed at its end
    scratch.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KBX_TEST_SECRET": SECRET, "TMPDIR": str(scratch)}
    proc = subprocess.run([sys.executable, "-c", MEASURED_CLI, "eval", str(preds), "--out", str(out), "--timeout", STAGE_TIMEOUT],
                          capture_output=True, text=True, timeout=900, cwd=ROOT, env=env)
    time.sleep(0.5)  # anything still alive now has outlived the run
    survivors = _processes_with(ESCAPE_MARKER)
    peak = int(proc.stderr.rsplit("peak_rss_kib", 1)[1].split()[0]) if "peak_rss_kib" in proc.stderr else None
    metrics = json.loads((out / "metrics.json").read_text()) if (out / "metrics.json").exists() else []
    return {"proc": proc, "metrics": {m["sample_id"]: m for m in metrics}, "out": out, "survivors": survivors,
            "peak_kib": peak, "scratch": scratch}


def test_run_ends_normally(attack_run):
    proc = attack_run["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(attack_run["metrics"]) == len(EXPECTED) + 1
    assert all(m["verdict"] != "harness_error" for m in attack_run["metrics"].values())


@pytest.mark.parametrize("name", list(EXPECTED))
def test_attack_gets_its_verdict(attack_run, name):
    verdict, stage, phrase = EXPECTED[name]
    rec = attack_run["metrics"][list(EXPECTED).index(name)]
    assert rec["verdict"] in (verdict if isinstance(verdict, tuple) else (verdict,)), rec
    stages = stage if isinstance(stage, tuple) else ((stage,) if stage else ("call", "exe"))
    detail = "".join(rec[s]["detail"] for s in stages)
    assert any(p in detail for p in (phrase if isinstance(phrase, tuple) else (phrase,))), detail
    assert not rec["exe_ok"]


def test_run_writes_its_reports_and_leaves_nothing_behind(attack_run):
    """Whatever the jobs left in their directories (a deep folder chain, locked folders), the run
    writes its reports, removes every job's directory and its scratch root, and has nothing to
    report as left behind."""
    summary = json.loads((attack_run["out"] / "summary.json").read_text())
    assert "left_behind" not in summary, summary["left_behind"]
    assert (attack_run["out"] / "metrics.json").exists()
    # (the trusted baseline's torch.compile caches go there too: torchinductor_<user>)
    assert [name for name in os.listdir(attack_run["scratch"]) if name.startswith("kbx-")] == []


def test_correct_solution_beside_the_attacks_passes(attack_run):
    assert attack_run["metrics"][len(EXPECTED)]["verdict"] == "ok"


def test_parent_environment_never_reaches_the_results(attack_run):
    for name in ("metrics.json", "summary.json", "journal.jsonl"):
        assert SECRET not in (attack_run["out"] / name).read_text()
    assert SECRET not in attack_run["proc"].stdout


def test_terminal_output_carries_no_control_characters(attack_run):
    printed = attack_run["proc"].stdout
    assert "\x1b" not in printed and "\r" not in printed
    assert "all 81 jobs passed" in printed  # shown, escaped


def test_detached_process_dies_and_writes_nothing_outside(attack_run):
    assert attack_run["survivors"] == []
    assert not Path("/dev/shm", ESCAPE_MARKER).exists()
    assert not Path("/tmp/kbx-outside-5b1f").exists()


def test_parent_memory_stays_bounded(attack_run):
    assert attack_run["peak_kib"] is not None
    assert attack_run["peak_kib"] < PARENT_PEAK_MIB * 1024, attack_run["peak_kib"] // 1024


def test_nothing_at_import_time_holds_the_seed(tmp_path):
    """The run's seed (and so every input) reaches the worker only after the submission's import:
    a submission that searches its job files, argv, environment and command channel at import
    finds it nowhere."""
    seed = "918273645"
    rows = [{"file": "Activation/relu.py", "predict": _source(name), "sample_id": i}
            for i, name in enumerate(("seed_at_import", "forge_seed"))]
    preds = write_jsonl(tmp_path / "preds.jsonl", rows)
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q",
                           "--seed", seed, "--no-perf"], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    search, forge = sorted(json.loads((tmp_path / "out" / "metrics.json").read_text()), key=lambda m: m["sample_id"])
    detail = search["call"]["detail"]
    assert "found at import:" in detail and detail.rstrip().endswith("END"), detail  # all of it
    assert "stdin: nothing" in detail and "env: [" in detail and "submission.py" in detail  # it did look
    assert seed not in detail and search["verdict"] == "error"
    # a forged `inputs` command on a swapped sys.stdin is never read: the honest kernel inside is
    # judged on the parent's inputs and passes (on seed 0's inputs it would be judged wrong)
    assert forge["verdict"] == "ok", (forge["call"], forge["exe"])


PLANTED = "kbx-planted-6c0d"  # in each file a worker must not read


def _plant_host_files(tmp: Path) -> dict[str, Path]:
    """A parent temp dir and home of their own (as ``$TMPDIR`` and ``$HOME``) side by side in
    ``tmp``, each hidden by its own rule, holding what a machine's would: another run's journal, a
    token; the run's predictions and output folder beside them (hidden as the run's own); and a
    decoy journal where nothing is hidden."""
    folders = {name: tmp / name for name in ("tmp", "home", "decoy")}
    for folder in folders.values():
        folder.mkdir()
    other_run = folders["tmp"] / "kbx-run-other"
    other_run.mkdir()
    (other_run / "journal.jsonl").write_text(json.dumps({"seed": 555000111, "note": PLANTED}) + "\n")
    token = folders["home"] / ".cache" / "huggingface" / "token"
    token.parent.mkdir(parents=True)
    token.write_text(f"hf_{PLANTED}\n")
    (folders["decoy"] / "journal.jsonl").write_text(json.dumps({"seed": 1, "decoy": True}) + "\n")
    return folders


@pytest.mark.skipif(landlock_abi() == 0, reason="kernel without Landlock: the guard alone refuses reads, of the "
                                                "harness's and the run's own files only (the temp dir and home "
                                                "are hidden natively)")
def test_host_files_are_hidden_at_import(tmp_path):
    """A submission that, at import, searches the folders above its job directory and the user's
    home for journals (the run's own names the seed), the predictions (other submissions' code) and
    tokens reads none of them: the parent's temp dir and home, the run's output folder and its
    prediction files are hidden from the worker (at 61a7c99 it read them all). It does read the
    decoy left where nothing is hidden, so the search itself works."""
    seed = "918273647"
    tmp_path = tmp_path.resolve()  # as the worker's working directory names it
    folders = _plant_host_files(tmp_path)
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"file": "Activation/relu.py", "predict": _source("host_files_at_import"),
                                                    "note": PLANTED}])
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q",
                           "--seed", seed, "--no-perf"], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(folders["tmp"]),
                               "HOME": str(folders["home"])})
    assert proc.returncode == 0, proc.stderr[-3000:]
    [record] = json.loads((tmp_path / "out" / "metrics.json").read_text())
    detail = record["call"]["detail"]
    assert "found at import:" in detail and detail.rstrip().endswith("END"), detail  # all of it
    assert "+reads" in record["info"]["sandbox"], record["info"]
    # every layer named whole (the level was once cut at 40 characters: "...+frozen+ru")
    assert set(record["info"]["sandbox"].split("+")[1:]) <= {"reads", "guard", "keys", "frozen", "rules", "pinned"}, record["info"]
    assert f"{folders['decoy']}/journal.jsonl: read {{\"seed\": 1" in detail, detail  # it did read
    for planted in (folders["home"] / ".cache" / "huggingface" / "token", preds):
        assert f"{planted}: refused (" in detail, (planted, detail)  # found, and refused
    # not even found: listing the run's output folder, and the temp folder that holds the jobs'
    # scratch roots and another run's journal, is refused (names there can carry what jobs computed)
    for unlisted in (folders["tmp"] / "kbx-run-other", tmp_path / "out"):
        assert f"{unlisted}/" not in detail, (unlisted, detail)
    assert PLANTED not in detail and seed not in detail and "555000111" not in detail, detail
    assert record["verdict"] in ("error", "integrity"), record["verdict"]


def test_jobs_of_one_run_cannot_pass_answers_to_each_other(tmp_path):
    """Two jobs of one run share its seed, so their inputs: a leader that computes each case and
    publishes the answers as the names of files in its own folder, and a follower beside it that
    lists the folder holding every job's folder and copies them out (exe ok on every case before).
    The follower may not list other jobs' folders; the leader's work is its own and passes."""
    leader = (ROOT / "solutions" / "Reduce" / "sum.py").read_text()
    assert "\ndef sum(" in leader
    leader = leader.replace("\ndef sum(", "\ndef _honest_sum(") + "\n\n" + _source("sibling_job_leader_tail")
    rows = [{"file": "Reduce/sum.py", "predict": leader, "sample_id": 0},
            {"file": "Reduce/sum.py", "predict": _source("sibling_job_follower"), "sample_id": 1}]
    preds = write_jsonl(tmp_path / "preds.jsonl", rows)
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q",
                           "--no-perf", "--workers", "2", "--timeout", "180"],
                          capture_output=True, text=True, timeout=900, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    jobs = {m["sample_id"]: m for m in json.loads((tmp_path / "out" / "metrics.json").read_text())}
    assert jobs[0]["verdict"] == "ok", jobs[0]
    follower = jobs[1]
    assert follower["verdict"] == "integrity" and not follower["exe_ok"], follower
    assert "may not list" in follower["call"]["detail"] + follower["exe"]["detail"], follower


def test_workers_die_with_the_cli(tmp_path):
    """SIGKILL the CLI in the middle of a job: its fork server and the worker go with it."""
    code = "import time\n\ndef relu(input, inplace=False):\n    time.sleep(600)\n"
    preds = write_jsonl(tmp_path / "preds.jsonl", [{"file": "Activation/relu.py", "predict": code}])
    proc = subprocess.Popen([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q"],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    descendants: set[int] = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(descendants) < 2:  # the fork server and its worker
        time.sleep(0.5)
        descendants = _descendants(proc.pid)
    assert len(descendants) >= 2, "the run did not start its worker in time"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in descendants):
        time.sleep(0.2)
    assert not [p for p in descendants if _alive(p)]


def _descendants(pid: int) -> set[int]:
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                children = [int(c) for c in open(f"/proc/{parent}/task/{tid}/children").read().split()]
            except OSError:
                continue
            found.update(children)
            frontier.extend(children)
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# -- perf forgeries (natively on a GPU) ----------------------------------------------------------

PERF_ATTACKS = {  # name -> (verdict, phrase in the perf detail)
    "perf_wrong_when_timed": ("wrong", "timed repetition"),
    "perf_crash_at_size": ("crashed", "at perf sizes"),
    "perf_input_as_scratch": ("wrong", "the call changed it"),
    # right only on the repetition it heard would be judged, by listening to the commands' parser
    "perf_right_only_when_kept": ("wrong", "timed repetition"),
    # a module swapped in sys.modules between the last check and the saving of the results
    "perf_swap_before_save": ("integrity", "sys.modules['torch']"),
    # a slow Triton kernel when watched, PyTorch's when timed: the timed median against the watched
    # call's GPU busy time (GPU only: the CPU stand-in has no trace)
    "perf_fast_only_when_unwatched": ("integrity", "timed_faster_than_checked"),
    # a result whose own `detach` computes it (torch.relu) when the harness keeps it: untimed, unwatched
    "relu_perf_detach_shadow": ("integrity", "hides torch.Tensor's"),
}


def _evaluate(tmp: Path, names, *options: str) -> dict[int, dict]:
    """Evaluate the named attacks as samples 0, 1, ... of Activation/relu.py; metrics by sample."""
    rows = [{"file": "Activation/relu.py", "predict": _source(name), "sample_id": i} for i, name in enumerate(names)]
    preds = write_jsonl(tmp / "preds.jsonl", rows)
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp / "out"), "-q",
                           *options], capture_output=True, text=True, timeout=900, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {m["sample_id"]: m for m in json.loads((tmp / "out" / "metrics.json").read_text())}


# Run beside the perf forgeries, each timed no faster than the honest solution in the same run: a
# cache keyed by a few input values, and a wrapper that answers a re-measured repetition from its
# first attempt (perf/timing.py)
SPEED_ATTACKS = ("perf_skip_when_timed", "perf_remeasure_replays_its_answer")


@pytest.fixture(scope="module")
def perf_attack_run(tmp_path_factory):
    return _evaluate(tmp_path_factory.mktemp("adversarial-perf"), [*PERF_ATTACKS, *SPEED_ATTACKS, "honest"],
                     "--workers", "2")


def test_attacks_that_count_relus_exe_calls_count_them_right():
    """Two CPU perf attacks switch behaviour once Activation/relu.py's exe calls are done, counted
    in a constant of their own (an attacker reads the task file): when the task's cases change,
    they would fail their call instead of reaching perf."""
    import re
    from harness.task import get_task
    exe_calls = len(get_task("Activation/relu.py").correctness_cases(0, "cpu"))
    for name in ("perf_mode_finishes_after_timing", "relu_perf_detach_shadow"):
        counted = re.search(r"^_?EXE_CALLS = (\d+)", (ADVERSARIAL / f"{name}.py").read_text(), re.M)
        assert counted and int(counted.group(1)) == exe_calls, (name, exe_calls)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_wrong_only_while_timed_is_wrong_on_cpu(tmp_path, monkeypatch):
    """A timed repetition's result is judged, not only the untimed check call's, and which one is
    judged cannot be heard from the command channel (the perf protocol in its CPU stand-in, where
    the forgeries work the same way)."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    names = ["perf_wrong_when_timed", "perf_right_only_when_kept"]
    records = _evaluate(tmp_path, names)
    assert sorted(records) == list(range(len(names)))
    for rec in records.values():
        assert rec["exe"]["status"] == "ok", rec["exe"]
        assert rec["verdict"] == "wrong" and "timed repetition" in rec["perf"]["detail"], rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_a_module_swapped_before_the_perf_results_are_saved_is_caught_on_cpu(tmp_path, monkeypatch):
    """Code of the submission's that runs when timing ends (a finalizer on the call buffers) finds
    the results saved through the module bound before the import, and its swap reported."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    rec = _evaluate(tmp_path, ["perf_swap_before_save"])[0]
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] == "integrity" and "sys.modules['torch']" in rec["perf"]["detail"], rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_a_saved_result_rewritten_before_it_is_judged_is_not_judged_on_cpu(tmp_path, monkeypatch):
    """Timed repetitions that do no work, and a gc callback that rewrites the saved result with
    PyTorch's answer before the judge reads it: the candidate collects nothing once timing is over,
    and the judge reads only the bytes whose digest the signed event names, so the timed
    repetition's own (wrong) result is what is judged."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    rec = _evaluate(tmp_path, ["perf_gc_rewrites_saved_result"])[0]
    assert rec["exe"]["status"] == "ok", rec["exe"]
    # the callback it registers once timed is found after that timing request (before any save);
    # were it not, the judge reads the saved bytes the signed event names: the unfixed result
    assert (rec["verdict"] == "integrity" and "garbage-collector callback" in rec["perf"]["detail"]) or (
        rec["verdict"] == "wrong" and "timed repetition" in rec["perf"]["detail"]), rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_code_planted_in_torch_save_cannot_forge_or_break_the_perf_judging_on_cpu(tmp_path, monkeypatch):
    """Objects planted in torch.save's thread-local flags run nothing inside the harness's saves of
    perf results (the flags are the harness's own there): a writer's buffer rewritten with PyTorch's
    answer, and a saved file swapped for a folder (which crashed the judging baseline: a harness
    error, not held against the job), both leave the timed repetitions' wrong results to be judged."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    names = ["perf_saved_result_forged_in_writer", "perf_judged_file_swapped_for_folder"]
    records = _evaluate(tmp_path, names)
    for rec in records.values():
        assert rec["exe"]["status"] == "ok", rec["exe"]
        assert rec["verdict"] in ("wrong", "integrity") and rec["perf"]["status"] in ("wrong", "integrity"), rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_commands_written_by_the_submission_never_reach_the_perf_server_on_cpu(tmp_path, monkeypatch):
    """A file of the submission's put on the worker's descriptor 0 (os.dup2, no audit event) fed
    the harness's perf server commands one step ahead of the parent's, so that only the judged
    timed repetition did its work: the server reads its own duplicate of the parent's pipe, so the
    submission, waiting for commands the parent never sends while its call runs, times out."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    rec = _evaluate(tmp_path, ["perf_commands_from_swapped_stdin"], "--perf-timeout", "20")[0]
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] == "timeout" and rec["perf"]["status"] == "timeout", rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_the_timers_clock_and_the_stages_deadline_are_out_of_the_submissions_reach_on_cpu(tmp_path, monkeypatch):
    """A clock swapped in for the timer's next reading, or for the rest of a timed command and put
    back by a stand-in the timer called after the last repetition, forged medians a thousand times
    too fast with perf `ok`; a check call that spent the stage's time to its last moment made the
    baseline's next step miss the deadline, a harness error not held against the job, so its wrong
    timed repetitions were never judged. Now: the clock and the collector switches are bound,
    the swaps are `integrity`, and the spent deadline is the candidate's `timeout`."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    names = ["perf_clock_rebound_per_rep", "perf_rebind_undone_by_timer_gc_enable", "perf_deadline_spent_on_the_judge"]
    records = _evaluate(tmp_path, names, "--perf-timeout", "8")
    for index in (0, 1):
        rec = records[index]
        assert rec["exe"]["status"] == "ok", rec["exe"]
        assert rec["verdict"] == "integrity" and "time.perf_counter" in rec["perf"]["detail"], (names[index], rec["perf"])
    rec = records[2]
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] in ("timeout", "wrong") and rec["perf"]["status"] in ("timeout", "wrong"), rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_a_mode_left_to_finish_the_work_after_timing_is_caught_on_cpu(tmp_path, monkeypatch):
    """Timed repetitions that launch nothing and leave a torch-function mode that launches the kernel
    at the harness's next torch call (untimed), then leaves before the checks: the mode stacks are
    checked after every timed repetition, before its result is read."""
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    rec = _evaluate(tmp_path, ["perf_mode_finishes_after_timing"])[0]
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] == "integrity" and "torch-function mode" in rec["perf"]["detail"], rec["perf"]


# perf caches that the timed inputs' mix (perf/server.py RotatingCase) leaves without a hit:
# attack file -> the task it answers (its bundled solution runs beside it)
MIXED_INPUT_CACHES = {"roll_surviving_cache_sum_host": "Reduce/sum.py",
                      "two_set_cache_integer_inputs": "Math/bitwise_and.py",
                      "two_set_cache_convex_inputs": "LinearAlgebra/cholesky.py",
                      "two_set_cache_in_place_inputs": "LinearAlgebra/solve_and_add_scaled_vector.py",
                      # an order statistic probed at seen values' known places: 3,700x before the
                      # task's inputs were rotated into new values (PERF_MIX = "gaussian")
                      "mixed_inputs_min_probe": "Reduce/min_gelu.py"}


def test_caches_of_inputs_seen_before_gain_nothing(monkeypatch):
    """A wrapper that kept every input it saw found where one value of a timed repetition's input
    sat in a set seen before (the roll's offset) and answered Reduce/sum from the kept sums without
    reading the input: perf `ok` at 268x the honest speedup in CPU mode; on Math/bitwise_and, whose
    integer inputs were timed as drawn, a cache keyed by a few values got 46x, and as much on
    structured inputs timed as drawn (LinearAlgebra). Each timed input is now a combination of both
    sets that no call saw, integers included where the task says they are free values, structured
    inputs combined so that they keep their structure (PERF_MIX): the caches never answer, and each submission is timed doing its bundled
    solution's work: its candidate time (per case, geometric mean) within 3x of the solution's in
    the same run, timings in the interpreter being noisy; the caches' hits were over 40x. (The gain
    is taken from the candidates' times, not the speedups: eager PyTorch on the CPU stand-in's tiny
    cases takes tens of microseconds and moved 2.6x between jobs of one run, which once made the
    min probe's speedup 12x the solution's while its own kernel was the slower one.) On a GPU the
    same test times both natively, and a cache that fails there on its own gains nothing either."""
    from harness.api import Evaluator
    if not torch.cuda.is_available():
        monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    with Evaluator(perf=True, workers=1, shards=1, timeout=240) as ev:
        futures = {name: (ev.submit(task, _source(name)), ev.submit(task, (ROOT / "solutions" / task).read_text()))
                   for name, task in MIXED_INPUT_CACHES.items()}
        results = {name: (attack.result(timeout=900), honest.result(timeout=900))
                   for name, (attack, honest) in futures.items()}
    for name, (attack, honest) in results.items():
        assert honest["verdict"] == "ok", (name, honest["perf"])
        # in CPU mode each cache runs to the end, so the mix is what is shown; on an H100 the sum's
        # cache of every input it saw ran out of memory at perf sizes (perf `error`: not correct)
        assert attack["verdict"] == "ok" or torch.cuda.is_available(), (name, attack["perf"])
        if attack["verdict"] == "ok":
            gain = _candidate_gain(attack, honest)
            print(name, "gain over the bundled solution:", round(gain, 3))
            assert gain < 3, (name, gain, attack["perf_metrics"], honest["perf_metrics"])


def _candidate_gain(attack: dict, honest: dict) -> float:
    """How much faster the attack's candidate ran than the honest one's, case by case (geometric mean
    of the ratios of their medians; both jobs time the same task's cases)."""
    times = {c["label"]: c["candidate"]["median_ms"] for c in honest["perf_metrics"]["cases"]}
    ratios = [times[c["label"]] / c["candidate"]["median_ms"] for c in attack["perf_metrics"]["cases"]]
    return math.prod(ratios) ** (1 / len(ratios))


LAZY_RESULT = """

_honest_min = min


class _Lazy(list):
    # A result that does its work only when read: isinstance() asks for __class__
    def __init__(self, args):
        super().__init__([None, None])
        self._args = args

    @property
    def __class__(self):
        if list.__getitem__(self, 0) is None:
            list.__setitem__(self, slice(None), list(_honest_min(*self._args)))
        return list


def min(input_tensor, dim, keepdim=False):
    if torch._C._len_torch_dispatch_stack():  # watched (exe, the perf check call): honest
        return _honest_min(input_tensor, dim, keepdim)
    return _Lazy((input_tensor, dim, keepdim))
"""


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_a_timed_result_that_works_only_when_read_is_refused_on_cpu(monkeypatch):
    """The bundled min solution behind a wrapper whose unwatched calls return a list that computes
    only when the harness inspects it: only the kept repetition would do any work. Every timed
    repetition's result must be built of exact types."""
    from harness.api import Evaluator
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    code = (ROOT / "solutions" / "Reduce" / "min.py").read_text() + LAZY_RESULT
    with Evaluator(perf=True, workers=1, shards=1, timeout=240) as ev:
        rec = ev.submit("Reduce/min.py", code).result(timeout=900)
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] == "integrity" and "returned a value of type _Lazy" in rec["perf"]["detail"], rec["perf"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="the CPU stand-in of the perf protocol")
def test_a_result_whose_own_detach_does_the_work_is_refused_in_perf_on_cpu(monkeypatch):
    """After exe, every call returns an empty buffer beside a launch that does nothing, whose own
    ``detach`` (a partial of torch.relu) would compute the answer when the harness keeps the
    result, unwatched and untimed: perf was `ok` at a third of the honest solution's time."""
    from harness.api import Evaluator
    monkeypatch.setenv("KERNELBENCHX_PERF_ON_CPU", "1")
    with Evaluator(perf=True, workers=1, shards=1, timeout=240) as ev:
        rec = ev.submit("Activation/relu.py", _source("relu_perf_detach_shadow")).result(timeout=900)
    assert rec["exe"]["status"] == "ok", rec["exe"]
    assert rec["verdict"] == "integrity" and "hides torch.Tensor's" in rec["perf"]["detail"], rec["perf"]


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(PERF_ATTACKS))
def test_perf_forgery_is_not_a_speedup(perf_attack_run, name):
    verdict, phrase = PERF_ATTACKS[name]
    rec = perf_attack_run[list(PERF_ATTACKS).index(name)]
    assert rec["exe"]["status"] == "ok", rec["exe"]          # right on the small cases
    cases = [{k: c.get(k) for k in ("describe", "runtime_ms", "roofline_ms", "roofline_pct")}
             for c in (rec.get("perf_metrics") or {}).get("cases", [])]
    assert rec["verdict"] == verdict and phrase in rec["perf"]["detail"], (rec["perf"], cases)
    assert rec["exe_ok"] is False and not rec["perf_ok"]


@pytest.mark.gpu
@pytest.mark.parametrize("name", SPEED_ATTACKS)
def test_answers_kept_from_inputs_seen_before_gain_nothing(perf_attack_run, name):
    """Every timed repetition's inputs, and every re-measured attempt's, are arranged anew
    (perf/server.py), so a wrapper that keys results by a few sampled values, or answers a re-measure
    from the attempt it made slow, never finds its answer: it is timed doing the work, plus its own
    probes, and is no faster than the honest kernel in the same run (or, were it faster than physics
    allows, caught)."""
    names = [*PERF_ATTACKS, *SPEED_ATTACKS, "honest"]
    attack, honest = perf_attack_run[names.index(name)], perf_attack_run[names.index("honest")]
    assert honest["verdict"] == "ok" and attack["exe"]["status"] == "ok"
    if attack["verdict"] == "integrity":
        assert "faster_than_roofline" in attack["perf"]["detail"]
        return
    assert attack["verdict"] == "ok", attack["perf"]
    for a, h in zip(attack["perf_metrics"]["cases"], honest["perf_metrics"]["cases"]):
        assert a["runtime_ms"] >= 0.9 * h["runtime_ms"], (a["label"], a["runtime_ms"], h["runtime_ms"])


# -- monitors blinded in the submission's process, caught by the GPU's own record ----------------

# name -> what catches it natively: the guard refuses threads and disabled dispatch outright; an
# explicit redispatch below the Python key passes every in-process monitor and only the GPU sees it.
BLINDING = {"blind_thread": "guard: the submission may not", "blind_dispatch": "guard: the submission may not",
            # the CUDA trace sees the clamp kernel; its result, made below the monitor, is no memory
            # the monitor saw made, which the result rule refuses first (natively since 2026-12-05)
            "blind_redispatch": ("gpu_trace", "memory held before the call"),
            # other code doing the work below the monitor: PyTorch's jiterator, the host between copies
            "jiterator_named_like_triton": "torch.cuda.jiterator", "pinned_host_offload": "tensor in host memory",
            # the host between copies that reach page-locked memory by pointer arithmetic: memory the
            # job took in a call or at import, or registered with CUDA (harness/sandbox/pinned_host.py)
            "pinned_host_offset_address": "page-locked host memory",
            "pinned_at_import_offset_address": "page-locked host memory",
            "cuda_host_register_numpy": "cudaHostRegister",
            # bytes read as another type, on the device (on the host, "tensor in host memory" came first)
            "bytes_reinterpreted_relu_on_device": "read as torch.uint8"}


@pytest.fixture(scope="module")
def blinding_run(tmp_path_factory):
    return _evaluate(tmp_path_factory.mktemp("adversarial-blinding"), BLINDING, "--no-perf")


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(BLINDING))
def test_pytorch_work_the_monitor_cannot_see_is_caught_natively(blinding_run, name):
    rec = blinding_run[list(BLINDING).index(name)]
    assert rec["verdict"] == "integrity", rec
    phrases = BLINDING[name] if isinstance(BLINDING[name], tuple) else (BLINDING[name],)
    assert any(phrase in rec["call"]["detail"] + rec["exe"]["detail"] for phrase in phrases), rec


# (task, attack) -> the phrase its verdict names; beside each task's bundled solution, which passes
HOST_OR_REARRANGED = {
    # rand's answers drawn by a hook in its task module as the harness drew the cases (exe ok at 424dc51)
    ("Random/rand.py", "task_module_hook_rand"): "rebinds _kbx_task_Random_rand.cases at import",
    # signbit from the sign byte, read through views as other types of a torch.Tensor subclass
    # with no dispatch handler (exe ok at d364e35; see relu_subclass_reinterpret)
    ("Math/signbit.py", "signbit_subclass_view"): "torch.Tensor subclass",
    ("Index/permute_copy.py", "permute_copy_torch_dummy_launch"): "copies alone could make the outputs",
    ("Math/ifftshift.py", "ifftshift_torch_dummy_launch"): "copies alone could make the outputs",
    ("Random/rand.py", "rand_host_python"): "bytes of tensors built from host data",
    ("Random/logspace.py", "logspace_host_python"): "bytes of tensors built from host data",
    # a pool made at import: sliced as views (memory held before the call), or copied
    ("Random/rand.py", "rand_pool_at_import"): "memory held before the call",
    ("Random/rand.py", "rand_pool_copied"): "copies alone could make the outputs",
    # ... the pool passed off as a tensor built from host data in the call; a permuted view of a
    # copy; values from NumPy wrapped by DLPack; copies into slices of one buffer
    ("Random/rand.py", "rand_pool_lifted_as_fresh"): "tensors built from host data",
    ("Index/permute_copy.py", "permute_copy_view_of_a_copy"): "not in row-major order",
    # the permutation by a primitive that copies (prims.reshape), through a buffer allocated with
    # permuted strides, or by lift_fresh_copy of an argument's view (each `ok` before)
    # (natively the guard refuses it first: prims.reshape's Python runs with the dispatch hooks off)
    ("Index/permute_copy.py", "permute_copy_prims_reshape"): ("integrity", ("torch_fallback:prims::reshape",
                                                                            "while PyTorch's dispatch hooks are off")),
    ("Index/permute_copy.py", "permute_copy_permuted_allocation"): "copies alone could make the outputs",
    ("Index/permute_copy.py", "permute_copy_lift_fresh_copy"): "copies alone could make the outputs",
    ("Random/logspace.py", "logspace_dlpack"): "memory held before the call",
    ("Math/ifftshift.py", "ifftshift_doubled_buffer"): "copies alone could make the outputs",
    # a pool grown by one element per call (a resize moves it: not memory made in the call), read
    # by the launch or returned beside a launch on a buffer of its own; a kernel copying a pool made
    # at import; values computed in Python passed as kernel arguments, or as one-element tensors
    # made with torch.full
    ("Random/rand.py", "rand_pool_resized"): "memory prepared before the call read by its kernels",
    ("Random/rand.py", "rand_pool_resized_unread"): "memory held before the call",
    ("Random/rand.py", "rand_pool_triton_copy"): "memory prepared before the call read by its kernels",
    ("Random/logspace.py", "logspace_tuple_args"): "numbers passed to kernels in one call",  # refused at the launch
    ("Random/logspace.py", "logspace_full_scalars"): "fills in one call",
    # ... or as numbers inside Triton's own types and an IntEnum's class (counted all the same)
    ("Random/logspace.py", "logspace_tl_tuple_args"): "numbers passed to kernels in one call",
    ("Random/logspace.py", "logspace_intenum_payload"): "numbers passed to kernels in one call",
    # a result's own `detach` handing back a pool made at import, or the permuted input, when the
    # harness reads it; an argument of Triton's type (or a tensor) given data_ptr and friends of its
    # own, which Triton's interpreter calls inside its argument plumbing (where copies are exempt);
    # a pool's storage resized into a block freed in the call (its address looked new)
    ("Random/rand.py", "rand_detach_shadow"): "hides torch.Tensor's",
    ("Index/permute_copy.py", "permute_copy_detach_shadow"): "hides torch.Tensor's",
    ("Index/permute_copy.py", "permute_copy_plumbing_attr"): "holds a callable of its own",
    ("Random/rand.py", "rand_plumbing_attr"): "holds a callable of its own",
    ("Index/permute_copy.py", "permute_copy_plumbing_tensor_attr"): "hides torch.Tensor's",
    ("Random/rand.py", "rand_storage_resize_reuse"): "prepared before the call",
    # refused copies (and a set onto a storage) run from a gc callback inside Triton's argument
    # plumbing, where the monitor exempts such steps: no collection runs there, and the attack
    # gives up with its own error (a pass if one ran)
    ("Index/permute_copy.py", "permute_copy_gc_in_plumbing"): ("error", "no collection in the plumbing"),
    ("Math/signbit.py", "signbit_gc_in_plumbing"): ("error", "no collection in the plumbing"),
    # a pool freed in the call and its block taken back by torch.empty, values intact: a new
    # buffer is filled with 0xFF bytes (NaN) in such a task before anything reads it
    ("Random/rand.py", "rand_stale_allocation"): ("wrong", "nan"),
}
# honest Triton work, wrong by the task's description, that the checks let pass
WRONG_BUT_UNSEEN = {
    # in-place and out= semantics inside containers: Adam's list entries replaced by updated copies
    # (the caller's tensors never change), a tuple out='s tensors filled but clones returned
    ("Optimizer/Adam.py", "adam_list_entries_swapped"): ("wrong", "must be argument 0[0] itself"),
    ("Reduce/min_gelu.py", "min_gelu_tuple_out_not_returned"): ("wrong", "must be argument out[0] itself"),
    # random numbers: a stream fresh only in the values the across-calls test remembered (the first
    # 64, the mask's first 4,096), one stream shifted per call, 24 random bits shifted off the grid
    ("Random/rand.py", "rand_fixed_stream_past_prefix"): ("wrong", "the seed is not fresh per call"),
    ("Random/rand.py", "rand_rotated_fixed_stream"): ("wrong", "not independent of an earlier call's"),
    ("Random/rand.py", "rand_low_resolution_offset"): ("wrong", "carry too few random bits"),
    ("Fusion/fused_hardshrink_dropout.py", "dropout_fixed_mask_past_prefix"): ("wrong", "the seed is not fresh per call"),
    # ... a seed cycling every five calls; a counter that repeats in each autotune config's pass
    ("Random/rand.py", "rand_seed_period5"): ("wrong", "the seed is not fresh per call"),
    ("Random/rand.py", "rand_repeats_across_config_passes"): ("wrong", "the seed is not fresh per call"),
    ("Fusion/fused_hardshrink_dropout.py", "dropout_repeats_across_config_passes"): ("wrong", "the seed is not fresh per call"),
    # an input returned as the result because it holds the answer (an identity permutation, a new
    # momentum buffer equal to the gradient): not an out= argument the reference fills
    ("Index/permute_copy.py", "alias_identity_permute_copy"): ("wrong", "shares memory with argument 0"),
    ("Optimizer/SGD.py", "alias_sgd_buffer_is_grad"): ("wrong", "shares memory with argument 1"),
}
OTHER_TASKS = HOST_OR_REARRANGED | WRONG_BUT_UNSEEN


# honest submissions (tests/honest/) with idioms once refused: a torch.Size as a tuple kernel
# argument, operands broadcast with Tensor.repeat, a kernel's float64 result cast down, an output
# grown with resize_; a @triton.jit helper or an IntEnum member as a constexpr argument, a rank
# padded by a view before a copy in a rearranging task, CUDA_LAUNCH_BLOCKING set at import (configs
# pruned per call by the submission's autotuner: relu_pruned_copies_hide_config in EXPECTED)
HONEST = {"relu_shape_tuple_argument": "Activation/relu.py", "add_repeat_broadcast": "Math/add.py",
          "logspace_float64_then_cast": "Random/logspace.py", "relu_output_resized": "Activation/relu.py",
          "add_gelu_jit_function_argument": "Fusion/fused_add_gelu.py", "mse_loss_intenum_mode": "Loss/mse_loss.py",
          "permute_copy_padded_rank": "Index/permute_copy.py",
          "sum_cuda_launch_blocking": "Reduce/sum.py",
          # a second hunt: an allocated buffer's own strides as a rearranging task's result, torch.eye,
          # torch.complex, a complex tensor viewed as floats, squeeze_, resize_as_
          "ifftshift_empty_like_strided": "Math/ifftshift.py", "invert_matrix_eye": "LinearAlgebra/invert_matrix_lu.py",
          "fftn_complex_from_parts": "Math/fftn.py", "fftn_complex_read_as_float": "Math/fftn.py",
          "conv2d_squeeze_in_place": "Convolution/conv2d.py", "abs_out_resized_as": "Math/abs.py",
          # a third: an out= pair returned where the reference returns new tensors of the same values
          "gelu_min_returns_out_pair": "Fusion/fused_gelu_min.py",
          # pathlib paths in its own folder, and os.scandir entries looked at
          "relu_pathlib_paths": "Activation/relu.py",
          # a fourth hunt: callables of its own as grids and pruning functions, leftovers of generated
          # code, im2col by F.unfold, a power of 0 answered by a fill
          "relu_callable_grids": "Activation/relu.py", "relu_common_leftovers": "Activation/relu.py",
          "conv2d_unfold_gemm": "Convolution/conv2d.py", "pow_exponent_zero_filled": "Math/pow.py",
          # the autotuner's own hooks (reset_to_zero, restore_value) and triton.testing's do_bench,
          # once only the few functions of Triton's it hands back to itself were allowed as callbacks
          "relu_autotune_hooks_of_triton": "Activation/relu.py",
          # a fifth hunt: CUDA_VISIBLE_DEVICES, TRITON_ALLOW_NON_CONSTEXPR_GLOBALS and the autotuner's
          # print knob set at import
          "relu_env_and_knob_leftovers": "Activation/relu.py"}


def _honest_source(name: str) -> str:
    if name in SOLUTION_EDITS:
        return _edited(*SOLUTION_EDITS[name])
    return (Path(__file__).parent / "honest" / f"{name}.py").read_text()


def test_outputs_rearranged_by_torch_or_computed_on_the_host_are_refused(tmp_path):
    """The whole answer made by PyTorch's copies (a clone of a permuted view, a cat of narrowed
    ones) in a task whose work is that rearrangement, or computed in Python and uploaded as a tensor
    built from a list, each beside a Triton launch that stores nothing, was `ok`: now `integrity`.
    So are the other tasks' attacks (WRONG_BUT_UNSEEN: `wrong`). The bundled solutions of the same
    tasks, and the honest files of tests/honest/, stay `ok`."""
    rows = [{"file": task, "predict": _source(name), "sample_id": i} for i, (task, name) in enumerate(OTHER_TASKS)]
    tasks = sorted({task for task, _ in OTHER_TASKS})
    solution_rows = [{"file": task, "predict": (ROOT / "solutions" / task).read_text(), "sample_id": len(rows) + i}
                     for i, task in enumerate(tasks)]
    rows += solution_rows
    honest_rows = [{"file": task, "predict": _honest_source(name), "sample_id": len(rows) + i}
                   for i, (name, task) in enumerate(HONEST.items())]
    rows += honest_rows
    preds = write_jsonl(tmp_path / "preds.jsonl", rows)
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q",
                           "--no-perf", "--timeout", OTHER_TASKS_TIMEOUT], capture_output=True, text=True, timeout=900,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = {m["sample_id"]: m for m in json.loads((tmp_path / "out" / "metrics.json").read_text())}
    for i, ((task, name), expected) in enumerate(OTHER_TASKS.items()):
        rec = records[i]
        verdict, phrase = expected if isinstance(expected, tuple) else ("integrity", expected)
        detail = rec["call"]["detail"] + rec["exe"]["detail"]
        phrases = phrase if isinstance(phrase, tuple) else (phrase,)
        assert rec["verdict"] == verdict and any(p in detail for p in phrases), (name, rec)
    # a solution or honest file judged wrong is a false alarm: its message names the run's seed
    # and its failing cases, so that it can be replayed (--seed)
    seed = json.loads((tmp_path / "out" / "summary.json").read_text())["seed"]
    for row in solution_rows:
        solution = records[row["sample_id"]]
        assert solution["verdict"] == "ok", (row["file"], f"seed {seed}", solution["call"], _failed_cases(solution))
    for row, name in zip(honest_rows, HONEST):
        rec = records[row["sample_id"]]
        assert rec["verdict"] == "ok", (name, f"seed {seed}", rec["call"], _failed_cases(rec))


def _failed_cases(record: dict) -> list[str]:
    return [f"{c['label']}: {c.get('reason', '')}" for c in record.get("cases", [])
            if c["status"] not in ("ok", "skipped")]


@pytest.mark.gpu
def test_a_submission_cannot_take_the_gpu_memory_its_judge_needs(tmp_path):
    """A submission that takes nearly all the GPU memory it finds at perf sizes ran its baseline
    out of memory: a harness error, not held against it. Capped at its share of the run's budget
    (gpu_memory_cap.py), it runs out itself: its own perf verdict, which names the cap.
    Raising the cap through torch's public setter is refused."""
    records = _evaluate(tmp_path, ["gpu_memory_hog", "gpu_memory_fraction_raised", "honest"])
    hog, raised, honest = records[0], records[1], records[2]
    assert honest["verdict"] == "ok", honest
    assert hog["exe"]["status"] == "ok", hog["exe"]
    assert hog["verdict"] not in ("ok", "harness_error") and hog["perf"]["status"] in ("error", "crashed"), hog["perf"]
    assert "out of memory" in hog["perf"]["detail"] and "GiB of GPU memory" in hog["perf"]["detail"], hog["perf"]
    assert raised["verdict"] == "integrity" and "the harness caps the GPU memory" in raised["call"]["detail"], raised


def test_kernel_names_are_classified():
    from harness.run.judge import library_kernels
    fill = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >"
    copy = "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)>"
    relu = "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::clamp_min_scalar_kernel_impl>"
    gemm = "sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x32"
    own_gemm = "my_gemm_kernel"
    complex_from_parts = ("void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
                          "complex_kernel_cuda(at::TensorIterator&)::{lambda()#1}::operator()() const::"
                          "{lambda(float, float)#1}, std::array<char*, 3ul> >")  # torch.complex: interleaving
    assert library_kernels([fill, copy, complex_from_parts, "_relu_kernel", own_gemm], ["_relu_kernel", own_gemm]) == []
    polar = "void at::native::vectorized_elementwise_kernel<4, at::native::polar_kernel_cuda(at::TensorIterator&)>"
    assert library_kernels([polar], []) == [polar]  # its neighbour computes cos and sin
    assert library_kernels([relu, gemm, own_gemm], [own_gemm]) == [relu, gemm]
    assert library_kernels([gemm], [gemm]) == [gemm]  # a kernel named like cuBLAS's excuses nothing
    # an allow-list: kernels with no library's naming (PyTorch's runtime-compiled "jiterator" ones, those
    # in an anonymous namespace) are compute too unless they are the submission's own
    copysign = "void at::native::vectorized_elementwise_kernel<4, at::native::copysign_kernel_cuda(at::TensorIteratorBase&)>"
    assert library_kernels([copysign], []) == [copysign]  # named with "copy", computes
    jiterator = "airy_ai_forward_vectorized4_kernel"
    assert library_kernels([jiterator, "softmax_warp_forward"], ["_relu_kernel"]) == [jiterator, "softmax_warp_forward"]
    nonzero = "void at::native::(anonymous namespace)::nonzero_kernel<float>"  # "zero" in its name, not a fill
    scatter_fill = "void at::native::_scatter_gather_elementwise_kernel<128, 4, _cuda_scatter_fill_internal_kernel>"
    masked_fill = "void at::native::vectorized_elementwise_kernel<4, masked_fill_kernel(TensorIterator&)::{lambda}>"
    for value_dependent in (nonzero, scatter_fill, masked_fill):
        assert library_kernels([value_dependent], ["_relu_kernel"]) == [value_dependent]


def test_more_runs_under_the_submissions_kernel_names_than_launches_is_caught():
    """A library kernel run under one of the submission's kernel names (it named its kernel like a
    jiterator kernel, then called the PyTorch op) shows as more runs than launches."""
    from harness.invoke import call_case
    from harness.run.judge import _judge_case
    from harness.task import get_task
    from harness.taskdef import Case
    task = get_task("Activation/relu.py")
    cases = [Case("c", torch.linspace(-1, 1, 16))]
    expected = [call_case(task.reference, Case("c", cases[0].args[0].clone()))]
    payload = {"case": 0, "config": 0, **expected[0].to_payload()}
    named = "airy_ai_forward_vectorized4_kernel"
    verdict = lambda runs: _judge_case(task, cases, expected, [""], (0, 0, 1, [], runs, None), payload, [named])  # noqa: E731
    assert verdict({named: 1, "void at::native::direct_copy_kernel_cuda": 1})["status"] == "ok"
    caught = verdict({named: 2})
    assert caught["status"] == "integrity" and "2 runs of kernels named like the submission's" in caught["detail"], caught


CHAIN = """
import os, time
while True:  # each process forks a successor, which waits for its parent's death and then does the same
    parent = os.getpid()
    if os.fork() == 0:
        while os.getppid() == parent:
            time.sleep(0.002)
        continue
    time.sleep(600)
"""


def test_one_sweep_kills_an_orphan_and_every_successor_it_would_fork(tmp_path):
    """A chain in which every process forks a successor as soon as its parent dies survives a reaper
    that kills one generation at a time; the fork server's sweep stops the whole tree first."""
    marker = "kbx-chain-6c1d"
    script = (f"import os, sys, time\n"
              f"from harness.lifetime import become_subreaper, kill_orphans\n"
              f"assert become_subreaper()\n"
              f"if os.fork() == 0:\n"
              f"    os.execv(sys.executable, [sys.executable, '-c', {CHAIN!r}, {marker!r}])\n"
              f"time.sleep(1.0)\n"
              f"kill_orphans(set())\n"
              f"time.sleep(1.0)\n")
    try:
        proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr[-2000:]
        survivors = _processes_with(marker)
    finally:
        for pid in _processes_with(marker):
            os.kill(pid, 9)
    assert survivors == []


def test_a_compiled_kernel_launched_on_a_stream_named_by_handle_is_refused(monkeypatch):
    """A launch through a compiled kernel's launcher with ``stream=<raw handle>`` would run on a
    stream the timer never hears of (tests/adversarial has no CPU form: the interpreter has no
    streams); launches through that path are counted like any other."""
    from triton.compiler.compiler import CompiledKernel
    from harness.sandbox import integrity
    ran = []
    monkeypatch.setattr(CompiledKernel, "__getitem__", lambda self, grid: lambda *a, **k: ran.append((a, k)))
    counter = integrity.LaunchCounter()
    counter._patch_compiled_kernel()  # over the stand-in above; monkeypatch puts Triton's back
    route = counter.router()

    def audit(event, *args):  # sys.audit as the worker's guard answers the stand-in's event
        assert event == integrity.LAUNCH_EVENT
        route(sys._getframe(1), args)

    # the stand-in asks through the audit function it was made with: here this test's own hook,
    # not a permanent one in the test process
    monkeypatch.setattr(integrity._sealed_launcher, "__defaults__", (audit, integrity.LAUNCH_EVENT))
    launcher = CompiledKernel.__new__(CompiledKernel)[(1, 1, 1)]
    with pytest.raises(PermissionError, match="stream named by its handle"):
        launcher(1, 2, stream=1234)
    launcher(1, 2)
    assert ran == [((1, 2), {})] and counter.count == 1
    with pytest.raises(PermissionError, match="outside Triton's launch path"):  # raised by anyone else
        audit(integrity.LAUNCH_EVENT, "compiled", [], None, (), {})
    assert counter.count == 1


def test_what_counts_as_plain_data_for_a_constructor():
    """Numbers, exact lists and tuples, NumPy arrays of numbers and exact NumPy scalars, a tensor
    kept on its device: plain. A subclass of a NumPy scalar (its __float__ is the submission's), an
    object array, a tensor inside a list or moved to another device: not."""
    import numpy as np
    from harness.sandbox.guard import plain_data_check
    check = plain_data_check()

    class Sneaky(np.float64):
        def __float__(self):
            return 0.0

    x = torch.ones(2)
    for plain in ([1, 2.0, (3, True, 1j)], np.ones(3), np.float32(1.0), np.arange(4)):
        assert check(plain, None) is None, plain
    assert check(x, None) is None and check(x, "cpu") is None and check(x, torch.device("cpu")) is None
    assert "Sneaky" in check([Sneaky(1.0)], None)
    assert "ndarray" in check(np.array([object()]), None)
    assert "read back" in check([x[0], x[1]], None)
    assert "another device" in check(x, "meta")


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the watch of the submission's code needs sys.monitoring (3.12+)")
def test_code_called_back_with_the_dispatch_hooks_off_is_refused(tmp_path):
    """torch calls the submission's __len__/__getitem__/__float__ with the Python dispatch keys off
    when it converts Python values (indexing with a list-like, a constructor reached through
    torch._C past its stand-in): on 3.12+ such code is refused as it starts."""
    names = ["index_list_blinds_monitor", "constructor_through_torch_c", "callback_compiled_elsewhere"]
    records = _evaluate(tmp_path, names)
    for i, name in enumerate(names):
        rec = records[i]
        assert rec["verdict"] == "integrity", (name, rec["call"], rec["exe"])
        assert "dispatch hooks are off" in rec["call"]["detail"] + rec["exe"]["detail"], (name, rec)
        assert "keys" in rec["info"]["sandbox"].split("+"), rec["info"]


WATCH_BELOW_THE_MONITOR = """
import sys, torch
from pathlib import Path
from torch.utils._python_dispatch import TorchDispatchMode
from harness.sandbox.guard import GuardRefusal, watch_dispatch_keys
source = Path(sys.argv[1])
source.write_text("def f():\\n    return 1\\n")
watching = []
assert watch_dispatch_keys(str(source), watching)
sys.path.insert(0, str(source.parent))
import submission_like

class Mode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))

seen = [submission_like.f()]  # not watching: runs
with Mode():
    watching.append(torch._C._len_torch_dispatch_stack())
    seen.append(submission_like.f())  # the monitor on the stack: runs
    with torch.utils._python_dispatch._disable_current_modes():
        try:
            submission_like.f()
            seen.append("ran below the monitor")
        except GuardRefusal as exc:
            seen.append("refused" if "monitor is off the dispatch stack" in str(exc) else str(exc))
print(seen)
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the watch of the submission's code needs sys.monitoring (3.12+)")
def test_code_called_back_while_the_monitor_is_off_the_stack_is_refused(tmp_path):
    """torch code that takes every mode off the stack (tensor printing does, to read the values) and
    calls the submission back would run it unseen: while a call is watched, the submission's code
    may start only with the monitor's depth of the dispatch stack in place."""
    proc = subprocess.run([sys.executable, "-c", WATCH_BELOW_THE_MONITOR, str(tmp_path / "submission_like.py")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[1, 1, 'refused']", proc.stdout


def test_every_frame_taking_line_installed_has_its_frame_taking_instruction_found():
    """The guard lets frames be taken on a library's frame-taking line only at the instruction that
    takes them, found in the loaded modules' code when it is armed: a listed line whose code it
    cannot find would refuse the honest use (torch.manual_seed before CUDA starts, torch.library,
    Triton's compile errors), and an instruction range that reached the line's other calls would
    let a swapped object's method take frames (swapped_queue_on_frame_taking_line)."""
    import dis

    import triton.compiler.compiler  # noqa: F401 - the compile error filter's line

    from harness.sandbox.guard import CALL_OPS, _frame_taker_lines, _frame_taker_offsets
    lines = _frame_taker_lines()
    assert any(path.endswith("torch/library.py") for path, _ in lines) and any("compiler.py" in p for p, _ in lines)
    found = _frame_taker_offsets(lines)
    for path, number in lines:
        codes = [(code, offsets) for code, offsets in found.values()
                 if code.co_filename == path and any(line == number for _, _, line in code.co_lines())]
        assert codes, f"no code found for the frame-taking line {path}:{number}"
        for code, offsets in codes:
            on_line = [i for i in dis.get_instructions(code) if i.positions.lineno == number]
            calls = [i for i in on_line if i.opname in CALL_OPS]
            taken = [i for i in calls if i.offset in offsets]
            # the one frame-taking call, or (the tb_frame read) none of the line's calls
            assert len(taken) == (1 if "tb.tb_frame" not in open(path).read().splitlines()[number - 1] else 0), \
                (path, number, [(i.opname, i.offset, i.argval) for i in on_line])


INSTRUCTIONS_PROBE = """
import functools, gc, json, sys
from harness.sandbox.guard import instruction_reader
performed, seen, busy = instruction_reader(), [], [False]

def hook(event, args):
    if busy[0] or event not in ("sys._getframe", "object.__getattr__", "gc.get_referrers"):
        return
    if event == "object.__getattr__" and args[1] != "tb_frame":
        return
    busy[0] = True
    frame = sys._getframe(1)
    busy[0] = False
    seen.append((event, frame.f_code, frame.f_lasti))

sys.addaudithook(hook)

class Kind:
    pass

def probe(gadget):
    for _ in range(10):  # specialized after a few runs
        sys._getframe(0)
    try:
        raise ValueError
    except ValueError as error:
        error.__traceback__.tb_frame
    gc.get_referrers(Kind)
    if gadget:  # a truth test running a callable with no frame of its own
        pass

class Gadget:
    __bool__ = functools.partial(any, map(id, map(sys._getframe, range(1))))

probe(Gadget())
busy[0] = True
print(json.dumps([[event, sorted(performed(code).get(lasti, ()))] for event, code, lasti in seen]))
"""


def test_instruction_reader_names_what_each_instruction_asks_for():
    """The guard lets a library frame being imported take frames only at an instruction of its own
    that names the primitive (a call of ``sys._getframe``, a read of ``.tb_frame``), decoded from
    the bytecode with tables taken when it is armed: at the offsets this Python reports for a frame
    whose instruction is running (3.11's specialized PRECALL makes the call itself), the genuine
    calls and reads are named, and a truth test that ran a callable with no frame of its own that
    takes frames names nothing."""
    proc = subprocess.run([sys.executable, "-c", INSTRUCTIONS_PROBE], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    getframes = [names for event, names in seen if event == "sys._getframe"]
    assert len(getframes) == 11 and all("_getframe" in names for names in getframes[:10]), seen
    assert getframes[10] == [], seen  # the gadget's, from the truth test
    assert ["object.__getattr__", ["tb_frame"]] in seen and any(
        event == "gc.get_referrers" and "get_referrers" in names for event, names in seen), seen


def test_dispatch_rules_cannot_stand_in_for_the_op_monitor():
    """torch calls a registered per-(operator, mode class) rule instead of the mode's own
    __torch_dispatch__; after sealing (as each worker does before the submission is imported), a
    rule for the op monitor's class is never found, and the seal reports that torch uses it. In a
    fresh process: torch's C++ keeps the first lookup function it meets."""
    script = textwrap.dedent("""
        import torch
        from torch._library.simple_registry import singleton
        from torch.utils._python_dispatch import BaseTorchDispatchMode
        from harness.sandbox.dispatch_rules import seal_dispatch_rules
        from harness.sandbox.integrity import TorchOpMonitor
        assert seal_dispatch_rules((TorchOpMonitor,)) is True
        singleton.find("aten::relu").torch_dispatch_rules.register(TorchOpMonitor, BaseTorchDispatchMode.__torch_dispatch__)
        x = torch.randn(4)
        monitor = TorchOpMonitor(forbid_host_transfer=False)
        with monitor:
            torch.relu(x)
        print(monitor.forbidden)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "['relu']"


@pytest.mark.gpu
def test_python_in_a_kernel_body_is_not_a_kernel_natively(tmp_path):
    """Triton's CPU interpreter runs whatever Python a kernel body holds (rand_python_in_kernel.py
    draws every value with Python's random module and passes `rand` in CPU mode: a documented gap of
    CPU mode); compiled, such a call is folded into one constant or refused: never `ok`."""
    rows = [{"file": "Random/rand.py", "predict": _source("rand_python_in_kernel"), "sample_id": 0}]
    preds = write_jsonl(tmp_path / "preds.jsonl", rows)
    proc = subprocess.run([sys.executable, "-m", "harness.cli", "eval", str(preds), "--out", str(tmp_path / "out"), "-q",
                           "--no-perf"], capture_output=True, text=True, timeout=900, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    rec = json.loads((tmp_path / "out" / "metrics.json").read_text())[0]
    assert rec["verdict"] != "ok", rec
