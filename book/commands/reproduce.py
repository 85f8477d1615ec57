"""Rerun experiments into a scratch cache and hold them against the committed entries.

    python -m book.commands.reproduce [ID ...]     (make reproduce IDS="a b")
    python -m book.commands.reproduce --shard k/N [--hardware cuda] [--records FILE]
                                                   (make reproduce SHARD=k/N HARDWARE=… RECORDS=…)

Each experiment that holds gets a line in the ledger, build_outputs/reproductions.jsonl
(its entry's key, the commit, this CPU's class, the date); one that does not gets none.

Byte for byte, except where the manifest says so: an experiment with `cpu:` fields, rerun on
a CPU of another class (vendor and SIMD level) than the one that made its entry, must keep its outcomes, every
other field and every text exactly, and its `cpu:` float fields within the comparison's
tolerance, or `cpu_tol:` where it compares nothing (a declared hash or flag may differ).
volatile.json (timings) is never compared.
"""
import json
import sys
import tempfile
from pathlib import Path

from .. import hardware
from ..cache import ledger
from ..cache.keys import stored_inputs
from ..checking.compare import load_compare
from ..errors import BookError
from ..experiments.manifest import Experiment, discover
from ..paths import Book
from ..pipeline.build import build

# Files computed from the others: when those are held to their rules, these follow.
DERIVED = {"compare.json", "compare.txt", "mutation.txt", "outcome.json", "hashes.json"}
NEVER = {"volatile.json"}


def _json(p: Path):
    return json.loads(p.read_text(encoding="utf-8"))


def _cpu_class(d: Path) -> str | None:
    return hardware.cpu_class(_json(d / "provenance.json").get("cpu", {}))


def _under(path: str, prefixes: list[str]) -> bool:
    return any(path == q or path.startswith(q + ".") for q in prefixes)


def _leaves(cmp, data: dict, prefixes: list[str]) -> tuple[dict, dict]:
    """({leaf path: value} outside the prefixes, the same for the leaves under them)."""
    rest, cpu = {}, {}
    for path, v in cmp._leaves(data, ""):
        (cpu if _under(path, prefixes) else rest)[path] = v
    return rest, cpu


def differences(exp: Experiment, book: Book, committed: Path, fresh: Path, only: str = "") -> list[str]:
    """What the fresh entry breaks of the committed one's promises (empty when it holds).
    only="python.": the fresh entry holds the PyTorch side alone (see rerun_python)."""
    old = {p.name for p in committed.iterdir() if p.name.startswith(only)} - NEVER
    new = {p.name for p in fresh.iterdir() if p.name.startswith(only)} - NEVER
    if old != new:
        return [f"{exp.id}：文件不同：只在缓存里 {sorted(old - new)}，只在重跑里 {sorted(new - old)}"]
    made_on = _cpu_class(committed)
    here = hardware.cpu_class(hardware.cpu()) if only else _cpu_class(fresh)
    if not exp.cpu or made_on == here:
        return [f"{exp.id}：{n} 和缓存的不是逐字节相同" for n in sorted(new)
                if (committed / n).read_bytes() != (fresh / n).read_bytes()]
    return _across_classes(exp, book, committed, fresh, made_on, here, new)


def _across_classes(exp, book, committed, fresh, made_on, here, names) -> list[str]:
    cmp = load_compare(book)
    where = f"{exp.id}（缓存来自 {made_on}，这里是 {here}）"
    problems = []
    if "outcome.json" in names:
        a, b = _json(committed / "outcome.json"), _json(fresh / "outcome.json")
        for side in ("python", "burn"):
            if side in a and a[side]["actual"].get("status") != b.get(side, {}).get("actual", {}).get("status"):
                problems.append(f"{where}：{side} 的结局变了")
        if "compare" in a and a["compare"].get("ok") != b.get("compare", {}).get("ok"):
            problems.append(f"{where}：比较的结论变了")
    c = exp.compare or {}
    for n in sorted(set(names) - DERIVED - NEVER):
        side = n.split(".")[0]
        if n == f"{side}.json" and side in ("python", "burn"):
            mine = [p[len(side) + 1:] for p in exp.cpu if p.startswith(side + ".")]
            rest_a, cpu_a = _leaves(cmp, _json(committed / n), mine)
            rest_b, cpu_b = _leaves(cmp, _json(fresh / n), mine)
            if rest_a != rest_b:
                changed = sorted(k for k in rest_a.keys() | rest_b.keys() if rest_a.get(k) != rest_b.get(k))
                problems.append(f"{where}：{n} 在 cpu: 以外的字段变了：{', '.join(changed[:5])}")
            if set(cpu_a) != set(cpu_b):
                problems.append(f"{where}：{n} 的 cpu: 字段一边有一边没有")
                continue
            # Floats move within the tolerance; a declared hash or flag may simply differ.
            floats = [k for k, v in cpu_a.items()
                      if all(isinstance(x, float) for x in cmp._flat(v)) and list(cmp._flat(v))]
            cpu_a = {k: cpu_a[k] for k in floats}
            cpu_b = {k: cpu_b[k] for k in floats}
            tol = exp.cpu_tol if exp.cpu_tol is not None else c.get("tol", 0.0)
            rep = cmp.compare(cpu_a, cpu_b, tol, None, c.get("tols"))
            if cpu_a and not rep["ok"]:
                problems.append(f"{where}：{n} 的 cpu: 字段超出容差：最大误差 {rep['worst']:.2e}"
                                f"（{rep['worst_field']}），容差 {tol:g}")
        elif n == "provenance.json":
            pa, pb = _json(committed / n), _json(fresh / n)
            for prov in (pa, pb):  # what the CPU offers, and what torch then dispatches on
                for k in ("vendor", "simd", "torch_capability"):
                    prov.get("cpu", {}).pop(k, None)
            if pa != pb:
                problems.append(f"{where}：provenance.json 除 CPU 以外变了")
        elif (committed / n).read_bytes() != (fresh / n).read_bytes():
            problems.append(f"{where}：{n} 和缓存的不是逐字节相同")
    return problems


def rerun(book: Book, ids: list[str], log=print) -> dict[str, list[str]]:
    """Force-run the given experiments into a scratch cache: experiment id → every promise of
    its committed entry the rerun broke, as text (empty: it reproduced)."""
    exps = {e.id: e for e in discover(book)}
    unknown = sorted(set(ids) - set(exps))
    if unknown:
        raise BookError(f"没有这些实验：{unknown}")
    with tempfile.TemporaryDirectory(prefix="book-reproduce-") as d:
        scratch = Book(book.root, book.python, outputs_dir=Path(d))
        failed = build(scratch, only=ids, force=True, log=log)
        out = {}
        for i in ids:
            if not (Path(d) / i).is_dir():
                out[i] = [p for p in failed if i in p] or [f"{i}：重跑没有写出输出"]
            else:
                out[i] = differences(exps[i], book, book.outputs / i, Path(d) / i)
    return out


# --- the rotating sample make test reproduces --------------------------------------------------
# Each commit reruns SAMPLE_SIZE experiments, the next window of the rotation; consecutive
# commits take consecutive windows, so every eligible experiment is reached within
# ceil(eligible / SAMPLE_SIZE) commits. Eligible: runnable on any machine without compiling a
# burn feature set the suite does not compile anyway, i.e. both sides where the burn side uses
# the suite's set, the PyTorch side alone elsewhere; not exclusive (timings), no needs, no requires.
SAMPLE_SIZE = 6


def build_signature(book: Book, exp: Experiment) -> str:
    """What decides which variant of burn a crate's build compiles: its dependency tables as
    written (features included) and its profile. Cargo resolves features per build, so two
    crates with the same burn features compile burn twice when one also pulls serde_json's
    defaults and the other does not; equal tables (with the one Cargo.lock) give one variant."""
    import tomllib
    toml = tomllib.loads((book.crates / exp.burn["crate"] / "Cargo.toml").read_text(encoding="utf-8"))
    tables = {k: toml.get(k) for k in ("dependencies", "build-dependencies", "target")}
    return json.dumps([tables, exp.burn["profile"]], sort_keys=True)


def suite_signatures(book: Book, fixed: list[str], exps: dict | None = None) -> set[str]:
    exps = exps or {e.id: e for e in discover(book)}
    return {build_signature(book, exps[i]) for i in fixed if exps[i].burn}


def eligible(book: Book, fixed: list[str]) -> list[tuple[str, str]]:
    """(experiment id, "both" or "python"), sorted by id. fixed: the experiments the suite
    always reruns; a burn side is cheap where its crate builds the very variant of burn
    theirs do (build_signature: the same dependency tables and profile)."""
    exps = {e.id: e for e in discover(book)}
    suite = suite_signatures(book, fixed, exps)
    out = []
    for e in sorted(exps.values(), key=lambda e: e.id):
        if e.requires or e.exclusive or e.needs or not (book.outputs / e.id).is_dir():
            continue
        if not e.burn or build_signature(book, e) in suite:
            out.append((e.id, "both"))
        elif e.python:
            out.append((e.id, "python"))
    return out


def position(book: Book) -> int:
    """Where the commit being tested stands in the rotation: its number of ancestors (a
    shallow clone has none to count: then its hash), 0 outside git."""
    if _git(book, "rev-parse", "--is-shallow-repository") == "false":
        count = _git(book, "rev-list", "--count", "HEAD")
        if count.isdigit():
            return int(count)
    head = _git(book, "rev-parse", "HEAD")
    return int(head[:8], 16) if head else 0


def majority_class(book: Book, ids) -> str | None:
    """The CPU class that made most of these entries (volatile.json's machine)."""
    from collections import Counter
    seen = Counter()
    for i in ids:
        try:
            seen[hardware.cpu_class(_json(book.outputs / i / "volatile.json").get("machine") or {})] += 1
        except (OSError, ValueError):
            pass
    seen.pop(None, None)
    return seen.most_common(1)[0][0] if seen else None


def sample(book: Book, pos: int, fixed: list[str], size: int = SAMPLE_SIZE,
           here: str | None = None) -> list[tuple[str, str]]:
    """This commit's window of the rotation. On a CPU of another class than most entries,
    the experiments with cpu: fields and those never reproduced on this class come first."""
    cands = eligible(book, fixed)
    if not cands:
        return []
    start = (pos * size) % len(cands)
    order = cands[start:] + cands[:start]
    here = here or hardware.cpu_class(hardware.cpu())
    if here != majority_class(book, [i for i, _ in cands]):
        exps = {e.id: e for e in discover(book)}
        keys = {i: (stored_inputs(book, i) or {}).get("key") for i, _ in cands}
        done = ledger.current(book, keys)
        first = [c for c in order if exps[c[0]].cpu] + [c for c in order if here not in done.get(c[0], {})]
        order = list(dict.fromkeys(first + order))
    return order[:size]


def rerun_python(book: Book, exp: Experiment, into: Path) -> Path:
    """The PyTorch side alone, run as the build runs it, its files written to into/<id>/."""
    import dataclasses
    from ..pipeline.build import run_and_compare
    bare = dataclasses.replace(exp, burn=None, compare=None, mutation=None, needs=[], rows=[])
    files = run_and_compare(bare, book)["files"]
    d = into / exp.id
    d.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        if name.startswith("python."):
            (d / name).write_text(text, encoding="utf-8")
    return d


def _git(book: Book, *args) -> str:
    """git's answer in the book's checkout; "" where it has none (not a git checkout)."""
    import subprocess
    p = subprocess.run(["git", *args], cwd=book.root, capture_output=True, text=True)
    return p.stdout.strip() if p.returncode == 0 else ""


def record(book: Book, ids: list[str]) -> list[dict]:
    """The ledger's lines for experiments that reproduced here, today."""
    from datetime import datetime, timezone
    commit, cpu = _git(book, "rev-parse", "HEAD") or "unknown", hardware.cpu_class(hardware.cpu()) or "unknown"
    date = datetime.now(timezone.utc).date().isoformat()
    return [{"id": i, "key": (stored_inputs(book, i) or {}).get("key", ""), "commit": commit,
             "cpu": cpu, "date": date} for i in ids]


def _args(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="python -m book.commands.reproduce")
    ap.add_argument("ids", nargs="*", help="实验 id（默认：全部不需要硬件的）")
    ap.add_argument("--shard", help="k/N：只重跑 N 份里的第 k 份（按记录的运行时间分）")
    ap.add_argument("--hardware", help="只重跑第一个硬件要求是它的实验（cuda、vulkan）")
    ap.add_argument("--records", help="把这次的结果（held、failed、skipped）写成 JSON 行，给 ledger_merge 合并")
    return ap.parse_args(argv)


def main(argv=None):
    from ..pipeline import shards
    args = _args(sys.argv[1:] if argv is None else argv)
    book = Book()
    try:
        exps = discover(book)
        if args.ids and (args.shard or args.hardware):
            raise BookError("IDS 和 SHARD / HARDWARE 只写一种")
        if args.shard or args.hardware:
            ids = shards.select(book, exps, args.shard, args.hardware)
        else:
            ids = args.ids or [e.id for e in exps if not e.requires]
        # A hardware group on a machine without that hardware: skipped, never reproduced.
        missing = args.hardware and not hardware.available(args.hardware)
        skipped = [i for i in ids if missing and i in {e.id for e in exps if e.requires}]
        ids = [i for i in ids if i not in skipped]
        results = rerun(book, ids) if ids else {}
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    held = [i for i in ids if not results[i]]
    problems = [p for i in ids for p in results[i]]
    # What held goes into the ledger; a failure records nothing (and fails the command).
    ledger.append(book, record(book, held))
    if args.records:
        from ..paths import write_atomic
        status = {**{i: "held" for i in held}, **{i: "failed" for i in ids if results[i]},
                  **{i: "skipped" for i in skipped}}
        recs = record(book, sorted(status))
        write_atomic(Path(args.records), "".join(
            json.dumps(dict(r, status=status[r["id"]]), ensure_ascii=False) + "\n" for r in recs))
    for p in problems:
        print(f"错误：{p}", file=sys.stderr)
    for i in skipped:
        print(f"跳过 {i}：这台机器没有 {args.hardware}，没有重跑，也不算复现")
    print(f"{len(held)} 个实验重跑后和缓存一致（逐字节；cpu: 字段在另一类 CPU 上按容差），"
          f"记进 build_outputs/{ledger.FILE}" + (f"；{len(ids) - len(held)} 个不一致" if problems else "")
          + (f"；{len(skipped)} 个跳过" if skipped else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
