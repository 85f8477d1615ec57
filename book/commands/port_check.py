"""`python -m book.commands.port_check [NAME…]` (`make port-check`): the crates the port generator
writes for the scan fixtures (tests/scan/fixtures/), each built as a reader builds it (cargo build
--release --offline --locked, in the book's target dir), and for each model written whole (no
todo!() in model.rs but the training guards) its check.py: the script's own state_dict and input
through both forwards, compared with the book's comparator. One line a fixture; exit 1 when a
crate does not build or a whole model's numbers differ. make test runs one fixture a commit
(tests/port/test_port_build.py); this runs them all."""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ..paths import ROOT, Book
from ..running.sides import base_env
from . import port as cmd
from .scan import read_script

FIXTURES = ROOT / "tests" / "scan" / "fixtures"
# A todo!() that runs only in training (dropout the burn layer lacks): the forward is whole.
GUARD = re.compile(r"is_autodiff\(\) \{ todo!\(")


def fixtures() -> list[str]:
    return sorted(p.stem for p in FIXTURES.glob("*.py"))


def is_whole(model_rs: str) -> bool:
    return "todo!(" not in GUARD.sub("", model_rs)


def generate(book: Book, rules: dict, name: str, out: Path) -> None:
    res = cmd.run_generator(book, rules, read_script(FIXTURES / f"{name}.py"), f"{name}.py")
    cmd.write(res["files"], out)


def check_one(book: Book, rules: dict, name: str, work: Path) -> dict:
    out = work / name
    generate(book, rules, name, out)
    return verify(book, out, name)


def verify(book: Book, out: Path, name: str) -> dict:
    """A written crate: {name, built, whole, ok, worst, log}; ok is built (its Cargo.lock
    untouched) and, for a whole model, check.py's OK for every model."""
    lock = (out / "Cargo.lock").read_bytes()
    p = subprocess.run(["cargo", "build", "--release", "--offline", "--locked", "--quiet"], cwd=out,
                       env=base_env(book), capture_output=True, text=True)
    r = {"name": name, "built": p.returncode == 0 and (out / "Cargo.lock").read_bytes() == lock,
         "whole": is_whole((out / "src" / "model.rs").read_text(encoding="utf-8")), "worst": None,
         "log": p.stderr[-4000:]}
    r["ok"] = r["built"]
    if r["built"] and r["whole"]:
        c = subprocess.run([sys.executable, "check.py"], cwd=out, env=base_env(book), capture_output=True,
                           text=True)
        # One verdict a model (gan has two): the worst of them, and all must be OK.
        found = re.findall(r"\bworst=(\S+) .*\b(OK|MISMATCH)$", c.stdout, re.M)
        r["worst"] = max(float(w) for w, _ in found) if found else None
        r["ok"] = c.returncode == 0 and bool(found) and all(v == "OK" for _, v in found)
        r["log"] = c.stdout + c.stderr[-3000:]
    return r


def line(r: dict) -> str:
    if not r["built"]:
        return f"{r['name']}：crate 没有构建成功（cargo build --release --offline --locked）"
    if not r["whole"]:
        return f"{r['name']}：构建成功；forward 里还有 todo!()，不比数字"
    worst = "没有比较结果" if r["worst"] is None else f"最大差 {r['worst']:.3g}"
    return f"{r['name']}：构建成功；和 PyTorch 比，{worst}，{'一致' if r['ok'] else '不一致'}"


def main(argv=None) -> int:
    names = (sys.argv[1:] if argv is None else argv) or fixtures()
    unknown = sorted(set(names) - set(fixtures()))
    if unknown:
        print(f"没有这些扫描样例：{unknown}（有 {fixtures()}）", file=sys.stderr)
        return 2
    book = Book()
    rules = cmd.rules(book)
    results = []
    with tempfile.TemporaryDirectory(prefix="book-port-check-") as tmp:
        for name in names:
            r = check_one(book, rules, name, Path(tmp))
            results.append(r)
            print(line(r), flush=True)
            if not r["ok"]:
                print(r["log"], file=sys.stderr)
    bad = [r["name"] for r in results if not r["ok"]]
    whole = [r["name"] for r in results if r["whole"]]
    print(json.dumps({"fixtures": len(results), "whole": whole, "failed": bad}, ensure_ascii=False))
    return 1 if bad else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
