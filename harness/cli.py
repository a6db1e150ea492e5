"""``kernelbenchx`` command line: ``eval`` a set of predictions, list/show ``tasks``, measure ``golden`` results.

Exit codes: 0 when the harness did its job (whatever the submissions scored), 1 when it failed
(bad arguments, unreadable input, a harness error on some job), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from harness.process import StageLimits


def _config(args: argparse.Namespace, **overrides):
    """The run settings from the command line (``overrides`` win)."""
    from harness.runner import INTERPRETER, RunConfig
    limits = StageLimits()
    if args.timeout:
        limits.call = limits.exe = float(args.timeout)
    if args.perf_timeout:
        limits.perf = float(args.perf_timeout)
    gpus = [int(g) for g in args.gpus.split(",")] if args.gpus else None
    settings = dict(out_dir=Path(args.out), seed=args.seed, resume=args.resume, gpus=gpus, workers=args.workers,
                    limits=limits, keep_job_dirs=args.keep_job_dirs, mode=INTERPRETER if args.interpret else None,
                    perf=not args.no_perf, compile_baseline=args.compile)
    return RunConfig(**(settings | overrides))


def _run(jobs: list, config, quiet: bool):
    """Run ``jobs`` with a progress bar and print the table; returns (exit code, summary, evaluator)."""
    from tqdm import tqdm

    from harness.journal import JournalError
    from harness.report import format_table
    from harness.runner import GPU, Evaluator

    try:
        evaluator = Evaluator(config)
    except RuntimeError as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1, None, None
    where = "on GPU" if evaluator.mode == GPU else "in Triton's CPU interpreter (no GPU)"
    print(f"evaluating {len(jobs)} job(s) {where}, seed {config.seed}, perf: {evaluator.perf_note()}, "
          f"results in {config.out_dir}", file=sys.stderr)
    bar = tqdm(total=len(jobs), unit="job", disable=quiet, file=sys.stderr)

    def progress(result) -> None:
        bar.update(1)
        bar.set_postfix_str(f"{result.task_id or '?'}: {result.verdict}")

    try:
        summary = evaluator.run(jobs, on_result=progress)
    except JournalError as exc:
        bar.close()
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1, None, None
    bar.close()
    print(format_table(summary, _load_metrics(config.out_dir)))
    return (1 if summary["verdicts"].get("harness_error") else 0), summary, evaluator


def _eval(args: argparse.Namespace) -> int:
    from harness.submissions import load_submissions

    try:
        jobs = load_submissions(args.source)
    except (FileNotFoundError, UnicodeDecodeError) as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1
    if not jobs:
        print(f"kernelbenchx: {args.source}: no predictions found (.py files or .jsonl lines)", file=sys.stderr)
        return 1
    golden_dir = Path(args.golden_dir) if args.golden_dir else None
    code, _, _ = _run(jobs, _config(args, golden_dir=golden_dir), args.quiet)
    return code


def _golden(args: argparse.Namespace) -> int:
    import torch

    from harness import golden
    from harness.submissions import load_submissions
    from harness.task import select_tasks

    if not torch.cuda.is_available():
        print("kernelbenchx golden: needs a CUDA GPU (golden results are timings)", file=sys.stderr)
        return 1
    solutions = Path(golden.DEFAULT_ROOT).parent / "solutions"
    if not solutions.is_dir():
        print(f"kernelbenchx golden: the reference solutions ({solutions}) are not here: run it from a source checkout",
              file=sys.stderr)
        return 1
    wanted = {task.id for task in select_tasks(args.filter)}
    jobs = [j for j in load_submissions(str(solutions)) if j.task_id in wanted]
    out = Path(args.golden_out) if args.golden_out else golden.golden_root() / golden.machine_name()
    prov = golden.provenance(args.seed)
    config = _config(args, perf=True, compile_baseline=True, golden_dir=out / "(not compared)", remeasure_roofline=True)
    code, summary, evaluator = _run(jobs, config, args.quiet)
    if summary is None:
        return code
    missing = golden.write(out, list(evaluator.results.values()), evaluator.roofline,
                           prov | {"wall_s": summary.get("wall_s")})
    print(f"golden results for {len(jobs) - len(missing)} task(s) written to {out}", file=sys.stderr)
    for line in missing:
        print(f"  not measured: {line}", file=sys.stderr)
    return code or (1 if missing else 0)


def _load_metrics(out: Path):
    from harness.verdicts import JobResult
    return [JobResult.from_json(d) for d in json.loads((out / "metrics.json").read_text())]


def _tasks(args: argparse.Namespace) -> int:
    from harness.task import TaskError, get_task, select_tasks

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
    ev.add_argument("source", help="predictions: a .jsonl file, a .py file named after its task, or a directory")
    ev.add_argument("--out", required=True, help="output directory (journal.jsonl, metrics.json, summary.json)")
    ev.add_argument("--interpret", action="store_true", help="use Triton's CPU interpreter even if a GPU is present")
    ev.add_argument("--no-perf", action="store_true", help="skip the perf stage (call and exe only)")
    ev.add_argument("--compile", action="store_true", help="also time torch.compile of the reference (compile time excluded, reported)")
    ev.add_argument("--golden-dir", default=None, help="golden results to compare with (default: golden_results/<this GPU>)")
    ev.set_defaults(func=_eval)

    gd = sub.add_parser("golden", help="measure golden results for this GPU: eager, torch.compile and the "
                                       "reference Triton solution of every task (needs a GPU and a source checkout)")
    gd.add_argument("filter", nargs="*", help="substrings of task ids to measure (default: all)")
    gd.add_argument("--golden-out", default=None, help="where to write (default: golden_results/<this GPU>)")
    gd.add_argument("--out", required=True, help="run directory (journal.jsonl, metrics.json, summary.json)")
    gd.set_defaults(func=_golden, interpret=False, no_perf=False, compile=True, golden_dir=None)
    for p in (ev, gd):
        _common_run_options(p)

    ts = sub.add_parser("tasks", help="list tasks, or show one with its prompt")
    ts.add_argument("filter", nargs="*", help="substrings of task ids to keep")
    ts.add_argument("--category", default=None)
    ts.add_argument("--show", metavar="TASK", help="show one task's signature and description")
    ts.add_argument("--prompt", action="store_true", help="with --show: print the full prompt a model is given")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=_tasks)
    return parser


def _common_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=0, help="seed for the test inputs (default 0)")
    p.add_argument("--timeout", type=float, default=None, help="seconds allowed for each of the call and exe stages")
    p.add_argument("--perf-timeout", type=float, default=None,
                   help="seconds allowed for a job's perf stage (warm-up, timing, check; default 300)")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    p.add_argument("--gpus", default=None, help="comma-separated GPU indices (default: all visible)")
    p.add_argument("--workers", type=int, default=_env_int("KERNELBENCHX_WORKERS"),
                   help="parallel workers: interpreter workers on CPU, workers per GPU on GPU (default: "
                        "$KERNELBENCHX_WORKERS, else by CPU cores, at most 4)")
    p.add_argument("--keep-job-dirs", action="store_true", help="keep each worker's temp dir (debugging)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        print(f"kernelbenchx: {name}={value!r} must be a positive integer", file=sys.stderr)
        raise SystemExit(2)
    return int(value)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
