"""`python -m book.commands.port SCRIPT OUT` (`make port SCRIPT=… OUT=…`): the crate the scan
page's 「生成 crate」 button downloads, written into OUT. With `--tar`, OUT is a file: the very
burn-port.tar.gz the page's button downloads (docs/assets/targz.js under node, same bytes). The generating is docs/assets/port.js's,
run by node with the rules of book/port/rules.py and the parser of book/site/pyparse.py, so
the terminal and the page write the same bytes. Exit 0 with the crate written; 2 when the
script is not a readable Python file or OUT is not an empty folder (with --tar: OUT exists); 1 when the book's own
rules cannot be built."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import BookError
from ..paths import ROOT, Book
from ..port import rules as port_rules
from ..site import pyparse
from .scan import read_script

GENERATOR = ROOT / "docs" / "assets" / "port.js"
TARGZ = ROOT / "docs" / "assets" / "targz.js"
TOP = "burn-port"  # the archive's top folder, as on the page (docs/assets/port-page.js)
# node -e TARGZ_JS PORT TARGZ RULES PYPARSE SCRIPT NAME OUT: the archive into OUT, the rest as JSON.
TARGZ_JS = """const fs = require('fs'); const [port, targz, rules, parser, script, name, out] = process.argv.slice(1);
const p = require(port); p.useParser(require(parser));
const res = p.crate(fs.readFileSync(script, 'utf8'), JSON.parse(fs.readFileSync(rules, 'utf8')), {script: name});
fs.writeFileSync(out, require(targz).tarGz(res.files, %s));
process.stdout.write(JSON.stringify({files: Object.keys(res.files).length, todos: res.todos, rows: res.rows}));""" % json.dumps(TOP)
DEFAULT_SITE = "http://127.0.0.1:8000/"


def rules(book: Book) -> dict:
    return port_rules.build(book, os.environ.get("SITE_URL") or DEFAULT_SITE)


def run_generator(book: Book, rules_data: dict, text: str, name: str, tar: bool = False) -> dict:
    """port.js under node: {files: {path: text}, todos, rows, pitfalls}; with tar, {files: how
    many, todos, rows, archive: the .tar.gz's bytes}."""
    node = shutil.which("node")
    if node is None:
        raise BookError("要用 node 运行生成器（docs/assets/port.js）：PATH 里没有 node")
    with tempfile.TemporaryDirectory(prefix="book-port-") as tmp:
        r, p, s = Path(tmp) / "rules.json", Path(tmp) / "pyparse.js", Path(tmp) / "script.py"
        r.write_text(json.dumps(rules_data, ensure_ascii=False), encoding="utf-8")
        p.write_bytes(pyparse.bundle(book))
        s.write_text(text, encoding="utf-8")
        a = Path(tmp) / "out.tar.gz"
        cmd = ([node, "-e", TARGZ_JS, str(GENERATOR), str(TARGZ), str(r), str(p), str(s), name, str(a)] if tar else
               [node, str(GENERATOR), "--rules", str(r), "--parser", str(p), "--name", name, str(s)])
        out = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
        if out.returncode != 0:
            raise BookError(f"生成器出错（node 退出码 {out.returncode}）：{out.stderr.strip()[-800:]}")
        res = json.loads(out.stdout)
        if tar:
            res["archive"] = a.read_bytes()
    return res


def write(files: dict, out: Path):
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.endswith(".sh"):
            path.chmod(0o755)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    tar = "--tar" in argv
    argv = [a for a in argv if a != "--tar"]
    if len(argv) != 2 or not all(argv):
        print("用法：make port SCRIPT=path/to/train.py OUT=目录"
              "（或 python -m book.commands.port SCRIPT OUT.tar.gz --tar）", file=sys.stderr)
        return 2
    script, out = Path(argv[0]), Path(argv[1])
    try:
        text = read_script(script)
        if tar and out.exists():
            raise BookError(f"{out} 已经存在：生成器不覆盖任何文件，换一个文件名")
        if not tar and out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise BookError(f"{out} 已经存在而且不是空目录：生成器不覆盖任何文件，换一个目录")
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    try:
        book = Book()
        res = run_generator(book, rules(book), text, script.name, tar=tar)
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1
    if tar:
        out.write_bytes(res["archive"])
        count, where = res["files"], f"{out}（{TOP}/ 下）"
    else:
        write(res["files"], out)
        count, where = len(res["files"]), f"{out}/"
    print(f"写好了 {where}：{count} 个文件，用到对照表的 {len(res['rows'])} 行，{len(res['todos'])} 处 todo!")
    for t in res["todos"]:
        print(f"  todo 第 {t['line']} 行（{t['where']}）：{t['why']}")
    print(f"核对：tar xzf {out} && cd {TOP} && sh run.sh" if tar else f"核对：cd {out} && sh run.sh")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
