"""``kernelbenchx`` command line: ``eval`` a set of predictions, list/show ``tasks``.

Exit codes: 0 when the harness did its job (whatever the submissions scored), 1 when it failed
(bad arguments, unreadable input, a harness error on some job), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness.process import StageLimits


def _eval(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from harness.journal import JournalError
    from harness.report import format_table
    from harness.runner import GPU, INTERPRETER, Evaluator, RunConfig
    from harness.submissions import load_submissions

    try:
        jobs = load_submissions(args.source)
    except (FileNotFoundError, UnicodeDecodeError) as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1
    if not jobs:
        print(f"kernelbenchx: {args.source}: no predictions found (.py files or .jsonl lines)", file=sys.stderr)
        return 1
    limits = StageLimits()
    if args.timeout:
        limits.call = limits.exe = float(args.timeout)
    mode = INTERPRETER if args.interpret else None
    gpus = [int(g) for g in args.gpus.split(",")] if args.gpus else None
    config = RunConfig(out_dir=Path(args.out), seed=args.seed, resume=args.resume, mode=mode, gpus=gpus,
                       workers=args.workers, limits=limits, keep_job_dirs=args.keep_job_dirs)
    try:
        evaluator = Evaluator(config)
    except RuntimeError as exc:
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1
    where = "on GPU" if evaluator.mode == GPU else "in Triton's CPU interpreter (no GPU)"
    print(f"evaluating {len(jobs)} job(s) {where}, seed {args.seed}, results in {args.out}", file=sys.stderr)
    results = []
    bar = tqdm(total=len(jobs), unit="job", disable=args.quiet, file=sys.stderr)

    def progress(result) -> None:
        results.append(result)
        bar.update(1)
        bar.set_postfix_str(f"{result.task_id or '?'}: {result.verdict}")

    try:
        summary = evaluator.run(jobs, on_result=progress)
    except JournalError as exc:
        bar.close()
        print(f"kernelbenchx: {exc}", file=sys.stderr)
        return 1
    bar.close()
    all_results = _load_metrics(Path(args.out))
    print(format_table(summary, all_results))
    return 1 if summary["verdicts"].get("harness_error") else 0


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
    ev.add_argument("--seed", type=int, default=0, help="seed for the test inputs (default 0)")
    ev.add_argument("--timeout", type=float, default=None, help="seconds allowed for each of the call and exe stages")
    ev.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    ev.add_argument("--gpus", default=None, help="comma-separated GPU indices (default: all visible)")
    ev.add_argument("--workers", type=int, default=None, help="parallel workers: interpreter workers on CPU, workers per GPU on GPU (default: by CPU cores, at most 4)")
    ev.add_argument("--interpret", action="store_true", help="use Triton's CPU interpreter even if a GPU is present")
    ev.add_argument("--keep-job-dirs", action="store_true", help="keep each worker's temp dir (debugging)")
    ev.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    ev.set_defaults(func=_eval)

    ts = sub.add_parser("tasks", help="list tasks, or show one with its prompt")
    ts.add_argument("filter", nargs="*", help="substrings of task ids to keep")
    ts.add_argument("--category", default=None)
    ts.add_argument("--show", metavar="TASK", help="show one task's signature and description")
    ts.add_argument("--prompt", action="store_true", help="with --show: print the full prompt a model is given")
    ts.add_argument("--json", action="store_true")
    ts.set_defaults(func=_tasks)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
