"""Code that runs INSIDE the untrusted worker process, beside the submission.

The worker entry point (``worker.py``), its self-confinement (``confine.py``), the integrity
monitors (``integrity.py``), checking every autotune config (``autotune.py``), the interpreter
fixes (``interpreter_compat.py``), the compiler's rules applied in the interpreter (``native_rules.py``)
and the fork server workers are forked from (``forkserver.py``).
Whatever these modules compute is a claim made inside the submission's reach, never a fact the
parent may trust. Trusted code never imports from here: the parent starts these modules by name
(``harness.protocol``) in child processes; tests/test_architecture.py enforces it.
"""
