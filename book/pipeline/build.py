"""The build: for every experiment, its key (book.cache), then for the stale ones a real run
(book.running), the comparison and the contract (book.checking), and the entry stored whole
(book.cache). This module only orchestrates; each step is its stage's."""
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import datetime, timezone
from pathlib import Path

from .. import hardware
from ..cache import entries, keys, resolve
from ..cache import states as states_file
from ..cache.lock import build_lock
from ..checking import compare, contract
from ..errors import BookError
from ..experiments.manifest import Experiment, discover
from ..paths import Book
from ..running import faults, normalize, progress
from ..running.experiment import run_experiment
from ..running.sides import lock_workspace


def recompare(exp: Experiment, book: Book, current: dict) -> tuple[str, list, str]:
    """The comparison (and the mutation check) again, from the cached sides' outputs. The
    sides are not run, so their files, provenance and timings stay as they were."""
    d = entries.entry_dir(book, exp.id)
    files = {f.name: f.read_text("utf-8") for f in sorted(d.iterdir())
             if f.is_file() and f.name != entries.HASH_FILE}
    for name in ("compare.txt", "compare.json", "mutation.txt"):
        files.pop(name, None)
    outcome = json.loads(files["outcome.json"])
    outcome.pop("compare", None)
    outcome.pop("mutation", None)
    outputs = {s: json.loads(files[f"{s}.json"]) for s in ("python", "burn") if f"{s}.json" in files}
    compare.add_comparison(exp, book, outputs, files, outcome)
    files["outcome.json"] = normalize.dump_json(outcome)
    files[keys.KEY_FILE] = normalize.dump_json(current)
    problems = contract.check(exp, outcome)
    entries.write_entry(book, exp.id, files, book.outputs / ".failed" / exp.id if problems else None)
    return exp.id, problems, compare.verdict(outcome)


def run_and_compare(exp: Experiment, book: Book, scratch_root: Path | None = None) -> dict:
    """Stages 2 and 3 for one experiment: both sides run, then compared. The entry's files
    (outcome.json among them), its outcome and its volatile data."""
    result = run_experiment(exp, book, scratch_root)
    files, outcome = dict(result["files"]), result["outcome"]
    compare.add_comparison(exp, book, result["outputs"], files, outcome)
    files["outcome.json"] = normalize.dump_json(outcome)
    return {"files": files, "outcome": outcome, "volatile": result["volatile"]}


def _one(exp: Experiment, book: Book, current_inputs: dict,
         scratch_root: Path | None = None) -> tuple[str, list, str, float]:
    t0 = time.monotonic()
    try:
        result = run_and_compare(exp, book, scratch_root)
    finally:
        progress.doing(exp.id, None)
    files, outcome = result["files"], result["outcome"]
    problems = contract.check(exp, outcome)
    files[keys.KEY_FILE] = normalize.dump_json(current_inputs)
    volatile = dict(result["volatile"], ran_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    cores=os.cpu_count(), machine=hardware.cpu())
    files["volatile.json"] = normalize.dump_json(volatile)
    if problems:
        # Never cache a broken promise: keep it aside for the author to read.
        entries.write_entry(book, exp.id, files, book.outputs / ".failed" / exp.id)
    else:
        entries.write_entry(book, exp.id, files)
    return exp.id, problems, compare.verdict(outcome), time.monotonic() - t0


def build(book: Book, only: list[str] | None = None, jobs: int | None = None,
          log=print, force: bool = False, wait: bool = False) -> list[str]:
    """Rerun every stale experiment. Returns the contract problems (empty when all hold)."""
    exps = discover(book)
    if only:
        unknown = set(only) - {e.id for e in exps}
        if unknown:
            raise BookError(f"没有这些实验：{sorted(unknown)}")
        exps = [e for e in exps if e.id in only]
    problems, t0 = [], time.monotonic()
    with build_lock(book, wait, log):
        if any(e.burn or e.needs for e in exps) and book.cargo_lock.parent.joinpath("Cargo.toml").is_file():
            # cargo's members = ["crates/*"] fails on any folder without a Cargo.toml: name it.
            bare = [d.name for d in sorted(book.crates.iterdir())
                    if d.is_dir() and not (d / "Cargo.toml").is_file()]
            if bare:
                raise BookError(f"crates/ 下这些目录没有 Cargo.toml：{', '.join(bare)}；"
                                "workspace 的每个成员都要有（写完它或删掉空目录）")
            err = None if resolve.lock_has_members(book) else lock_workspace(book)
            if err:
                raise BookError(f"cargo update --workspace 失败：{err}")
        todo, skipped, compared, states = [], 0, 0, {}
        for e in exps:
            cur = keys.inputs(e, book)
            reason = "强制重跑" if force else keys.stale_reason(e, book, cur)
            lack = hardware.missing(e.requires)
            if reason is None:
                states[e.id] = {"state": "cached"}
                log(f"  cached   {e.id}")
            elif not force and keys.comparator_only(e, book, cur):
                _, probs, verdict = recompare(e, book, cur)
                why = "只有比较器变了：两侧不重跑，从缓存的输出重新比较"
                states[e.id] = {"state": "failed", "reason": probs[0]} if probs else {"state": "compared", "reason": why}
                log(f"  {'FAILED' if probs else 'compared':8} {e.id:28} {verdict}  （{why}）")
                problems += probs
                compared += 1
            elif lack:
                states[e.id] = {"state": "skipped", "reason": f"本机没有 {'、'.join(lack)}；{reason}"}
                # Not runnable here: keep what a machine that has it committed, and say so.
                skipped += 1
                log(f"  skipped  {e.id:28} 本机没有 {'、'.join(lack)}，沿用缓存的输出"
                    f"（{'缓存' + reason if entries.entry_dir(book, e.id).is_dir() else '还没有任何输出'}）")
            else:
                todo.append((e, cur, reason))
                states[e.id] = {"state": "ran", "reason": reason}
        jobs = jobs or os.cpu_count() or 1
        shared = [t for t in todo if not t[0].exclusive]
        alone = [t for t in todo if t[0].exclusive]
        if todo:  # a no-op build starts no watcher
            progress.LOG[0] = log
            progress.announce(book, [t[0] for t in todo], log)
            with faults.guard() as scratch, progress.Heartbeat(log):
                # Timing experiments run one at a time once the others are done, on a quiet machine.
                for batch, workers in ((shared, jobs), *(([t], 1) for t in alone)):
                    problems += _run_batch(batch, workers, book, scratch, states, log)
    if not only:
        states_file.write(book, states)
    log(f"实验 {len(exps)} 个：重跑 {len(todo)}，缓存命中 {len(exps) - len(todo) - skipped - compared}，"
        + (f"只重新比较 {compared}，" if compared else "")
        + (f"缺硬件跳过 {skipped}，" if skipped else "") +
        f"契约失败 {len(problems)}；用时 {time.monotonic() - t0:.1f}s")
    return problems


def _run_batch(batch, workers, book, scratch, states, log) -> list[str]:
    problems = []
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futs = {pool.submit(_one, e, book, cur, scratch): (e, reason) for e, cur, reason in batch}
        for fut in as_completed(futs):
            e, reason = futs[fut]
            try:
                exp_id, probs, verdict, secs = fut.result()
            except BookError as err:
                exp_id, probs, verdict, secs = e.id, [str(err)], "error", 0.0
            state = "FAILED" if probs else "ran"
            if probs:
                states[exp_id] = {"state": "failed", "reason": probs[0]}
            alone_mark = "（独占）" if e.exclusive else ""
            log(f"  {state:8} {exp_id:28} {secs:7.1f}s  {verdict}  （{reason}）{alone_mark}")
            problems += probs
    finally:
        # On an interrupt: queued runs never start, running ones end with their children.
        pool.shutdown(wait=True, cancel_futures=True)
    return problems
