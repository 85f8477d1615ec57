"""The entries of a table-driven experiment (the torch → burn map): read, checked, and tied to
the code that runs them. A map experiment names its topics in its manifest (`topics:`); each
topic is one file of rows next to the manifest (<manifest>/<topic>.yaml), one file of modules
in the crate (src/<topic>.rs) and one module of the PyTorch script's package (<script>/<topic>.py),
so that a row's three parts are found under one name. A small table may list `rows:` inline."""
import ast
import json
import re
import sys
from pathlib import Path

import yaml

from .. import sources
from ..errors import BookError
from ..paths import Book, sha
from . import regions

# libyaml's loader is about 10 times faster and reads the same safe subset.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ROW_KEYS = {"id", "topic", "torch", "burn", "src", "tol", "verdict", "how", "spellings", "fix",
            "pitfall", "when"}
# What only the pages, the search and the scan show: editing these reruns nothing (cache/keys.py).
# `when`: the condition a row is about ("模型里有 nn.LSTM 时"): the scan lists such a row after
# the others and takes a call's verdict and pitfalls from the unconditional rows when it has any.
DISPLAY_KEYS = {"how", "src", "topic", "spellings", "pitfall", "when"}
# Each spelling a script may use for the row's call: torch.sort, Tensor.sort (the method),
# F.cross_entropy, nn.CrossEntropyLoss. The search index and the script scan read them.
SPELLING_RE = re.compile(r"^(torch|Tensor|F|nn)(\.[A-Za-z_][A-Za-z0-9_]*)+$")
# A row's explanation stands alone: the table can be filtered and linked to one row.
NEIGHBOUR_RE = re.compile(r"[上下]一行|[上下]面[一那]?行")
ROW_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_]*$")
# A topic names three files (.yaml, .rs, .py): a Rust module name and a Python module name that
# shadows nothing the script imports (the package's folder comes first on sys.path).
TOPIC_RE = re.compile(r"^[a-z][a-z0-9_]*$")
RESERVED = {"main", "lib", "mod", "harness", "torch", "numpy", "self", "super", "crate", "type",
            "match", "loop", "move", "ref", "use", "fn", "impl", "where", "async"}
TOPIC_FILE_KEYS = {"topic", "rows"}
# A row's pitfall page: a docs page as `page:` names it (10-pitfalls/clip-grad-norm), with
# `kind: pitfall` in its front matter. The map links it and the page links back.
PITFALL_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)*$")
PITFALL_KIND_RE = re.compile(r"^kind: *pitfall *$", re.M)
VERDICTS = ("same", "differs", "none")


def fail(path, msg):
    raise BookError(f"实验清单 {path}：{msg}")


def topics_dir(manifest: Path) -> Path:
    return manifest.with_suffix("")


def row_file(manifest: Path, topic: str) -> Path:
    return topics_dir(manifest) / f"{topic}.yaml"


def where(manifest: Path, row: dict) -> Path:
    """The file a row is written in: its topic's file, or the manifest itself."""
    return row_file(manifest, row["file"]) if row.get("file") else manifest


def _check_pitfall(path, rid, page, docs: Path) -> None:
    """A row's `pitfall:` names an existing pitfall page of docs/ (without .md)."""
    if not isinstance(page, str) or not PITFALL_RE.match(page):
        fail(path, f"行 {rid}：pitfall 要写 docs 下的页面，不带 .md（如 10-pitfalls/clip-grad-norm），"
                    f"得到 {page!r}")
    md = docs / f"{page}.md"
    try:
        text = md.read_text(encoding="utf-8")
    except OSError:
        fail(path, f"行 {rid}：pitfall 指向的页面不存在：docs/{page}.md")
    front = text[4:text.find("\n---\n", 3)] if text.startswith("---\n") else ""
    if not PITFALL_KIND_RE.search(front):
        fail(path, f"行 {rid}：pitfall 指向的 docs/{page}.md 不是坑页（front matter 里没有 kind: pitfall）")


def _row(path, where_, r, docs: Path, topic: str | None) -> dict:
    """One entry, checked; `topic` is its file's topic (None: the row says its own)."""
    if not isinstance(r, dict):
        fail(path, f"{where_} 必须是映射，如 {{id: reshape, topic: 形状, torch: ..., burn: ...}}")
    check_keys(path, where_, r, ROW_KEYS)
    rid = r.get("id")
    if not isinstance(rid, str) or not ROW_ID_RE.match(rid):
        fail(path, f"{where_}：id 必须是小写字母、数字和下划线，得到 {rid!r}")
    if topic is not None:
        if "topic" in r:
            fail(path, f"行 {rid}：topic 写在文件头（topic: {topic}），行里不再写")
        r = dict(r, topic=topic)
    for k in ("topic", "torch"):
        if not isinstance(r.get(k), str) or not r[k].strip():
            fail(path, f"行 {rid}：{k} 必须是非空字符串")
    if "burn" in r:
        fail(path, f"行 {rid}：burn 的代码来自 crate 里的 mod {rid}，清单里不再写 burn:")
    sp = r.get("spellings")
    if sp is None:
        fail(path, f"行 {rid}：缺 spellings（脚本里可能出现的每种写法，如 [Tensor.sort, torch.sort]）")
    if not (isinstance(sp, list) and sp and all(
            isinstance(x, str) and SPELLING_RE.match(x) for x in sp) and len(set(sp)) == len(sp)):
        fail(path, f"行 {rid}：spellings 必须是不重复的写法的列表，每个形如 torch.sort、"
                    f"Tensor.sort、F.cross_entropy、nn.CrossEntropyLoss，得到 {sp!r}")
    if NEIGHBOUR_RE.search(str(r.get("how", ""))):
        fail(path, f"行 {rid}：how 提到了「上一行／下一行」：表会被筛选、被单独链接，"
                    "用 fix: 指向那一行，或把话说完整")
    verdict = r.get("verdict", "same")
    if verdict not in VERDICTS:
        fail(path, f"行 {rid}：verdict 只能是 {list(VERDICTS)}，得到 {verdict!r}")
    if verdict == "differs" and not str(r.get("how", "")).strip():
        fail(path, f"行 {rid}：verdict 是 differs 时要用 how 写明哪里不同")
    tol = r.get("tol")
    if tol is not None and (not isinstance(tol, (int, float)) or isinstance(tol, bool) or tol < 0):
        fail(path, f"行 {rid}：tol 必须是非负数，得到 {tol!r}")
    src = r.get("src")
    if src is not None and not (isinstance(src, list) and len(src) == 2
                                and all(isinstance(x, str) and x for x in src)):
        fail(path, f"行 {rid}：src 必须是 [burn 仓库里的路径, 符号]，得到 {src!r}")
    pitfall = r.get("pitfall")
    if pitfall is not None:
        _check_pitfall(path, rid, pitfall, docs)
    when = r.get("when")
    if when is not None and not (isinstance(when, str) and when.strip().endswith("时")):
        fail(path, f"行 {rid}：when 写这一行讲的情形，以「时」结尾（如 模型里有 nn.LSTM 时），得到 {when!r}")
    return {"id": rid, "topic": r["topic"].strip(), "torch": r["torch"],
            "src": src, "tol": None if tol is None else float(tol), "verdict": verdict,
            "how": str(r.get("how", "")).strip(), "spellings": list(sp),
            "fix": r.get("fix"), "pitfall": pitfall, "when": when.strip() if when else None}


def check_keys(path, where_, got, allowed):
    extra = set(got) - allowed
    if extra:
        fail(path, f"{where_} 里有不认识的键 {sorted(extra)}；允许的键是 {sorted(allowed)}")


def _load_yaml(path: Path):
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
    except OSError:
        raise BookError(f"实验清单 {path.parent.with_suffix('.yaml')}：topics 里的主题没有行文件 {path}")
    except yaml.YAMLError as e:
        fail(path, f"不是合法的 YAML：{e}")


def _topics(path: Path, topics) -> list[str]:
    if not (isinstance(topics, list) and topics and all(isinstance(t, str) for t in topics)
            and len(set(topics)) == len(topics)):
        fail(path, f"topics 必须是不重复的主题名的非空列表，得到 {topics!r}")
    for t in topics:
        if not TOPIC_RE.match(t) or t in RESERVED or t in sys.stdlib_module_names:
            fail(path, f"topics 里的 {t!r} 要是小写字母、数字和下划线，且不是 Rust 关键字、"
                        "main、harness 或 Python 标准库的模块名（它同时是 .rs 和 .py 的文件名）")
    folder = topics_dir(path)
    stray = sorted(p.name for p in folder.glob("*.yaml") if p.stem not in topics) if folder.is_dir() else []
    if stray:
        fail(path, f"{folder.name}/ 里有 topics 没有列出的行文件 {stray}")
    return topics


def load(path: Path, data: dict, compare, docs: Path) -> tuple[list, list]:
    """(the entries, checked, with the topic file each came from; the topics), ([], []) when
    the manifest has no table."""
    inline, topics = data.get("rows"), data.get("topics")
    if inline is None and topics is None:
        return [], []
    if inline is not None and topics is not None:
        fail(path, "rows 和 topics 只写一个：行要么写在清单里，要么按主题写在清单旁的文件夹里")
    if compare is None:
        fail(path, "rows 需要 compare（tol 和 why 是没写 tol 的行的容差）")
    if compare.get("fields") is not None or compare["expect"] != "match":
        fail(path, "有 rows 时不写 compare.fields 和 compare.expect：每一行自己就是一个字段，"
                    "行的 verdict 就是它的期望")
    entries = []  # (file holding the row, where in it, the row, its file's topic title, topic)
    if topics is None:
        if not isinstance(inline, list) or not inline:
            fail(path, "rows 必须是非空的列表，每项一行")
        entries = [(path, f"rows 第 {i + 1} 项", r, None, None) for i, r in enumerate(inline)]
    else:
        for t in _topics(path, topics):
            f = row_file(path, t)
            head = _load_yaml(f)
            if not isinstance(head, dict):
                fail(f, "顶层必须是映射：topic: <页面上的主题名> 和 rows: [每项一行]")
            check_keys(f, "顶层", head, TOPIC_FILE_KEYS)
            title, rows = head.get("topic"), head.get("rows")
            if not isinstance(title, str) or not title.strip():
                fail(f, "topic 必须是非空字符串（页面上的主题名）")
            if not isinstance(rows, list) or not rows:
                fail(f, "rows 必须是非空的列表，每项一行")
            entries += [(f, f"rows 第 {i + 1} 项", r, title, t) for i, r in enumerate(rows)]
    out, seen = [], {}
    for f, w, r, title, t in entries:
        row = dict(_row(f, w, r, docs, title), file=t)
        if row["id"] in seen:
            fail(f, f"{w}：id {row['id']!r} 重复（{seen[row['id']].name} 里已有）")
        seen[row["id"]] = f
        out.append(row)
    ids = {r["id"]: r for r in out}
    for r in out:
        fix = r["fix"]
        if r["verdict"] == "differs" and fix is None:
            fail(where(path, r), f"行 {r['id']}：verdict 是 differs，要用 fix: 指向一行能跑、和 PyTorch 对上的写法")
        if fix is not None and (fix not in ids or ids[fix]["verdict"] == "differs" or fix == r["id"]):
            fail(where(path, r), f"行 {r['id']}：fix: {fix!r} 要指向同一个清单里 verdict 为 same 或 none 的另一行")
    return out, list(topics or [])


def check_sources(path, rows, book: Book) -> None:
    """Each row's src: names a symbol burn's source has, checked before anything runs (the
    page's link would fail only at render time, after the rerun). A workspace without burn in
    its Cargo.lock (the tests' scratch ones) has no source to look in."""
    if not rows or not any(r["src"] for r in rows):
        return
    try:
        sources.burn_version(book.cargo_lock)
    except BookError:
        return
    for r in rows:
        if r["src"]:
            try:
                sources.link(book, *r["src"])
            except BookError as e:
                fail(where(path, r), f"行 {r['id']}：src {r['src']}：{e}")


def attach_code(path, rows, topics, src: Path) -> None:
    """Each row's burn code: its module in the crate (regions.py), in src/<topic>.rs when the
    table has topics."""
    crate = f"crates/{src.parent.name}/src"
    try:
        mods, files = regions.row_modules(src), regions.module_files(src)
    except (OSError, ValueError) as e:
        fail(path, f"{crate}：{e}")
    ids = [r["id"] for r in rows]
    missing = [i for i in ids if i not in mods]
    extra = [m for m in mods if m not in ids]
    if missing or extra:
        fail(path, f"crate 的行模块（mod <行 id> {{ … }}）和清单的行要一一对应：没有模块的行 {missing}，"
                    f"没有行的模块 {extra}")
    if topics:
        misplaced = [f"{r['id']}（在 {files[r['id']]}，应在 {r['file']}.rs）" for r in rows
                     if files[r["id"]] != f"{r['file']}.rs"]
        if misplaced:
            fail(path, f"{crate}：行模块要写在它的主题的文件里：{'；'.join(misplaced)}")
    for r in rows:
        r["code"] = mods[r["id"]]


def check_script(path, rows, topics, script: Path) -> None:
    """With topics, the PyTorch side is a package (<script>/__main__.py and one <topic>.py a
    topic): each row's function (`@row def <id>()`) sits in its topic's module."""
    if not topics:
        return
    if not (script / "__main__.py").is_file():
        fail(path, f"有 topics 时 python.script 是一个包（{script.name}/__main__.py 加每个主题一个 <主题>.py）")
    topic_of = {r["id"]: r["file"] for r in rows}
    wrong = []
    for t in topics:
        f = script / f"{t}.py"
        if not f.is_file():
            fail(path, f"主题 {t} 没有 PyTorch 一侧的模块 {script.name}/{t}.py")
    for f in sorted(script.glob("*.py")):
        for node in ast.parse(f.read_text(encoding="utf-8"), str(f)).body:
            if isinstance(node, ast.FunctionDef) and node.name in topic_of and any(
                    isinstance(d, ast.Name) and d.id == "row" for d in node.decorator_list):
                if f.stem != topic_of[node.name]:
                    wrong.append(f"{node.name}（在 {f.name}，应在 {topic_of[node.name]}.py）")
    if wrong:
        fail(path, f"{script.name}/：行的函数要写在它的主题的模块里：{'；'.join(wrong)}")


def run_view(path: Path) -> str:
    """The hash of what a run reads from a manifest or a topic file: everything but the text
    only the pages show (the rows' DISPLAY_KEYS, a topic's title, the manifest's `about`)."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in ("about", "topic")}
        if isinstance(data.get("rows"), list):
            data["rows"] = [{k: v for k, v in r.items() if k not in DISPLAY_KEYS} if isinstance(r, dict) else r
                            for r in data["rows"]]
    return sha(json.dumps(data, sort_keys=True, ensure_ascii=False, default=str).encode())
