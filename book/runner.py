"""Run every stale experiment (in parallel), check its contract, store it atomically."""
import copy
import importlib.util
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from . import cache, contract, faults, hardware, normalize, progress, sources
from .discover import Experiment, discover
from .errors import BookError
from .paths import Book
from .run import Aborted, Side, build_needs, lock_workspace, run_burn, run_compare_cli, run_python


def load_compare(book: Book):
    spec = importlib.util.spec_from_file_location("book_compare", book.compare_script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# Packages whose versions go into provenance (and the version line) when a script imports them.
TRACKED = ("torch", "numpy", "onnx", "onnxscript", "safetensors")
IMPORT_RE = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.M)


def imported(script: Path) -> list[str]:
    names = set(IMPORT_RE.findall(script.read_text(encoding="utf-8")))
    return [p for p in TRACKED if p in names]


@lru_cache(maxsize=None)
def python_packages(python: str) -> dict:
    return hardware.remembered("python-packages", [hardware.python_identity(python), list(TRACKED)],
                               lambda: _python_packages(python))


def _python_packages(python: str) -> dict:
    code = ("import importlib.metadata as m, json\n"
            "v = {}\n"
            f"for p in {TRACKED!r}:\n"
            "    try: v[p] = m.version(p)\n"
            "    except m.PackageNotFoundError: pass\n"
            "print(json.dumps(v))")
    try:
        out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return {}


def _side_files(prefix: str, side: Side, book: Book, volatile_keys: list):
    """Normalised files for one side, the parsed JSON (or None) and its volatile fields."""
    files, vol = {}, {}
    data = normalize.parse_json(side.stdout) if side.stdout.strip() else None
    if isinstance(data, dict):
        for k in volatile_keys:
            if k in data:
                vol[k] = data.pop(k)
        data = normalize.value(data, book.root)
        files[f"{prefix}.json"] = normalize.dump_json(data)
    elif side.stdout.strip():
        files[f"{prefix}.txt"] = normalize.text(side.stdout, book.root)
    if side.stderr.strip():
        name = "diagnostics" if side.status == "compile_error" else "stderr"
        files[f"{prefix}.{name}.txt"] = normalize.text(side.stderr, book.root)
    if side.detail.get("diagnostics", "").strip():
        # Warnings of a build that went through: readers see deprecations as rustc says them.
        files[f"{prefix}.diagnostics.txt"] = normalize.text(side.detail["diagnostics"], book.root)
    return files, data, vol


def _actual(side: Side, book: Book) -> dict:
    a = {"status": side.status}
    for k in ("exception", "codes", "exit_code"):
        if side.detail.get(k) is not None:
            a[k] = side.detail[k]
    if side.detail.get("panic") is not None:
        a["panic"] = normalize.text(side.detail["panic"], book.root).rstrip("\n")
    return a


def cpu_provenance(exp: Experiment, book: Book) -> dict:
    """What the kernels dispatch on. Stable across CPU classes unless the manifest lists cpu: fields."""
    here = hardware.cpu()
    prov = {"arch": here["arch"]}
    if exp.cpu:
        # These outputs belong to the CPU's class: its vendor (MKL dispatches on it) and SIMD level.
        prov.update(vendor=here["vendor"], simd=here["simd"])
    if exp.python and exp.pins:
        prov["pins"] = hardware.CPU_PINS
    if exp.python:
        prov["torch_capability"] = hardware.torch_capability(book.python, not exp.pins)
    return prov


def run_experiment(exp: Experiment, book: Book, scratch_root: Path | None = None) -> dict:
    """Run both sides for real. Returns the entry's files, its outcome and volatile data."""
    files, outcome, volatile = {}, {}, {"seconds": {}}
    provenance = {"platform": f"{platform.system().lower()}-{platform.machine()}",
                  "cpu": cpu_provenance(exp, book)}
    outputs = {}
    with tempfile.TemporaryDirectory(prefix=f"book-{exp.id}-", dir=scratch_root) as scratch:
        scratch = Path(scratch)
        build_needs(exp, book)
        if exp.python:
            (scratch / "py").mkdir()
            side = run_python(exp, book, scratch / "py")
            f, outputs["python"], vol = _side_files("python", side, book, exp.volatile)
            files.update(f)
            volatile["python"] = vol
            volatile["seconds"]["python"] = side.seconds
            outcome["python"] = {"expected": exp.python["expect"], "actual": _actual(side, book)}
            pk = python_packages(book.python)
            uses = imported(exp.script)
            provenance.update(python=cache.toolchain(book.python)["python"],
                              **{k: v for k, v in pk.items() if k in uses or k == "torch"})
        if exp.burn:
            (scratch / "burn").mkdir()
            side, build = run_burn(exp, book, scratch / "burn")
            f, outputs["burn"], vol = _side_files("burn", side, book, exp.volatile)
            files.update(f)
            volatile["burn"] = vol
            volatile["seconds"]["burn"] = side.seconds
            outcome["burn"] = {"expected": exp.burn["expect"], "actual": _actual(side, book)}
            burn_sets, flex_sets = build.features.get("burn", []), build.features.get("burn-flex", [])
            expected = (sources.feature_closure(exp.burn["features"], build.versions["burn"])
                        if burn_sets else None)
            # With a build-dependency on burn there are two sets: the binary's is the expected
            # one when nothing leaked; otherwise report the first, and the contract fails.
            compiled = expected if expected in burn_sets else (burn_sets[0] if burn_sets else None)
            if compiled is not None:
                outcome["burn"]["features"] = {"compiled": compiled, "expected": expected}
            provenance.update(
                rustc=cache.toolchain(book.python)["rustc"],
                profile=exp.burn["profile"],
                burn=build.versions.get("burn"),
                burn_features=compiled,
                flex_features=flex_sets[0] if len(flex_sets) == 1 else flex_sets or None,
                features_requested=exp.burn["features"],
            )
            # Companion crates, when the program uses them (burn-onnx: a build-dependency).
            for extra in ("burn-store", "burn-onnx"):
                if extra in build.versions:
                    provenance[extra.replace("-", "_")] = {
                        "version": build.versions[extra], "features": build.features.get(extra, [])}
    if exp.requires:
        provenance["hardware"] = hardware.describe(exp.requires)
    if exp.compare:
        outcome["compare"] = _compare(exp, book, outputs, files)
        if exp.mutation and not outcome["compare"].get("error"):
            outcome["mutation"] = _mutate(exp, book, outputs, files)
    files["outcome.json"] = normalize.dump_json(outcome)
    files["provenance.json"] = normalize.dump_json(provenance)
    return {"files": files, "outcome": outcome, "volatile": volatile}


def _compare(exp: Experiment, book: Book, outputs: dict, files: dict) -> dict:
    c = exp.compare
    res = {"expected": c["expect"], "tol": c["tol"], "why": c["why"]}
    if c["tols"]:
        res["tols"] = c["tols"]
    a, b = outputs.get("python"), outputs.get("burn")
    if not isinstance(a, dict) or not isinstance(b, dict):
        res["error"] = "两侧的标准输出必须都是 JSON 对象"
        return res
    report = load_compare(book).compare(a, b, c["tol"], c["fields"], c["tols"])
    text, code = run_compare_cli(book, a, b, c["tol"], c["fields"], c["tols"])
    files["compare.txt"] = text
    files["compare.json"] = normalize.dump_json(report)
    errors = [f"{r['field']}: {r['error']}" for r in report["fields"] if r["error"]]
    res.update(ok=report["ok"], worst=report["worst"], worst_field=report["worst_field"],
               over=report["over"], structural=report["structural"],
               exit_code=code, first_error=errors[0] if errors else None)
    if exp.rows:
        res["rows"] = row_results(exp, report)
        declared = {r["id"] for r in exp.rows}
        for side, out in (("python", a), ("burn", b)):
            got = out.get("rows") if isinstance(out.get("rows"), dict) else {}
            extra = sorted(set(got) - declared)
            if extra:
                res.setdefault("undeclared", {})[side] = extra
    return res


def row_results(exp: Experiment, report: dict) -> dict:
    """Each row of a table-driven experiment: same (every leaf within the row's tolerance),
    differs (a value out of it, or a dtype or shape that differs) or structural (missing)."""
    out = {}
    for r in exp.rows:
        name = f"rows.{r['id']}"
        leaves = [f for f in report["fields"] if f["field"] == name or f["field"].startswith(name + ".")]
        if not leaves or any(f.get("structural") for f in leaves):
            out[r["id"]] = "structural"
        elif any(f["error"] or f["field"] in report["over"] for f in leaves):
            out[r["id"]] = "differs"
        else:
            out[r["id"]] = "same"
    return out


def _mutate(exp: Experiment, book: Book, outputs: dict, files: dict) -> dict:
    """Perturb one number of a copy of the PyTorch output: the comparator must bite."""
    m = exp.mutation
    cmp = load_compare(book)
    a = copy.deepcopy(outputs["python"])
    try:
        values = cmp._get(a, m["field"])
        flat = values if isinstance(values, list) else None
        if flat is None or not flat or isinstance(flat[0], list):
            raise KeyError(m["field"])
        flat[m["index"]] += m["delta"]
    except (KeyError, IndexError):
        raise BookError(f"实验 {exp.id}：mutation.field {m['field']}[{m['index']}] "
                        "不是 PyTorch 输出里的一维数字列表") from None
    text, code = run_compare_cli(book, a, outputs["burn"], exp.compare["tol"],
                                 exp.compare["fields"], exp.compare["tols"])
    files["mutation.txt"] = text
    return dict(m, exit_code=code, text=text.strip().splitlines()[-1] if text.strip() else "")


def comparator_only(exp: Experiment, book: Book, current: dict) -> bool:
    """Whether the comparator is the only input that changed since the entry was made: then
    the sides' outputs still hold, and only the comparison is computed again."""
    stored = cache.stored_inputs(book, exp.id)
    if not stored or stored.get("toolchain") != current["toolchain"]:
        return False
    old, new = stored.get("files", {}), current["files"]
    changed = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}
    script = book.compare_script.relative_to(book.root).as_posix()
    return changed == {script} and not cache.verify_entry(cache.entry_dir(book, exp.id))


def recompare(exp: Experiment, book: Book, current: dict) -> tuple[str, list, str]:
    """The comparison (and the mutation check) again, from the cached sides' outputs. The
    sides are not run, so their files, provenance and timings stay as they were."""
    d = cache.entry_dir(book, exp.id)
    files = {f.name: f.read_text("utf-8") for f in sorted(d.iterdir())
             if f.is_file() and f.name != cache.HASH_FILE}
    for name in ("compare.txt", "compare.json", "mutation.txt"):
        files.pop(name, None)
    outcome = json.loads(files["outcome.json"])
    outcome.pop("compare", None)
    outcome.pop("mutation", None)
    if exp.compare:
        outputs = {s: json.loads(files[f"{s}.json"]) for s in ("python", "burn") if f"{s}.json" in files}
        outcome["compare"] = _compare(exp, book, outputs, files)
        if exp.mutation and not outcome["compare"].get("error"):
            outcome["mutation"] = _mutate(exp, book, outputs, files)
    files["outcome.json"] = normalize.dump_json(outcome)
    files[cache.KEY_FILE] = normalize.dump_json(current)
    problems = contract.check(exp, outcome)
    cache.write_entry(book, exp.id, files, book.outputs / ".failed" / exp.id if problems else None)
    return exp.id, problems, _verdict(outcome)


def _verdict(outcome: dict) -> str:
    parts = []
    for name in ("python", "burn"):
        if name in outcome:
            parts.append(f"{name} {outcome[name]['actual']['status']}")
    if "compare" in outcome and "rows" in outcome["compare"]:
        states = list(outcome["compare"]["rows"].values())
        parts.append("rows " + ", ".join(f"{states.count(k)} {k}" for k in ("same", "differs", "structural")
                                         if states.count(k)))
    elif "compare" in outcome and "ok" in outcome["compare"]:
        c = outcome["compare"]
        parts.append(f"compare {'OK' if c['ok'] else 'MISMATCH'} {c['worst']:.2e}")
    return ", ".join(parts)


def _one(exp: Experiment, book: Book, current_inputs: dict,
         scratch_root: Path | None = None) -> tuple[str, list, str, float]:
    t0 = time.monotonic()
    try:
        result = run_experiment(exp, book, scratch_root)
    finally:
        progress.doing(exp.id, None)
    problems = contract.check(exp, result["outcome"])
    files = dict(result["files"])
    files[cache.KEY_FILE] = normalize.dump_json(current_inputs)
    volatile = dict(result["volatile"], ran_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
                    cores=os.cpu_count(), machine=hardware.cpu())
    files["volatile.json"] = normalize.dump_json(volatile)
    if problems:
        # Never cache a broken promise: keep it aside for the author to read.
        cache.write_entry(book, exp.id, files, book.outputs / ".failed" / exp.id)
    else:
        cache.write_entry(book, exp.id, files)
    return exp.id, problems, _verdict(result["outcome"]), time.monotonic() - t0


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
    with cache.build_lock(book, wait, log):
        if any(e.burn or e.needs for e in exps) and book.cargo_lock.parent.joinpath("Cargo.toml").is_file():
            # cargo's members = ["crates/*"] fails on any folder without a Cargo.toml: name it.
            bare = [d.name for d in sorted(book.crates.iterdir())
                    if d.is_dir() and not (d / "Cargo.toml").is_file()]
            if bare:
                raise BookError(f"crates/ 下这些目录没有 Cargo.toml：{', '.join(bare)}；"
                                "workspace 的每个成员都要有（写完它或删掉空目录）")
            err = None if cache.lock_has_members(book) else lock_workspace(book)
            if err:
                raise BookError(f"cargo update --workspace 失败：{err}")
        todo, skipped, compared, states = [], 0, 0, {}
        for e in exps:
            cur = cache.inputs(e, book)
            reason = "强制重跑" if force else cache.stale_reason(e, book, cur)
            lack = hardware.missing(e.requires)
            if reason is None:
                states[e.id] = {"state": "cached"}
                log(f"  cached   {e.id}")
            elif not force and comparator_only(e, book, cur):
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
                    f"（{'缓存' + reason if cache.entry_dir(book, e.id).is_dir() else '还没有任何输出'}）")
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
        write_states(book, states)
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


STATE_FILE = ".last-build.json"


def write_states(book: Book, states: dict):
    """What the last full build did with each experiment, for the execution report (not committed)."""
    book.outputs.mkdir(parents=True, exist_ok=True)
    tmp = book.outputs / f".tmp-{STATE_FILE}"
    tmp.write_text(json.dumps({"at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               "experiments": states}, ensure_ascii=False, indent=1), "utf-8")
    os.replace(tmp, book.outputs / STATE_FILE)


def check(book: Book, log=print) -> list[str]:
    """Without running anything: every committed entry is whole, fresh and keeps its contract.

    Every problem of every entry is reported, each naming the experiment and the file.
    """
    problems = []
    here = hardware.cpu()
    for e in discover(book):
        d = cache.entry_dir(book, e.id)
        where = f"实验 {e.id}" + (f"（页面 {e.page}）" if e.page else "")
        lack = hardware.missing(e.requires)
        if not d.is_dir():
            if lack:
                log(f"注意：实验 {e.id} 需要 {'、'.join(lack)}，本机没有，不算失败：还没有在有它的机器上跑过")
            else:
                problems.append(f"{where}：没有缓存 build_outputs/{e.id}；运行 make site 生成")
            continue
        damage = cache.verify_entry(d)
        if damage:
            problems += [f"{where}：build_outputs/{e.id} 损坏：{x}" for x in damage]
            continue
        outcome = json.loads((d / "outcome.json").read_text("utf-8"))
        reason = cache.stale_reason(e, book, verify=False)  # verified just above
        if reason and lack:
            log(f"注意：实验 {e.id} 需要 {'、'.join(lack)}，本机没有，不算失败：缓存{reason}")
            problems += contract.recheck(e, outcome)
            continue
        if reason:
            problems.append(f"{where}：build_outputs/{e.id} 过期（{reason}）；运行 make site 重新生成")
            continue
        made_on = hardware.cpu_class(json.loads((d / "provenance.json").read_text("utf-8")).get("cpu", {}))
        if e.cpu and made_on and made_on != hardware.cpu_class(here):
            # Not stale: on this machine a rerun would give other last bits in e.cpu, by design.
            log(f"注意：实验 {e.id} 的输出是在 {made_on} 的 CPU 上生成的，本机是 {hardware.cpu_class(here)}；"
                f"它声明随 CPU 变化的字段（{', '.join(e.cpu)}）在这里重跑会有不同的末位，缓存照用")
        problems += contract.check(e, outcome)
    return problems


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python -m book.runner")
    ap.add_argument("command", choices=["build", "check"])
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--force", action="store_true", help="忽略缓存，重跑")
    ap.add_argument("--wait", action="store_true", help="另一个构建持有锁时等待，而不是退出")
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--root", help=argparse.SUPPRESS)  # tests: a scratch project
    args = ap.parse_intermixed_args(argv)
    book = Book(args.root) if args.root else Book()
    try:
        if args.command == "build":
            problems = build(book, args.ids or None, args.jobs, force=args.force, wait=args.wait)
        else:
            problems = check(book)
            if not problems:
                print(f"build_outputs/ 里 {len(discover(book))} 个实验的输出都是最新的，契约都成立")
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Aborted) as e:
        # faults.guard has killed the children and removed the scratch folder by now.
        print(f"构建被中断（{e or '信号'}）：正在跑的实验都已停下，没有写入任何半成品的缓存", file=sys.stderr)
        return 130
    for p in problems:
        print(f"错误：{p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
