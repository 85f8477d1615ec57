"""`python -m book.commands.scan SCRIPT [--json]` (`make scan SCRIPT=… [FORMAT=json]`): the report
of docs/scan.md's box for a script on disk. The scanning is docs/assets/scan.js's, run by node
with the rules built here on the fly (book/pages/scan_rules.py) and the parser bundle the site
publishes (book/site/pyparse.py), so the terminal and the page give the same report. Exit 0
with a report; 2 when the file is missing, unreadable or not Python text; 1 when the rules or
the parser cannot be built (the book's own error)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from ..errors import BookError
from ..pages import scan_rules
from ..paths import ROOT, Book
from ..site import pyparse

SCANNER = ROOT / "docs" / "assets" / "scan.js"
PYTHON_SUFFIXES = {".py", ".pyw"}
VERDICT = {"same": "相同", "differs": "不同", "none": "burn 没有", None: "对照表里没有"}
# What the table shows of a call's text and of its rows before it cuts.
TEXT_WIDTH = 44
ROWS_SHOWN = 3


def read_script(path: Path) -> str:
    """The script's text; BookError with one line a person can act on when it is not one."""
    if not path.exists():
        raise BookError(f"找不到文件：{path}")
    if not path.is_file():
        raise BookError(f"不是文件：{path}")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise BookError(f"读不了文件：{path}（{e.strerror or e}）") from None
    if b"\0" in data:
        raise BookError(f"不是文本文件：{path}（里面有 NUL 字节，像是二进制文件）")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BookError(f"不是 UTF-8 文本：{path}（第 {e.start} 个字节）") from None
    first = text.split("\n", 1)[0]
    if path.suffix not in PYTHON_SUFFIXES and not (first.startswith("#!") and "python" in first):
        raise BookError(f"看起来不是 Python 脚本：{path}（扩展名不是 .py，第一行也不是 python 的 #!）")
    return text


def run_scanner(rules: dict, parser: bytes, text: str) -> dict:
    """docs/assets/scan.js under node on this text with these rules and this parser bundle: its
    JSON report."""
    node = shutil.which("node")
    if node is None:
        raise BookError("要用 node 运行扫描器（docs/assets/scan.js）：PATH 里没有 node")
    with tempfile.TemporaryDirectory(prefix="book-scan-") as tmp:
        rules_file, parser_file, script = (Path(tmp) / n for n in ("rules.json", "pyparse.js", "script.py"))
        rules_file.write_text(json.dumps(rules, ensure_ascii=False), encoding="utf-8")
        parser_file.write_bytes(parser)
        script.write_text(text, encoding="utf-8")
        p = subprocess.run([node, str(SCANNER), "--rules", str(rules_file), "--parser", str(parser_file),
                            str(script)], capture_output=True, text=True, encoding="utf-8")
    if p.returncode != 0:
        raise BookError(f"扫描器出错（node 退出码 {p.returncode}）：{p.stderr.strip()[-500:]}")
    return json.loads(p.stdout)


def width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def cut(s: str, n: int) -> str:
    out = ""
    for c in s:
        if width(out + c) > n - 1:
            return out + "…"
        out += c
    return out


def pad(s: str, n: int) -> str:
    return s + " " * max(0, n - width(s))


def table(path: str, rep: dict) -> str:
    """The report as text: the summary, the pitfalls to read first, the errors, every call."""
    s = rep["summary"]
    lines = [f"扫描 {path}：{s['lines']} 行，{s['calls']} 个 torch 调用",
             f"  相同 {s['same']}，不同 {s['differs']}，burn 0.22.1 没有 {s['none']}，"
             f"对照表里没有 {s['unknown']}（按名字认出的 {s['by_name']} 个）"]
    if s["pitfalls"]:
        lines.append("先读这些坑：")
        lines += [f"  {p['calls']:>3} 处  {p['page']}/  {p['title']}" for p in s["pitfalls"]]
    for e in rep["errors"]:
        lines.append(f"语法错误：第 {e['line']} 行：{e['message']}")
    lines += ["", "  行  结果          调用" + " " * (TEXT_WIDTH - 4) + "对照表的行（reference/#…）、坑"]
    for c in rep["calls"]:
        rows = c["rows"] or []
        shown = ", ".join(rows[:ROWS_SHOWN]) + (f" 等 {len(rows)} 行" if len(rows) > ROWS_SHOWN else "")
        mark = "（按名字）" if c["by_name"] else ""
        lines.append(f"{c['line']:>4}  {pad(VERDICT[c['verdict']], 12)}  "
                     f"{pad(cut(c['text'], TEXT_WIDTH), TEXT_WIDTH)}  {shown or '—'}{mark}")
        lines += [f"{'':>20}坑：{p}/" for p in c["pitfalls"]]
    if rep.get("statements"):
        lines += ["", "不是调用、但有坑的语句："]
        lines += [f"  第 {st['line']} 行  {cut(st['text'], 60)}  坑：{'、'.join(p + '/' for p in st['pitfalls'])}"
                  for st in rep["statements"]]
    unknown = [c for c in rep["calls"] if not c["rows"]]
    if unknown:
        lines += ["", f"对照表里没有的调用（{len(unknown)} 个）："]
        lines += [f"  第 {c['line']} 行  {c['call']}  {cut(c['text'], 60)}" for c in unknown]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if len(paths) != 1 or not paths[0]:
        print("用法：make scan SCRIPT=path/to/train.py [FORMAT=json]", file=sys.stderr)
        return 2
    try:
        text = read_script(Path(paths[0]))
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    try:
        book = Book()
        rep = run_scanner(scan_rules.build(book), pyparse.bundle(book), text)
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1
    out = json.dumps(rep, ensure_ascii=False, indent=1) + "\n" if as_json else table(paths[0], rep)
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    sys.exit(main())
