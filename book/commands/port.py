"""`python -m book.commands.port SCRIPT OUT` (`make port SCRIPT=… OUT=…`): the crate the scan
page's 「生成 crate」 button downloads, written into OUT. The generating is docs/assets/port.js's,
run by node with the rules of book/port/rules.py and the parser of book/site/pyparse.py, so
the terminal and the page write the same bytes. Exit 0 with the crate written; 2 when the
script is not a readable Python file or OUT is not an empty folder; 1 when the book's own
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
DEFAULT_SITE = "http://127.0.0.1:8000/"


def rules(book: Book) -> dict:
    return port_rules.build(book, os.environ.get("SITE_URL") or DEFAULT_SITE)


def run_generator(book: Book, rules_data: dict, text: str, name: str) -> dict:
    """port.js under node: {files: {path: text}, todos, rows, pitfalls}."""
    node = shutil.which("node")
    if node is None:
        raise BookError("要用 node 运行生成器（docs/assets/port.js）：PATH 里没有 node")
    with tempfile.TemporaryDirectory(prefix="book-port-") as tmp:
        r, p, s = Path(tmp) / "rules.json", Path(tmp) / "pyparse.js", Path(tmp) / "script.py"
        r.write_text(json.dumps(rules_data, ensure_ascii=False), encoding="utf-8")
        p.write_bytes(pyparse.bundle(book))
        s.write_text(text, encoding="utf-8")
        out = subprocess.run([node, str(GENERATOR), "--rules", str(r), "--parser", str(p), "--name", name, str(s)],
                             capture_output=True, text=True, encoding="utf-8")
    if out.returncode != 0:
        raise BookError(f"生成器出错（node 退出码 {out.returncode}）：{out.stderr.strip()[-800:]}")
    return json.loads(out.stdout)


def write(files: dict, out: Path):
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if rel.endswith(".sh"):
            path.chmod(0o755)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or not all(argv):
        print("用法：make port SCRIPT=path/to/train.py OUT=目录", file=sys.stderr)
        return 2
    script, out = Path(argv[0]), Path(argv[1])
    try:
        text = read_script(script)
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise BookError(f"{out} 已经存在而且不是空目录：生成器不覆盖任何文件，换一个目录")
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    try:
        book = Book()
        res = run_generator(book, rules(book), text, script.name)
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1
    write(res["files"], out)
    print(f"写好了 {out}/：{len(res['files'])} 个文件，用到对照表的 {len(res['rows'])} 行，{len(res['todos'])} 处 todo!")
    for t in res["todos"]:
        print(f"  todo 第 {t['line']} 行（{t['where']}）：{t['why']}")
    print(f"核对：cd {out} && sh run.sh")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
