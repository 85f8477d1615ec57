"""mkdocs hooks: every page goes through book/pages.py after the macros rendered it (under
Zensical, which reads no hooks, book/zensical_ext.py does the same)."""
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from book import archive, diagrams, discover, pages, render_cache  # noqa: E402
from book.paths import Book  # noqa: E402

def on_page_markdown(markdown, page, config, files):
    book = Book(Path(config["config_file_path"]).parent)
    try:
        return pages.prepare(book, page.file.src_path, page.meta, markdown)
    except pages.PageError as e:
        raise PluginError(str(e)) from None


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
