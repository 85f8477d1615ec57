"""Memo of per-page render work across site builds, in target/.book-render/ (per machine,
never committed). A page whose inputs are byte for byte those of an earlier build gets that
build's result back instead of being worked out again:

- search: the entries Material's search plugin makes from a page's HTML (parsing every
  page's HTML and segmenting its Chinese with jieba is a third of a build);
- pages: the HTML the macros and Markdown made from a page (see `PageMemo`).

Keys hash everything the result is computed from, plus the versions of the code that
computes it, so a hit gives the same bytes a fresh computation would. A damaged memo file
is computed again and replaced; writes go through a temporary file.
"""
import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

from .. import hardware
from ..experiments.manifest import by_id
from ..paths import Book, files_under, write_atomic
from . import diagrams, site_stamp
from .downloads import package, view

DIR = Path("target") / ".book-render"
# Bump when what a memo holds changes shape.
FORMAT = 1


def _sha(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


def _versions(*dists) -> str:
    out = []
    for d in dists:
        try:
            out.append(f"{d}={metadata.version(d)}")
        except metadata.PackageNotFoundError:
            out.append(f"{d}=missing")
    return ",".join(out)


def _stable(o) -> str:
    """JSON's fallback for configuration values: a function by its name, not its address."""
    if callable(o) and hasattr(o, "__qualname__"):
        return f"{getattr(o, '__module__', '')}.{o.__qualname__}"
    return f"<{type(o).__module__}.{type(o).__qualname__}>"


def read(book: Book, kind: str, key: str):
    path = book.root / DIR / kind / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("key") != key:
        return None  # damaged or not ours: compute again
    return data.get("value")


def write(book: Book, kind: str, key: str, value) -> None:
    write_atomic(book.root / DIR / kind / f"{key}.json",
                 json.dumps({"key": key, "value": value}, ensure_ascii=False))


# --- search ----------------------------------------------------------------------------------

def _toc(items) -> list:
    return [[i.id, i.title, i.url, i.level, _toc(i.children)] for i in items]


_SEARCH_BOOK: list = []  # the book of the build in progress (mkdocs serve rebuilds in-process)


def enabled() -> bool:
    """BOOK_RENDER_MEMO=0 builds without the memo (make bench measures that)."""
    return os.environ.get("BOOK_RENDER_MEMO", "1") != "0"


def install_search_memo(book: Book) -> None:
    """Wrap Material's SearchIndex.add_entry_from_context with the memo (once per process)."""
    from material.plugins.search import plugin as search

    _SEARCH_BOOK[:] = [book]
    if getattr(search.SearchIndex.add_entry_from_context, "book_memo", False):
        return
    original = search.SearchIndex.add_entry_from_context
    code = _versions("mkdocs-material", "jieba", "regex")

    def add_entry_from_context(self, page):
        meta = {k: page.meta.get(k) for k in ("search", "tags", "title")}
        # canonical_url: the page's address under site_url (SITE_URL), an input like any other.
        key = _sha(FORMAT, code, json.dumps(self.config, sort_keys=True, default=_stable), page.url,
                   page.canonical_url, page.title, json.dumps(meta, sort_keys=True, default=str),
                   json.dumps(_toc(page.toc), ensure_ascii=False), page.content)
        book = _SEARCH_BOOK[0]
        if not enabled():
            return original(self, page)
        hit = read(book, "search", key)
        if isinstance(hit, list):
            self.entries.extend(hit)
            return
        start = len(self.entries)
        original(self, page)
        write(book, "search", key, self.entries[start:])

    add_entry_from_context.book_memo = True
    search.SearchIndex.add_entry_from_context = add_entry_from_context


# --- pages: Markdown → HTML -------------------------------------------------------------------

_RENDER: list = []  # [book, key of the site-wide inputs] of the build in progress


def _tokens(items) -> list:
    return [{"level": i.level, "id": i.id, "name": i.title, "children": _tokens(i.children)}
            for i in items]


class Capture:
    """The warnings mkdocs logs while one page renders (a bad link): a memo hit logs them
    again, so a strict build still fails on them."""
    def __init__(self):
        import logging
        self.records = []
        self.handler = logging.Handler(logging.WARNING)
        self.handler.emit = lambda r: self.records.append([r.name, r.levelno, r.getMessage()])

    def __enter__(self):
        import logging
        logging.getLogger("mkdocs").addHandler(self.handler)
        return self

    def __exit__(self, *exc):
        import logging
        logging.getLogger("mkdocs").removeHandler(self.handler)


def install_render_memo(book: Book, config, files) -> None:
    """Wrap mkdocs' Page.render (Markdown after the macros → HTML, toc, title, anchors) with
    the memo. The key: the page's Markdown as the macros left it, its path, the Markdown
    configuration, the list of files links can point to, the drawn diagrams, and the code's
    versions."""
    import logging

    from mkdocs.structure import pages, toc

    docs = sorted(f.src_uri for f in files.documentation_pages())
    # ```mermaid fences become the SVGs in diagrams/ (book/site/diagrams.py): their names carry
    # their content's hash, so the listing stands for what every fence turns into.
    svgs = sorted(p.name for p in diagrams.current().dir.glob("*.svg"))
    # The fence's HTML around them is diagrams.html's: its code is an input too.
    fence_code = hashlib.sha256(Path(diagrams.__file__).read_bytes()).hexdigest()
    site = _sha(FORMAT, _versions("mkdocs", "markdown", "pymdown-extensions", "pygments",
                                  "mkdocs-material"), "\n".join(svgs), fence_code,
                json.dumps(config["markdown_extensions"], default=_stable),
                json.dumps(config["mdx_configs"], sort_keys=True, default=_stable),
                json.dumps(config.get("validation"), sort_keys=True, default=_stable),
                config["use_directory_urls"], config.get("site_url"), "\n".join(docs))
    _RENDER[:] = [book, site]
    if getattr(pages.Page.render, "book_memo", False):
        return
    original = pages.Page.render

    def render(self, config, files):
        book, site = _RENDER
        if not enabled():
            return original(self, config, files)
        key = _sha(site, self.file.src_uri, self.markdown)
        hit = read(book, "pages", key)
        if isinstance(hit, dict):
            for name, level, msg in hit["warnings"]:
                logging.getLogger(name).log(level, msg)
            self.content = hit["content"]
            self.toc = toc.get_toc(hit["toc"])
            self._title_from_render = hit["title"]
            self.present_anchor_ids = set(hit["anchors"])
            if hit["links"] is not None:
                self.links_to_anchors = {files.get_file_from_path(src): links
                                         for src, links in hit["links"].items()
                                         if files.get_file_from_path(src) is not None}
            return
        with Capture() as cap:
            original(self, config, files)
        links = getattr(self, "links_to_anchors", None)
        write(book, "pages", key, {
            "content": self.content, "toc": _tokens(self.toc), "title": self._title_from_render,
            "anchors": sorted(self.present_anchor_ids or ()), "warnings": cap.records,
            "links": None if links is None else {f.src_uri: l for f, l in links.items()},
        })

    render.book_memo = True
    pages.Page.render = render


# --- pages: the macros ------------------------------------------------------------------------

# Macros whose result depends on more than a page's recorded inputs: a page that calls one is
# rendered every time (the execution report reads the last build's states; pitfall_count
# reads other pages' front matter; reproduction_totals reads the ledger).
UNCACHEABLE = {"execution_report", "pitfall_count", "reproduction_totals"}
_MACROS: dict = {}  # "global": key of what every page reads; "calls": page → macro calls; ...
GLOBAL = ["book", "macros", "drift", "mkdocs.yml", "Cargo.toml", "Cargo.lock", "requirements.lock"]
SKIP_PARTS = {"target", "__pycache__", ".git", ".failed"}


def used_macro(page: str, name: str, args: tuple = ()) -> None:
    """macros/main.py calls this for every macro a page calls: what the page reads."""
    _MACROS.setdefault("calls", {}).setdefault(page, []).append(
        (name, [a for a in args if isinstance(a, str)]))


def _tree_hash(book: Book, names) -> str:
    h = hashlib.sha256()
    for name in names:
        top = book.root / name
        for p in (files_under(top) if top.exists() else []):
            rel = p.relative_to(book.root)
            if not SKIP_PARTS & set(rel.parts) and not p.name.startswith(".tmp"):
                h.update(rel.as_posix().encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def start_macro_memo(book: Book) -> None:
    """book/site/mkdocs_hooks.py's on_pre_build: what every page reads (the book's code and configuration,
    the locks, drift reports, the hardware the requires notes name, which page each
    experiment belongs to), once per build."""
    _MACROS.clear()
    if not enabled():
        return
    pages = {i: e.page for i, e in sorted(by_id(book).items())}
    # site_url is mkdocs.yml's (in GLOBAL) unless SITE_URL is set: with the variable, the key has it.
    _MACROS["global"] = _sha(FORMAT, _versions("mkdocs-macros-plugin", "jinja2"), _tree_hash(book, GLOBAL),
                             json.dumps({r: hardware.available(r) for r in hardware.KNOWN}),
                             json.dumps(pages), json.dumps(site_stamp.site_url()))
    _MACROS["fp"] = {}


def _experiment_fp(book: Book, exp_id: str) -> str:
    """An experiment as pages show it: its cached outputs, and the files of its full view."""
    fps = _MACROS["fp"]
    if exp_id not in fps:
        h = hashlib.sha256(_tree_hash(book, [f"build_outputs/{exp_id}"]).encode())
        try:
            members = package.members(book, package.experiments(book)[exp_id])
        except KeyError:
            members = {}
        for name in sorted(members):
            h.update(name.encode() + b"\0" + hashlib.sha256(members[name]).digest())
        fps[exp_id] = h.hexdigest()
    return fps[exp_id]


def _deps(book: Book, src_path: str) -> dict | None:
    """What a page's macros read, from the calls they made; None when one is uncacheable."""
    ids, files = set(), set()
    known = by_id(book)
    page = src_path.removesuffix(".md").removesuffix("/index")
    for name, args in _MACROS.get("calls", {}).get(src_path, []):
        if name in UNCACHEABLE:
            return None
        # An experiment by name, whether or not it has a manifest (scratch books in the tests).
        ids |= {a for a in args if a in known or (a and "/" not in a and (book.outputs / a).is_dir())}
        if name == "error_messages":
            ids |= {i for i, e in known.items() if e.page == src_path.removesuffix(".md")}
        if name == "reference_experiments":
            ids |= {i for i, e in known.items() if e.rows and e.page == "reference"}
        if name == "pair" and len(args) > 2 and args[2]:
            files.add(args[2])  # burn_file: a file of a crate the experiment needs
        if name == "code" and args:
            files.add(args[0])
            ids |= set(view._users_of(book, args[0], src_path))  # their full views come too
    # An experiment whose page this is gets its full view at the end (view.page_end).
    ids |= {i for i, e in known.items() if e.page in (page, src_path.removesuffix(".md"))}
    return {"ids": sorted(ids), "files": sorted(files)}


def _key(book: Book, src_path: str, source: str, deps: dict) -> str:
    parts = [_MACROS["global"], src_path, source]
    parts += [f"{i}={_experiment_fp(book, i)}" for i in deps["ids"]]
    for f in deps["files"]:
        p = book.root / f
        parts.append(f"{f}={hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else 'missing'}")
    return _sha(*parts)


def _source(src_path: str, markdown: str, meta: dict) -> str:
    return _sha(src_path, json.dumps(meta, sort_keys=True, default=str), markdown)


def macro_lookup(book: Book, src_path: str, markdown: str, meta: dict):
    """Before mkdocs-macros: (the page's source key, the memo's output for it or None)."""
    if not _MACROS.get("global"):
        return None, None
    source = _source(src_path, markdown, meta)
    deps = read(book, "macros", "deps-" + _sha(src_path))
    if not isinstance(deps, dict) or deps.get("source") != source:
        return source, None
    try:
        hit = read(book, "macros", _key(book, src_path, source, deps))
    except OSError:
        return source, None
    return source, (hit if isinstance(hit, dict) and isinstance(hit.get("markdown"), str) else None)


def macro_store(book: Book, source: str | None, src_path: str, markdown: str, state: dict) -> None:
    """After mkdocs-macros: keep the output under the inputs the page's calls named."""
    if not source or not _MACROS.get("global"):
        return
    deps = _deps(book, src_path)
    if deps is None:
        return
    write(book, "macros", _key(book, src_path, source, deps), {"markdown": markdown, **state})
    write(book, "macros", "deps-" + _sha(src_path), dict(deps, source=source))
