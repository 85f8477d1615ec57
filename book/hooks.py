"""mkdocs hooks: the structure check runs on every page after the macros rendered it."""
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from book import archive, diagrams, discover, messages, render_cache, structure  # noqa: E402
from book.paths import Book  # noqa: E402

# Search weight by page kind: a pasted error message should land on the pitfall that explains
# it, and the appendix (which repeats every experiment's outcome) never before a content page:
# Material weighs a title 1000 times a word of text, so even the appendix's title must weigh
# less than one word of a content page. The appendix is still found when nothing else matches.
SEARCH_BOOST = {"pitfall": 2.0, "content": 1.0, "appendix": 1e-6}


def on_page_markdown(markdown, page, config, files):
    kind = page.meta.get("kind")
    # Full views of the experiments this page used without a pair() (see book/archive.py).
    markdown += archive.page_end(Book(Path(config["config_file_path"]).parent), page.file.src_path)
    problems = structure.check(kind, markdown)
    if kind == "pitfall":
        book = Book(Path(config["config_file_path"]).parent)
        missing = [f"{i}：{m.splitlines()[0]}" for i, m in
                   messages.of_page(book, page.file.src_path.removesuffix(".md")) if m not in markdown]
        if missing:
            problems.append("这一页的实验打印了报错，页面上却没有原文（在「现象」末尾写 "
                            "{{ error_messages() }}）：" + "；".join(missing))
    if problems:
        raise PluginError(f"页面 {page.file.src_path} 不符合固定结构：" + "；".join(problems))
    # Every ```mermaid fence must be drawn already (diagrams/): the build only reads SVGs.
    diagrams.check_page(page.file.src_path, markdown)
    if kind in SEARCH_BOOST:
        page.meta.setdefault("search", {}).setdefault("boost", SEARCH_BOOST[kind])
    if kind == "appendix":
        markdown = structure.unsearchable_headings(markdown)
    return structure.burn_first(kind, markdown)


def on_pre_build(config):
    discover.start_build_memo()
    archive.reset()
    diagrams.use(diagrams.Cache(Path(config["config_file_path"]).parent))
    render_cache.install_search_memo(Book(Path(config["config_file_path"]).parent))


def on_page_content(html, page, config, files):
    return archive.lighten(html)


def on_files(files, config):
    """site/downloads/<id>.tar.gz for every experiment, from the committed sources."""
    from mkdocs.structure.files import File
    # Pages whose Markdown is that of an earlier build get its HTML back (book/render_cache.py).
    render_cache.install_render_memo(Book(Path(config["config_file_path"]).parent), config, files)
    for path, data in archive.all_archives(Book(Path(config["config_file_path"]).parent)).items():
        files.append(File.generated(config, path, content=data))
    return files


def on_post_build(config):
    discover.stop_build_memo()


def on_build_error(error):
    discover.stop_build_memo()
