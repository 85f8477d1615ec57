"""The full view of an experiment on a page: a collapsed block with every file of both sides
as its download has them, in the PyTorch / burn tabs, and the download link; and which
experiments each page used, so that those it never showed with pair() come at its end."""
import hashlib
import posixpath
import re
from pathlib import Path

from ...errors import BookError
from ...experiments.files import crates_of, script_files
from ...pages.text import TAB_LABELS, fence, tabs
from ...paths import Book
from . import MEMO as _CACHE
from . import package
from .package import DIR, archive, experiments, members
from .readme import _rel

SHOWN_SUFFIXES = {".rs": "rust", ".toml": "toml", ".py": "python", ".txt": "text"}


def link(src_uri: str, exp_id: str) -> str:
    """The archive, relative to the page's Markdown file (mkdocs checks and rewrites it)."""
    return posixpath.relpath(f"{DIR}/{exp_id}.tar.gz", posixpath.dirname(src_uri) or ".")


def _kb(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} B"


def full_view(book: Book, exp_id: str, src_uri: str, seen: dict | None = None) -> str:
    """A collapsed block: every file of both sides as the archive has it, in the PyTorch /
    burn tabs, and the download link. seen (file → experiment) holds the files an earlier
    block on the same page showed: those are named, not repeated (a script several
    experiments share would otherwise weigh on the page once per experiment)."""
    seen = {} if seen is None else seen
    exps = experiments(book)
    if exp_id not in exps:
        raise BookError(f"没有实验 {exp_id!r}")
    exp = exps[exp_id]
    files = members(book, exp)
    size = len(archive(book, exp_id))

    def shown(paths, note=None):
        parts = []
        for p in paths:
            lang = SHOWN_SUFFIXES.get(Path(p).suffix)
            if lang is None or Path(p).name == "Cargo.lock":
                continue
            try:
                text = files[p].decode("utf-8")
            except UnicodeDecodeError:
                continue
            label = f"`{p}`" + (note(p) if note else "")
            key = f"{p}\0{hashlib.sha256(files[p]).hexdigest()}"
            if p != "requirements.txt" and seen.get(key, exp_id) != exp_id:
                parts.append(f"`{p}`：和上面「完整程序：{seen[key]}」里的是同一个文件。")
                continue
            seen.setdefault(key, exp_id)
            parts.append(f"{label}\n\n{fence(text, lang)}")
        return "\n\n".join(parts)

    def others(paths):
        rest = [p for p in paths if SHOWN_SUFFIXES.get(Path(p).suffix) is None or Path(p).name == "Cargo.lock"]
        return ("\n\n下载包里还有：" + "、".join(f"`{p}`" for p in rest) + "。") if rest else ""

    items = []
    if exp.python:
        py = [_rel(book, f) for f in script_files(book, exp)] + ["requirements.txt"]
        items.append((TAB_LABELS["python"], shown(py) + others(py)))
    crate_paths = [p for p in files if p.startswith("crates/")]
    if crate_paths:
        order = sorted(crate_paths, key=lambda p: (p.split("/")[1] != (exp.burn or {}).get("crate"),
                                                   p.split("/")[1], not p.endswith("Cargo.toml"), p))
        items.append((TAB_LABELS["burn"], shown(
            order, lambda p: "（独立的 crate：workspace 继承已换成实际的值）" if p.endswith("Cargo.toml") else "")
            + others(order)))
    body = (f"下载：[{exp_id}.tar.gz]({link(src_uri, exp_id)})（{_kb(size)}）：两侧的完整程序、"
            "独立的 `Cargo.toml` 和 `Cargo.lock`、比较器、`run.sh`；解包后照其中的 `README.md` 运行。\n\n"
            + tabs(items))
    # Outside search: a query should land on the prose, not on every page's programs. Raw
    # <details> because Material's indexer drops an excluded element only until the first
    # closing tag of the same name inside it (so not on a <div> wrapper).
    return (f'\n<details class="example full-source" data-search-exclude="" markdown="1">\n'
            f'<summary>完整程序：{exp_id}</summary>\n\n{body}\n</details>\n')


# requires_note: a page that says where a hardware experiment's outputs come from uses it too.
OUTPUT_MACROS = {"outputs_tabs", "side_output", "compare_output", "compare_table", "requires_note"}


PAGES: dict[str, dict[str, bool]] = {}  # page src path → {experiment id: full view shown}


PAGE_FILES: dict[str, dict[str, str]] = {}  # page src path → {file: experiment whose block shows it}


def reset():
    """A new build: the packages' memo and which page used which experiment, forgotten."""
    package.reset()
    PAGES.clear()
    PAGE_FILES.clear()


def _program_index(book: Book) -> tuple[dict, dict]:
    """Resolved script path → experiments running it; crate dir → experiments packing it."""
    key = ("programs", book.root)
    if key not in _CACHE:
        scripts, crates = {}, {}
        for e in experiments(book).values():
            if e.python:
                for f in script_files(book, e):
                    scripts.setdefault(f.resolve(), []).append(e)
            for c in crates_of(book, e):
                crates.setdefault((book.crates / c).resolve(), []).append(e)
        _CACHE[key] = (scripts, crates)
    return _CACHE[key]


def _users_of(book: Book, path: str, page_src: str) -> list[str]:
    """Experiments whose program a code() call shows; those of this page when several share it."""
    p = (book.root / path).resolve()
    scripts, crates = _program_index(book)
    found = list(scripts.get(p, []))
    for d in [p, *p.parents]:
        found += [e for e in crates.get(d, []) if e not in found]
    order = {i: n for n, i in enumerate(experiments(book))}
    found.sort(key=lambda e: order[e.id])
    page = page_src.removesuffix(".md").removesuffix("/index")
    here = [e for e in found if e.page == page]
    return [e.id for e in (here or found)]


def after_macro(book: Book, page_src: str, name: str, args: tuple, out):
    """Called with every macro's result: the first pair() of an experiment on a page gets the
    full view appended; experiments shown only through outputs or code() are noted for the end."""
    if page_src == "?" or not args or not isinstance(args[0], str):
        return out
    if name != "code" and args[0] not in experiments(book):
        return out  # outputs without a manifest (a scratch book in the tests): nothing to pack
    used = PAGES.setdefault(page_src, {})
    if name == "pair":
        if not used.get(args[0]):
            used[args[0]] = True
            return out + full_view(book, args[0], page_src, PAGE_FILES.setdefault(page_src, {}))
    elif name in OUTPUT_MACROS:
        used.setdefault(args[0], False)
    elif name == "code":
        for i in _users_of(book, args[0], page_src):
            used.setdefault(i, False)
    return out


def page_end(book: Book, page_src: str) -> str:
    """The full views of the experiments a page used but never showed with pair()."""
    used = PAGES.pop(page_src, {})
    seen = PAGE_FILES.pop(page_src, {})
    rest = [i for i, shown in used.items() if not shown]
    if not rest:
        return ""
    return ("\n\n本页用到的其他实验的完整程序：\n\n"
            + "\n".join(full_view(book, i, page_src, seen) for i in rest))


# Spans Material draws in the code's own colour (names, whitespace): dropped inside full
# views, which carry whole programs; the text and every other colour stay as they are.
PLAIN_SPAN_RE = re.compile(r'<span class="(?:n|w)">([^<]*)</span>')


FULL_VIEW_RE = re.compile(r'<details class="example full-source".*?</details>', re.S)


def lighten(html: str) -> str:
    return FULL_VIEW_RE.sub(lambda m: PLAIN_SPAN_RE.sub(r"\1", m.group(0)), html)
