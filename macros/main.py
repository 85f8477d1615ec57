"""The Jinja macros of the book (mkdocs-macros). Each one only renders cached outputs."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from book import drift_render, render, report  # noqa: E402
from book.errors import BookError  # noqa: E402
from book.paths import Book  # noqa: E402


def define_env(env):
    book = Book(Path(env.conf["config_file_path"]).parent)

    def page_name():
        page = getattr(env, "page", None)
        return page.file.src_path if page else "?"

    def macro(fn):
        def wrapped(*args, **kwargs):
            try:
                return fn(book, *args, **kwargs)
            except BookError as e:
                raise BookError(f"页面 {page_name()}：{fn.__name__}{args!r}：{e}") from None
        wrapped.__name__ = fn.__name__
        env.macro(wrapped)

    for fn in (render.code, render.pair, render.side_output, render.outputs_tabs,
               render.compare_output, render.compare_table, render.value, render.num, render.claim,
               render.version_line, render.src, render.line_plot, render.has_output, render.require,
               render.requires_note, report.execution_report,
               drift_render.drift_report):
        macro(fn)
