"""What every page goes through after the macros rendered it, under either site engine:
the fixed structure (book/checking/structure.py), the error messages a pitfall's experiments print,
the diagrams it draws, the full views of experiments it used without a pair(), the burn tab
first where the page is about burn code, its search weight, and the links in generated code at
the site's own address. mkdocs runs it from
book/site/mkdocs_hooks.py, Zensical from book/site/zensical_ext.py."""
from ..checking import structure
from ..experiments import manifest
from ..pages import messages
from ..paths import Book
from . import diagrams, scan_site
from .downloads import view

# Search weight by page kind: a pasted error message should land on the pitfall that explains
# it, and the appendix (which repeats every experiment's outcome) never before a content page:
# Material weighs a title 1000 times a word of text, so even the appendix's title must weigh
# less than one word of a content page. The appendix is still found when nothing else matches.
SEARCH_BOOST = {"pitfall": 2.0, "content": 1.0, "appendix": 1e-6}


class PageError(Exception):
    pass


def start_build() -> None:
    """A site build begins: manifests are read once for it, and what an earlier build in this
    process worked out (mkdocs serve rebuilds in-process) is forgotten."""
    manifest.start_build_memo()
    view.reset()


def prepare(book: Book, src_path: str, meta: dict, markdown: str) -> str:
    """The page's Markdown as the engine should convert it; PageError when it breaks the rules."""
    kind = meta.get("kind")
    # Full views of the experiments this page used without a pair() (book/site/downloads/view.py).
    markdown += view.page_end(book, src_path)
    problems = structure.check(kind, markdown)
    if kind == "pitfall":
        missing = [f"{i}：{m.splitlines()[0]}" for i, m in
                   messages.of_page(book, src_path.removesuffix(".md")) if m not in markdown]
        if missing:
            problems.append("这一页的实验打印了报错，页面上却没有原文（在「现象」末尾写 "
                            "{{ error_messages() }}）：" + "；".join(missing))
    if problems:
        raise PageError(f"页面 {src_path} 不符合固定结构：" + "；".join(problems))
    # Every ```mermaid fence must be drawn already (diagrams/): the build only reads SVGs.
    diagrams.check_page(src_path, markdown)
    if kind in SEARCH_BOOST:
        meta.setdefault("search", {}).setdefault("boost", SEARCH_BOOST[kind])
    if kind == "appendix":
        markdown = structure.unsearchable_headings(markdown)
    # Generated code on the page (port-cnn's crate) links this build's own address.
    return structure.burn_first(kind, scan_site.links_at_site(markdown))
