"""``kernelbenchx`` command line: ``eval`` a set of predictions, list/show ``tasks``, measure ``golden``
results, write the Markdown perf ``report`` of a run.

Exit codes: 0 when the harness did its job (whatever the submissions scored), 1 when it failed
(unreadable input, a harness error on some job), 2 for usage errors (bad options or environment).
"""

from __future__ import annotations

import argparse
import math
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from harness.config import ENV_WORKERS, INTERPRETER, RunConfig, StageLimits, resolve_seed
from harness.run.journal import recorded_limits, recorded_seed


class UsageError(Exception):
    """A bad option value found after parsing (e.g. in the environment): exit 2 with one line."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def _gpu_list(text: str) -> list[int]:
    try:
        gpus = [int(g) for g in text.split(",")]
    except ValueError:
        gpus = []
    if not gpus or min(gpus) < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of GPU indices (e.g. 0,1)")
    return gpus


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:  # (inf would let a job that never ends hold its slot, and a stop, forever)
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive, finite number of seconds")
    return value


def _workers(args: argparse.Namespace) -> int | None:
    """--workers, else $KERNELBENCHX_WORKERS (read only when a run needs it, so a bad value cannot
    break ``--help`` or ``tasks``)."""
    if args.workers is not None:
        return args.workers
    value = os.environ.get(ENV_WORKERS, "").strip()
    if not value:
        return None
    try:
        return _positive_int(value)
    except argparse.ArgumentTypeError as exc:
        raise UsageError(f"{ENV_WORKERS}: {exc}") from None


def _output_folder(out: Path) -> Path:
    """``--out``, made if missing; a usage error where it cannot be a folder (a file, a path under
    a file, a place that takes no folders)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: not a folder (a file of that name exists)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--out {out}: cannot be made ({exc.strerror or exc})") from None
    return out


def _config(args: argparse.Namespace, **overrides) -> RunConfig:
    """The run settings from the command line (``overrides`` win)."""
    workers = _workers(args)  # (every setting checked before --out is made)
    out = _output_folder(Path(args.out))
    # a resumed run goes on with its own seed and limits unless others are given
    recorded = recorded_limits(out) if args.resume and not args.timeout else None
    limits = recorded or StageLimits.with_timeout(args.timeout)
    if args.perf_timeout:
        limits.perf = args.perf_timeout
    seed = resolve_seed(args.seed, recorded_seed(out) if args.resume else None)
    settings = dict(out_dir=out, seed=seed, resume=args.resume, gpus=args.gpus,
                    workers=workers, limits=limits, keep_job_dirs=args.keep_job_dirs,
                    mode=INTERPRETER if args.interpret else None, perf=not args.no_perf,
                    compile_baseline=args.compile, shards=args.shards, fail_fast=getattr(args, "fail_fast", False),
                    perf_samples=getattr(args, "perf_samples", False),
                    backend=getattr(args, "backend", "local"), ray_address=getattr(args, "address", None))
    return RunConfig(**(settings | overrides))


class Progress:
    """Progress on stderr: a live bar on a terminal; in a log (not a TTY), one plain line per
    finished job, so the log holds no carriage-return frames."""

    def __init__(self, total: int, quiet: bool) -> None:
        from harness.report.table import terminal_safe
        self._safe = terminal_safe
        self.total, self.done, self.quiet = total, 0, quiet
        self._bar = None
        if not quiet and sys.stderr.isatty():
            from tqdm import tqdm
            self._bar = tqdm(total=total, unit="job", file=sys.stderr)

    def update(self, result) -> None:
        self.done += 1
        what = self._safe(f"{result.task_id or result.source} #{result.sample_id}: {result.verdict}")
        if self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix_str(what)
        elif not self.quiet:
            print(f"[{self.done}/{self.total}] {what} ({result.seconds:.1f} s)", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _run(jobs: list, config: RunConfig, quiet: bool, on_result: Callable[[Any], None] | None = None):
    """Run ``jobs`` with progress and print the table; returns (exit code, summary, evaluator).
    ``on_result`` is called with each judged job too."""
    from harness.config import GPU
    from harness.report.table import format_table
    from harness.run.journal import JournalError
    from harness.run.runner import Evaluator
    from harness.verdicts import HARNESS_ERROR

    if config.backend == "ray":
        return _run_on_ray(jobs, config, quiet, on_result)
    try:
        evaluator = Evaluator(config)
    except RuntimeError as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1, None, None
    where = "on GPU" if evaluator.mode == GPU else "in Triton's CPU interpreter (no GPU)"
    print(f"evaluating {len(jobs)} job(s) {where}, seed {config.seed}, perf: {evaluator.perf_note()}, "
          f"results in {config.out_dir}", file=sys.stderr)
    progress = Progress(len(jobs), quiet)
    try:
        summary = evaluator.run(jobs, on_result=_also(progress.update, on_result))
    except JournalError as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1, None, None
    finally:
        progress.close()
    print(format_table(summary, _load_metrics(config.out_dir)))
    return (1 if summary["verdicts"].get(HARNESS_ERROR) else 0), summary, evaluator


def _also(first: Callable[[Any], None], then: Callable[[Any], None] | None) -> Callable[[Any], None]:
    """A per-result callback calling ``first``, then ``then`` if given."""
    def both(result: Any) -> None:
        first(result)
        if then:
            then(result)
    return both


def _run_on_ray(jobs: list, config: RunConfig, quiet: bool, on_result: Callable[[Any], None] | None = None):
    """``_run`` with the jobs scheduled on a Ray cluster; the evaluator slot of the result is None
    (golden results are written from local runs only)."""
    from harness.report.table import format_table
    from harness.run.journal import JournalError
    from harness.run.ray_backend import RayUnavailable, run_on_ray
    from harness.verdicts import HARNESS_ERROR

    print(f"evaluating {len(jobs)} job(s) on Ray ({config.ray_address or 'a local Ray instance'}), seed "
          f"{config.seed}, results in {config.out_dir}", file=sys.stderr)
    progress = Progress(len(jobs), quiet)
    try:
        summary, _ = run_on_ray(jobs, config, config.ray_address, on_result=_also(progress.update, on_result))
    except (RayUnavailable, JournalError) as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1, None, None
    finally:
        progress.close()
    print(format_table(summary, _load_metrics(config.out_dir)))
    return (1 if summary["verdicts"].get(HARNESS_ERROR) else 0), summary, None


def _eval(args: argparse.Namespace) -> int:
    from harness.run.submissions import load_submissions, source_paths

    config = _config(args, golden_dir=Path(args.golden_dir) if args.golden_dir else None,
                     hidden_paths=source_paths(p for p in args.source if Path(p).exists()))
    try:
        jobs = load_submissions(args.source)
    except (FileNotFoundError, UnicodeDecodeError) as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1
    if not jobs:
        print(f"kernelbenchx: {' '.join(args.source)}: no predictions found (.py files or .jsonl lines)",
              file=sys.stderr)
        return 1
    code, summary, _ = _run(jobs, config, args.quiet)
    if summary is not None and not args.no_report:
        _write_report([config.out_dir], config.out_dir)
    return code


def _write_report(runs: list[Path], out: Path) -> bool:
    """report.html and report.md of ``runs`` in ``out``; a failure to draw never fails the run."""
    from harness.report.html import write_report
    from harness.report.runs import NotARun, load_run
    try:
        paths = write_report([load_run(r) for r in runs], out)
    except (NotARun, OSError, ValueError) as exc:
        print(f"kernelbenchx report: {exc}", file=sys.stderr)
        return False
    print(f"report: {' and '.join(str(p) for p in paths)}", file=sys.stderr)
    return True


def _golden(args: argparse.Namespace) -> int:
    import torch

    from harness.perf import golden
    from harness.run.submissions import load_submissions, source_paths
    from harness.task import select_tasks

    if not torch.cuda.is_available():
        print("kernelbenchx golden: needs a CUDA GPU (golden results are timings)", file=sys.stderr)
        return 1
    solutions = Path(args.solutions)
    if not solutions.is_dir():
        print(f"kernelbenchx golden: the reference solutions ({solutions}) are not here: run it from a source "
              "checkout or pass --solutions", file=sys.stderr)
        return 1
    wanted = {task.id for task in select_tasks(args.filter)}
    jobs = [j for j in load_submissions(str(solutions)) if j.task_id in wanted]
    out = Path(args.golden_out) if args.golden_out else golden.golden_root() / golden.machine_name()
    config = _config(args, perf=True, compile_baseline=True, golden_dir=out / "(not compared)", remeasure_roofline=True,
                     hidden_paths=source_paths([solutions]))
    # each task's results are written when its job is judged: a run cut short keeps what it measured
    writer = golden.GoldenWriter(out, golden.provenance(config.seed))
    code, summary, evaluator = _run(jobs, config, args.quiet, on_result=writer.add)
    if summary is None:
        return code
    for result in evaluator.results.values():  # those a --resume found in the journal
        writer.add(result)
    missing = writer.finish(evaluator.roofline, wall_s=summary.get("wall_s"))
    print(f"golden results for {len(writer.written)} task(s) written to {out}", file=sys.stderr)
    for line in missing:
        print(f"  not measured: {line}", file=sys.stderr)
    return code or (1 if missing else 0)


def _serve(args: argparse.Namespace) -> int:
    from harness.serve import RemoteBindRefused, serve
    try:
        return serve(args.host, args.port, allow_remote=args.allow_remote, seed=args.seed,
                     mode=INTERPRETER if args.interpret else None, workers=_workers(args), timeout=args.timeout,
                     perf=not args.no_perf, compile_baseline=args.compile, max_pending=args.max_pending,
                     backend=args.backend, address=args.address, fail_fast=args.fail_fast)
    except RemoteBindRefused as exc:
        raise UsageError(str(exc)) from None


def _load_metrics(out: Path):
    from harness.verdicts import JobResult
    return [JobResult.from_json(d) for d in json.loads((out / "metrics.json").read_text())]


def _report(args: argparse.Namespace) -> int:
    from harness.report.markdown import markdown_report
    from harness.report.runs import NotARun, load_run

    runs = [Path(r) for r in args.runs]
    try:
        for run in runs:
            load_run(run)
    except NotARun as exc:
        print(f"kernelbenchx report: {exc}", file=sys.stderr)
        return 1
    if args.out:
        return 0 if _write_report(runs, Path(args.out)) else 1
    print(markdown_report(runs), end="")
    return 0


def _tasks(args: argparse.Namespace) -> int:
    from harness.task import CATEGORIES, TaskError, get_task, select_tasks

    if args.show:
        try:
            task = get_task(args.show)
        except TaskError as exc:
            print(f"kernelbenchx: {exc}", file=sys.stderr)
            return 1
        print(f"{task.id}  (entry `{task.entry}`, dtypes {', '.join(task.dtypes)}, difficulty {task.difficulty})")
        if args.prompt:
            from harness.prompt import build_prompt
            print(build_prompt(task), end="")
            return 0
        print(f"signature: {task.signature}\n")
        print(task.description)
        return 0
    if args.category and args.category.lower() not in {c.lower() for c in CATEGORIES}:
        raise UsageError(f"unknown category {args.category!r}; the categories are: {', '.join(CATEGORIES)}")
    tasks = select_tasks(args.filter, args.category)
    if args.json:
        print(json.dumps([{"task_id": t.id, "category": t.category, "entry": t.entry, "signature": t.signature}
                          for t in tasks], indent=2))
        return 0
    current = None
    for task in tasks:
        if task.category != current:
            current = task.category
            count = sum(t.category == current for t in tasks)
            print(f"{current} ({count})")
        print(f"  {task.name:<28} {task.signature}")
    print(f"{len(tasks)} task(s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kernelbenchx", description="KernelBench-X: evaluate LLM-generated Triton kernels.")
    sub = parser.add_subparsers(dest="command", required=True)

    ev = sub.add_parser("eval", help="evaluate predictions (JSONL, .py file, or directory)")
    ev.add_argument("source", nargs="+",
                    help="predictions: .jsonl files, .py files named after their task, or directories")
    ev.add_argument("--out", required=True, help="output directory (journal.jsonl, metrics.json, summary.json)")
    ev.add_argument("--interpret", action="store_true", help="use Triton's CPU interpreter even if a GPU is present")
    ev.add_argument("--no-perf", action="store_true", help="skip the perf stage (call and exe only)")
    ev.add_argument("--compile", action="store_true", help="also time torch.compile of the reference (compile time excluded, reported)")
    ev.add_argument("--perf-samples", action="store_true",
                    help="keep every timed repetition's milliseconds, in the order timed, and which candidate "
                         "repetition was judged, in each perf case of metrics.json (for your own statistics)")
    ev.add_argument("--golden-dir", default=None, help="golden results to compare with (default: golden_results/<this GPU>)")
    ev.add_argument("--no-report", action="store_true", help="do not write report.html and report.md into --out")
    ev.add_argument("--fail-fast", action="store_true",
                    help="stop each job at its first wrong case (faster on failing submissions: core cases first, "
                         "smaller ones first; a failed job's case counts then cover only the cases it ran, and a "
                         "later case's worse failure is not seen)")
    ev.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="where jobs run: this machine (default) or a Ray cluster (pip install 'kernelbenchx[ray]')")
    ev.add_argument("--address", default=None, help="with --backend ray: the cluster ('auto', 'ray://host:port'); "
                                                    "default: start a local Ray instance")
    ev.set_defaults(func=_eval)

    from harness.shipped import golden_results_dir
    gd = sub.add_parser("golden", help="measure golden results for this GPU: eager, torch.compile and the "
                                       "reference Triton solution of every task (needs a GPU and a source checkout)")
    gd.add_argument("filter", nargs="*", help="substrings of task ids to measure (default: all)")
    gd.add_argument("--golden-out", default=None, help="where to write (default: golden_results/<this GPU>)")
    gd.add_argument("--out", required=True, help="run directory (journal.jsonl, metrics.json, summary.json)")
    gd.add_argument("--solutions", default=str(golden_results_dir().parent / "solutions"),
                    help="the reference solutions to time (default: solutions/ of the source checkout)")
    gd.set_defaults(func=_golden, interpret=False, no_perf=False, compile=True, golden_dir=None)
    for p in (ev, gd):
        _common_run_options(p)

    rp = sub.add_parser("report", help="the report of one or more runs: with --out, a self-contained HTML page "
                                       "(figures, sortable tables, what changed between runs) and its Markdown; "
                                       "without, the Markdown on stdout")
    rp.add_argument("runs", nargs="+", metavar="RUN", help="output directories of `eval` (the first is detailed per "
                                                            "task; later ones are compared with it)")
    rp.add_argument("--out", default=None, help="folder for report.html and report.md")
    rp.set_defaults(func=_report)

    sv = sub.add_parser("serve", help="a warm evaluator over HTTP on localhost: POST /evaluate {task_id, code} "
                                      "-> the job's metrics.json record (see harness/serve.py)")
    sv.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1; loopback only unless --allow-remote)")
    sv.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    sv.add_argument("--allow-remote", action="store_true", help="allow a non-loopback bind address (the server runs the code it is sent)")
    sv.add_argument("--max-pending", type=_positive_int, default=64,
                    help="jobs that may wait for a worker before requests are answered 429 (default 64)")
    sv.add_argument("--seed", type=int, default=None, help="seed for the test inputs (default: $KERNELBENCHX_SEED, "
                                                            "else a random one, shown by GET /health)")
    sv.add_argument("--timeout", type=_positive_seconds, default=300.0,
                    help="seconds for each of call and exe (and at most for the import), the most a request may ask for (default 300)")
    sv.add_argument("--workers", type=_positive_int, default=None, help="parallel workers (as for eval)")
    sv.add_argument("--interpret", action="store_true", help="use Triton's CPU interpreter even if a GPU is present")
    sv.add_argument("--no-perf", action="store_true", help="call and exe only")
    sv.add_argument("--compile", action="store_true", help="also time torch.compile of the reference")
    sv.add_argument("--fail-fast", action="store_true", help="stop each submission at its first wrong case (as for eval)")
    sv.add_argument("--backend", choices=("local", "ray"), default="local", help="where submissions run (as for eval)")
    sv.add_argument("--address", default=None, help="with --backend ray: the cluster (as for eval)")
    sv.set_defaults(func=_serve)

    ts = sub.add_parser("tasks", help="list tasks, or show one with its prompt")
    ts.add_argument("filter", nargs="*", help="substrings of task ids to keep")
    ts.add_argument("--category", default=None)
    ts.add_argument("--show", metavar="TASK", help="show one task's signature and description")
    ts.add_argument("--prompt", action="store_true", help="with --show: print the full prompt a model is given")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=_tasks)
    return parser


def _common_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=None,
                   help="seed for the test inputs (default: $KERNELBENCHX_SEED, else a fresh random one per run, "
                        "printed and recorded in the summary; a seed known in advance lets a submission carry the "
                        "answers; --resume goes on with the run's own)")
    p.add_argument("--timeout", type=_positive_seconds, default=None,
                   help="seconds allowed for each of the call and exe stages, and at most for the import (default 300)")
    p.add_argument("--perf-timeout", type=_positive_seconds, default=None,
                   help="seconds allowed for a job's perf stage (warm-up, timing, check; default 300)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    p.add_argument("--gpus", type=_gpu_list, default=None, help="comma-separated GPU indices (default: all visible)")
    p.add_argument("--workers", type=_positive_int, default=None,
                   help=f"parallel worker processes: interpreter workers on CPU, workers per GPU on GPU "
                        f"(default: ${ENV_WORKERS}, else on CPU one per core up to 4, on GPU one per core up to 16)")
    p.add_argument("--shards", type=_positive_int, default=None,
                   help="worker processes per job, each calling a share of its cases (default: on a GPU, "
                        "long jobs use idle worker slots; on CPU, 1)")
    p.add_argument("--keep-job-dirs", action="store_true", help="keep each worker's temp dir (debugging)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        parser.exit(2, f"kernelbenchx {args.command}: error: {exc}\n")
    except BrokenPipeError:
        # The reader went away (`kernelbenchx tasks | head`): stop quietly, and keep the interpreter's
        # final flush of stdout from raising again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
