"""mkdocs hooks, the mkdocs adapter: every page goes through book/site/prepare.py after the
macros rendered it (under Zensical, which reads no hooks, book/site/zensical_ext.py does the
same); the downloads join the site's files; the render memo wraps mkdocs' own steps."""
import logging
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from book.experiments import manifest  # noqa: E402
from book.paths import Book  # noqa: E402
from book.site import diagrams, prepare, render_memo, scan_site, search_index  # noqa: E402
from book.site.downloads import package, view  # noqa: E402

@event_priority(100)  # before mkdocs-macros
def _macros_from_memo(markdown, page, config, files):
    """A page whose source and data are an earlier build's gets that build's macro output
    back (book/site/render_memo.py); render_macros: false tells mkdocs-macros to leave it."""
    book = Book(Path(config["config_file_path"]).parent)
    key, hit = render_memo.macro_lookup(book, page.file.src_path, markdown, page.meta)
    page._book_macros = (key, hit)
    page._book_title = page.title
    if hit is None:
        # What the macros log on this page (a warning fails a strict build) is kept with it.
        page._book_capture = render_memo.Capture().__enter__()
        return markdown
    for name, level, msg in hit.get("warnings", []):
        logging.getLogger(name).log(level, msg)
    page.meta["render_macros"] = False
    return hit["markdown"]


def _prepare(markdown, page, config, files):
    book = Book(Path(config["config_file_path"]).parent)
    src = page.file.src_path
    key, hit = getattr(page, "_book_macros", (None, None))
    if hit is not None:
        page.meta.pop("render_macros", None)
        view.PAGES[src] = hit["pages"]
        view.PAGE_FILES[src] = hit["files"]
        if hit.get("title") is not None:
            page.title = hit["title"]  # mkdocs-macros renders a title with macros in it
    else:
        capture = getattr(page, "_book_capture", None)
        if capture is not None:
            capture.__exit__(None, None, None)
        render_memo.macro_store(book, key, src, markdown, {
            "warnings": capture.records if capture is not None else [],
            "pages": dict(view.PAGES.get(src, {})), "files": dict(view.PAGE_FILES.get(src, {})),
            # Only a title the macros rendered: the rest come from the HTML, as without a memo.
            "title": page.title if page.title != getattr(page, "_book_title", None) else None})
    if "title" not in page.meta and page.title != getattr(page, "_book_title", None):
        # mkdocs-macros set the title to the H1's Markdown (`HashMap<String, Linear>` raw in the
        # sidebar): mkdocs takes it from the rendered H1 instead, as for every other page.
        vars(page).pop("title", None)
    try:
        return prepare.prepare(book, src, page.meta, markdown)
    except prepare.PageError as e:
        raise PluginError(str(e)) from None


on_page_markdown = CombinedEvent(_macros_from_memo, _prepare)


def on_pre_build(config):
    prepare.start_build()
    diagrams.use(diagrams.Cache(Path(config["config_file_path"]).parent))
    render_memo.install_search_memo(Book(Path(config["config_file_path"]).parent))
    render_memo.start_macro_memo(Book(Path(config["config_file_path"]).parent))


def on_page_content(html, page, config, files):
    return view.lighten(html)


def on_files(files, config):
    """site/downloads/<id>.tar.gz for every experiment, from the committed sources."""
    from mkdocs.structure.files import File
    # Pages whose Markdown is that of an earlier build get its HTML back (book/site/render_memo.py).
    render_memo.install_render_memo(Book(Path(config["config_file_path"]).parent), config, files)
    for path, data in package.all_archives(Book(Path(config["config_file_path"]).parent)).items():
        files.append(File.generated(config, path, content=data))
    for path, data in scan_site.files(Book(Path(config["config_file_path"]).parent)).items():
        files.append(File.generated(config, path, content=data))
    return files


def on_post_build(config):
    # Material's search plugin wrote its index in its own on_post_build (hooks run after plugins):
    # the map's rows, the hidden keys and synonyms, teasers without the version line.
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    try:
        if index.is_file():
            search_index.finish(Book(Path(config["config_file_path"]).parent), index, "mkdocs")
    finally:
        manifest.stop_build_memo()


def on_build_error(error):
    manifest.stop_build_memo()
