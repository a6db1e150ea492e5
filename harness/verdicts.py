"""The vocabulary of results: stage verdicts and the per-job result record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

OK = "ok"
ERROR = "error"            # an exception (message + trimmed traceback in `detail`)
TIMEOUT = "timeout"        # the stage ran past its time limit and was killed
CRASHED = "crashed"        # the worker died (signal, or exit without reporting)
WRONG = "wrong"            # outputs differ from the reference (numeric summary in `detail`)
INTEGRITY = "integrity"    # not done by Triton, or tampering (reason in `detail`)
SKIPPED = "skipped"        # not run (`detail` says why)
HARNESS_ERROR = "harness_error"  # the harness itself failed on this job

STATUSES = (OK, ERROR, TIMEOUT, CRASHED, WRONG, INTEGRITY, SKIPPED, HARNESS_ERROR)
CORE_TIER, EDGE_TIER = "core", "edge"  # correctness tiers of a task's cases (see harness/tiers.py)
# A perf stage ending in one of these is the kernel's failure at the perf sizes: the job is not correct.
KERNEL_PERF_FAILURES = (WRONG, INTEGRITY, ERROR, CRASHED, TIMEOUT)
# A perf stage ending in one of these makes the job's verdict.
PERF_FAILURES = KERNEL_PERF_FAILURES + (HARNESS_ERROR,)


@dataclass
class StageResult:
    status: str
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == OK


def core_passed(call: StageResult, exe: StageResult, cases: list[dict[str, Any]]) -> bool:
    """Every core case passed (under every config), and no case broke an integrity rule: what the
    published benchmark's own tests would call correct."""
    if call.ok and exe.ok:
        return True
    return (call.ok and exe.status in (WRONG, ERROR) and bool(cases)
            and all(c["status"] == OK for c in cases if c["tier"] == CORE_TIER)
            and not any(c["status"] == INTEGRITY for c in cases))


@dataclass
class JobResult:
    """One line of the journal and of metrics.json."""

    key: str
    task_id: str | None
    category: str | None
    sample_id: int
    source: str
    code_sha: str
    call: StageResult
    exe: StageResult
    perf: StageResult
    mode: str
    seconds: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)
    perf_metrics: dict[str, Any] = field(default_factory=dict)  # see perf_metrics.job_metrics
    quality: dict[str, Any] = field(default_factory=dict)  # see quality.code_quality
    # every case the worker ran: {label, tier, config, status, reason, traits} (see run/judge.py)
    cases: list[dict[str, Any]] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        for stage in (self.call, self.exe):
            if not stage.ok:
                return stage.status
        if self.perf.status in PERF_FAILURES:
            return self.perf.status
        return OK

    @property
    def correct(self) -> bool:
        """Passed exe, and did not fail at the perf sizes: wrong, not Triton's work, or an error,
        crash or timeout there (the kernel's own doing) all make it not correct; a failure of the
        harness's baseline process does not count against it."""
        return self.call.ok and self.exe.ok and self.perf.status not in KERNEL_PERF_FAILURES

    @property
    def core_passed(self) -> bool:
        """See :func:`core_passed`."""
        return core_passed(self.call, self.exe, self.cases)

    @property
    def correct_core(self) -> bool:
        """Core-correct: :attr:`core_passed`, and not failed at the perf sizes (see :attr:`correct`)."""
        return self.core_passed and self.perf.status not in KERNEL_PERF_FAILURES

    def case_counts(self) -> dict[str, dict[str, int]]:
        """``{tier: {"passed": n, "total": n}}`` over the cases the worker ran (all configs)."""
        counts = {tier: {"passed": 0, "total": 0} for tier in (CORE_TIER, EDGE_TIER)}
        for case in self.cases:
            bucket = counts.setdefault(case["tier"], {"passed": 0, "total": 0})
            bucket["total"] += 1
            bucket["passed"] += case["status"] == OK
        return counts

    @property
    def case_pass_fraction(self) -> float:
        """Share of the job's cases that passed (0 when none ran: a job that does not load earns
        nothing; 0 after an integrity failure, in a stage or in any case of a run that then crashed
        or timed out: tampering earns no partial credit)."""
        if INTEGRITY in (self.call.status, self.exe.status) or any(c["status"] == INTEGRITY for c in self.cases):
            return 0.0
        total = sum(c["total"] for c in self.case_counts().values())
        return sum(c["passed"] for c in self.case_counts().values()) / total if total else 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict
        data["call_ok"] = self.call.ok
        data["exe_ok"] = self.correct
        data["exe_core_ok"] = self.correct_core
        data["perf_ok"] = self.perf.ok
        counts = self.case_counts()
        data["cases_passed"] = {tier: c["passed"] for tier, c in counts.items()}
        data["cases_total"] = {tier: c["total"] for tier, c in counts.items()}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "JobResult":
        fields = {k: data[k] for k in ("key", "task_id", "category", "sample_id", "source", "code_sha",
                                       "mode", "seconds", "info")}
        fields["perf_metrics"] = data.get("perf_metrics") or {}
        fields["quality"] = data.get("quality") or {}  # journals written before quality signals
        fields["cases"] = data.get("cases") or []      # journals written before per-case verdicts
        return cls(call=StageResult(**data["call"]), exe=StageResult(**data["exe"]),
                   perf=StageResult(**data["perf"]), **fields)
