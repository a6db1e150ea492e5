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

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict
        data["call_ok"] = self.call.ok
        data["exe_ok"] = self.correct
        data["perf_ok"] = self.perf.ok
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "JobResult":
        fields = {k: data[k] for k in ("key", "task_id", "category", "sample_id", "source", "code_sha",
                                       "mode", "seconds", "info")}
        fields["perf_metrics"] = data.get("perf_metrics") or {}
        fields["quality"] = data.get("quality") or {}  # journals written before quality signals
        return cls(call=StageResult(**data["call"]), exe=StageResult(**data["exe"]),
                   perf=StageResult(**data["perf"]), **fields)
