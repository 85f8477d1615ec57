"""make drift BURN=<version> TORCH=<version>: the whole book against other versions.

Everything happens in a scratch copy under .drift/ (gitignored): its own Cargo.toml pins,
its own Cargo.lock, an empty output cache and its own cargo target dir (shared between drift
runs). The committed cache and Cargo.lock are never touched. The report compares each
experiment with the committed outcome, page by page, and is written to drift/<label>.json,
which the appendix page renders (commit it to publish it).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from .. import sources
from ..checking import contract
from ..errors import BookError
from ..experiments.manifest import discover
from ..paths import ROOT, Book
from ..pipeline.build import build

SRC_RE = re.compile(r"""src\(\s*"([^"]+)"\s*,\s*"((?:[^"\\]|\\.)+)"\s*[,)]""")
PINNED = ("burn", "burn-store", "burn-onnx")


def pin_versions(cargo_toml: str, burn: str, onnx: str | None) -> str:
    """The root Cargo.toml with burn (and its companions) pinned to other versions."""
    out = cargo_toml
    for name, ver in (("burn", burn), ("burn-store", burn), ("burn-onnx", onnx)):
        if ver is None:
            continue
        pat = re.compile(rf'^({re.escape(name)}\s*=\s*(?:\{{\s*version\s*=\s*)?)"=[^"]+"', re.M)
        out, n = pat.subn(rf'\g<1>"={ver}"', out)
        if n != 1:
            raise BookError(f"根目录 Cargo.toml 里找不到 {name} 的版本钉（\"=x.y.z\"），drift 改不了它")
    return out


def published(crate: str, version: str) -> bool:
    """Whether crates.io's index (as cargo cached it) lists this version."""
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    name = crate.lower()
    for idx in sorted((home / "registry" / "index").glob("*/.cache")):
        f = idx / name[:2] / name[2:4] / name
        if f.is_file():
            data = f.read_bytes()
            if f'"vers":"{version}"'.encode() in data or f'"vers": "{version}"'.encode() in data:
                return True
    return False


def scratch_copy(label: str) -> Path:
    """The tracked files of the repo (as they are in the working tree), without build_outputs/."""
    base = ROOT / ".drift" / label
    repo = base / "repo"
    kept = base / "outputs"
    if (repo / "build_outputs").is_dir():
        # The scratch cache outlives the copy: a second drift run reruns only what changed.
        shutil.rmtree(kept, ignore_errors=True)
        (repo / "build_outputs").rename(kept)
    if repo.exists():
        shutil.rmtree(repo)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    for f in files:
        if not f or f.startswith("build_outputs/") or not (ROOT / f).is_file():
            continue
        dst = repo / f
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dst)
    if kept.is_dir():
        kept.rename(repo / "build_outputs")
    # One cargo target dir for all drift runs: a second run against the same version is warm.
    shared = ROOT / ".drift" / "target"
    shared.mkdir(parents=True, exist_ok=True)
    (repo / "target").symlink_to(shared)
    return repo


def python_for(torch: str | None, log) -> str:
    main = str(ROOT / ".venv" / "bin" / "python")
    pins = (ROOT / "requirements.lock").read_text("utf-8")
    current = re.search(r"^torch==(\S+)", pins, re.M).group(1)
    if not torch or torch == current:
        return main
    venv = ROOT / ".drift" / f"venv-torch-{torch}"
    py = venv / "bin" / "python"
    if not (venv / ".stamp").is_file():
        log(f"建 torch {torch} 的 venv：{venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        req = venv / "requirements.lock"
        req.write_text(re.sub(r"^torch==\S+", f"torch=={torch}", pins, flags=re.M), "utf-8")
        p = subprocess.run([str(py), "-m", "pip", "install", "-q", "-r", str(req)],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise BookError(f"装不上 torch {torch}：{p.stderr.strip()[-600:]}")
        (venv / ".stamp").touch()
    return str(py)


def _load(d: Path) -> dict | None:
    f = d / "outcome.json"
    return json.loads(f.read_text("utf-8")) if f.is_file() else None


SHOWN = ("python.json", "python.txt", "burn.json", "burn.txt", "burn.diagnostics.txt",
         "burn.stderr.txt", "python.stderr.txt")


def shown_files(d: Path) -> dict:
    """The outputs a page shows, to tell a changed number or message from an unchanged one."""
    # The scratch copy runs the main .venv, outside its own root: name it as the main run does.
    venv = str(ROOT / ".venv")
    return {n: (d / n).read_text("utf-8").replace(venv, "$VENV") for n in SHOWN if (d / n).is_file()}


def page_state(recs: list[dict]) -> bool | None:
    """A pitfall still reproduces when every experiment of its page keeps its contract;
    None when none failed but some could not run here."""
    if any(r["holds"] is False for r in recs):
        return False
    return None if any(r["holds"] is None for r in recs) else True


def compare_experiment(exp, old: dict | None, new: dict | None,
                       old_files: dict | None = None, new_files: dict | None = None) -> dict:
    """What moved for one experiment between the committed run and the drift run."""
    rec = {"id": exp.id, "page": exp.page or "", "changes": []}
    if new is None:
        rec["changes"].append("没有运行（需要硬件，drift 默认不跑）" if exp.requires
                              else "没有运行（构建出错）")
        rec["holds"] = None
        return rec
    rec["holds"] = not contract.recheck(exp, new)
    for name, label in (("python", "PyTorch"), ("burn", "burn")):
        o, n = (old or {}).get(name), new.get(name)
        if n is None:
            continue
        want = n["expected"]
        if want["kind"] != "ok":
            held = contract.side_holds(want, n["actual"])
            if not held:
                kind = "vanished" if n["actual"]["status"] == "ok" else "changed"
                rec.setdefault("expected_failures", []).append(
                    {"side": name, "kind": kind, "expected": contract.describe(want),
                     "actual": contract.describe_actual(n["actual"])})
        if o and contract.status_text(o) != contract.status_text(n):
            rec["changes"].append(f"{label}：{contract.status_text(o)} → {contract.status_text(n)}")
    for name in sorted((old_files or {}).keys() & (new_files or {}).keys()):
        if old_files[name] != new_files[name]:
            rec["changes"].append(f"{name} 变了")
    oc, nc = (old or {}).get("compare"), new.get("compare")
    if nc and "worst" in nc:
        rec["compare"] = {"expected": nc["expected"], "ok": nc["ok"], "tol": nc["tol"],
                          "worst": nc["worst"], "worst_before": (oc or {}).get("worst")}
        if oc and "worst" in oc and oc["worst"] != nc["worst"]:
            rec["changes"].append(f"最大误差 {oc['worst']:.3e} → {nc['worst']:.3e}")
        if oc and oc.get("ok") != nc["ok"]:
            rec["changes"].append(f"比较 {'OK' if oc.get('ok') else 'MISMATCH'} → "
                                  f"{'OK' if nc['ok'] else 'MISMATCH'}")
    elif nc and nc.get("error"):
        rec["changes"].append(f"比较不了：{nc['error']}")
    return rec


def source_links(docs: Path, old: str, new: str) -> list[dict]:
    """Every src(...) of the pages, resolved in both versions."""
    out, seen = [], set()
    for md in sorted(docs.rglob("*.md")):
        for m in SRC_RE.finditer(md.read_text("utf-8")):
            path, symbol = m.group(1), m.group(2).replace('\\"', '"')
            if (path, symbol) in seen:
                continue
            seen.add((path, symbol))
            rec = {"page": md.relative_to(docs).as_posix(), "path": path, "symbol": symbol}
            for key, ver in (("before", old), ("after", new)):
                try:
                    r = sources.resolve(path, symbol, ver)
                    rec[key] = [r["start"], r["end"]]
                except BookError as e:
                    rec[key] = None
                    rec[f"{key}_error"] = str(e)
            rec["state"] = ("missing" if rec["after"] is None else
                            "same" if rec["after"] == rec["before"] else "moved")
            out.append(rec)
    return out


def drift(burn: str | None, torch: str | None = None, onnx: str | None = None, jobs: int | None = None,
          log=print, hardware: bool = False) -> dict:
    main = Book()
    old_burn = sources.burn_version(main.cargo_lock)
    burn = burn or old_burn
    if onnx is None and published("burn-onnx", burn):
        onnx = burn
    label = f"burn-{burn}" + (f"-torch-{torch}" if torch else "")
    t0 = time.monotonic()
    repo = scratch_copy(label)
    toml = repo / "Cargo.toml"
    toml.write_text(pin_versions(toml.read_text("utf-8"), burn, onnx), "utf-8")
    (repo / "Cargo.lock").unlink(missing_ok=True)
    p = subprocess.run(["cargo", "generate-lockfile"], cwd=repo, capture_output=True, text=True)
    if p.returncode != 0:
        raise BookError(f"cargo 解析不了 burn {burn}：{p.stderr.strip()[-800:]}")
    subprocess.run(["cargo", "fetch", "--quiet"], cwd=repo, capture_output=True, text=True)
    book = Book(root=repo, python=python_for(torch, log))
    if not hardware:
        # requires: experiments (wgpu on lavapipe: an hour of compiling on 2 cores) are left
        # out unless asked for; the report lists them as not run.
        os.environ["BOOK_HARDWARE"] = ""
    new_burn = sources.burn_version(book.cargo_lock)
    log(f"drift：{label}，在 {repo} 里构建和运行全部实验（已提交的缓存和 Cargo.lock 不动）")
    problems = build(book, jobs=jobs, log=log)
    exps = discover(book)
    records = []
    for e in exps:
        new_dir = book.outputs / e.id
        if not (new_dir / "outcome.json").is_file():
            new_dir = book.outputs / ".failed" / e.id
        records.append(compare_experiment(e, _load(main.outputs / e.id), _load(new_dir),
                                          shown_files(main.outputs / e.id), shown_files(new_dir)))
    links = source_links(main.root / "docs", old_burn, new_burn)
    pitfall_pages = sorted({r["page"] for r in records if r["page"].startswith("10-pitfalls/")})
    report = {
        "label": label,
        "from": {"burn": old_burn, "torch": re.search(r"^torch==(\S+)", main.pins.read_text(), re.M).group(1)},
        "to": {"burn": new_burn, "burn-onnx": onnx, "torch": torch or "（不变）"},
        "experiments": records,
        "pitfalls": {p: page_state([r for r in records if r["page"] == p]) for p in pitfall_pages},
        "links": links,
        "contract_problems": len(problems),
        "minutes": round((time.monotonic() - t0) / 60, 1),
    }
    out = ROOT / "drift" / f"{label}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    log(f"报告：{out.relative_to(ROOT)}")
    return report


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m book.commands.drift")
    ap.add_argument("--burn", help="另一个 burn 版本，如 0.23.0-pre.1（默认不变）")
    ap.add_argument("--torch", help="另一个 torch 版本（默认不变）")
    ap.add_argument("--onnx", help="burn-onnx 的版本（默认：和 burn 同号，如果 crates.io 有）")
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--hardware", action="store_true",
                    help="也跑 requires: 的实验（本机有硬件时；wgpu 要多编译很久）")
    args = ap.parse_args(argv)
    if not args.burn and not args.torch:
        print("用法：make drift BURN=<版本> [TORCH=<版本>]（至少给一个）", file=sys.stderr)
        return 2
    try:
        r = drift(args.burn, args.torch or None, args.onnx, args.jobs, hardware=args.hardware)
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    from ..pages.drift_report import headline
    print(headline(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
