"""The Jinja macros of the book (mkdocs-macros). Each one only renders cached outputs."""
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from book.errors import BookError  # noqa: E402
from book.pages import (blocks, drift_report, messages, plots, programs, reference,  # noqa: E402
                        report, values, versions)
from book.paths import Book  # noqa: E402
from book.site import render_memo  # noqa: E402
from book.site.downloads import view  # noqa: E402


class _NotBookErrors(logging.Filter):
    """Our macros print their own one-line error; let the plugin report every other kind."""
    def filter(self, record):
        return "_BookError_" not in record.getMessage()


def project_root(conf) -> Path:
    """mkdocs-macros gives the config file's path; Zensical gives the project's root_dir."""
    if conf.get("config_file_path"):
        return Path(conf["config_file_path"]).parent
    return Path(conf.get("root_dir") or ".").resolve()


def page_path(page) -> str:
    """The page's path under docs/: mkdocs' page.file.src_path, Zensical's page.path."""
    if page is None:
        return "?"
    file = getattr(page, "file", None)
    return file.src_path if file is not None else str(page.path)


def define_env(env):
    book = Book(project_root(env.conf))
    # mkdocs-macros reports a failed page as a warning, which `mkdocs build --quiet` (make site)
    # would hide: a Jinja error (an undefined name, a typo in a tag) must still reach the author.
    log = logging.getLogger("mkdocs.plugins.mkdocs_macros.util")
    log.setLevel(logging.WARNING)
    if not any(isinstance(f, _NotBookErrors) for f in log.filters):
        log.addFilter(_NotBookErrors())

    def page_name():
        return page_path(getattr(env, "page", None))

    def macro(fn):
        def wrapped(*args, **kwargs):
            render_memo.used_macro(page_name(), fn.__name__, args)
            try:
                # The first pair() of an experiment on a page brings its full view (book/site/downloads/view.py).
                return view.after_macro(book, page_name(), fn.__name__, args, fn(book, *args, **kwargs))
            except Exception as e:
                call = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
                msg = f"页面 {page_name()}：{fn.__name__}({call})：{e}"
                # mkdocs-macros logs a failed page only as a warning, which --quiet hides.
                print(f"错误：{msg}", file=sys.stderr, flush=True)
                raise BookError(msg) from None
        wrapped.__name__ = fn.__name__
        env.macro(wrapped)

    def error_messages(book):
        """The literal error messages of this page's experiments (a pitfall page's 现象)."""
        page = page_name()
        return messages.block(book, page.removesuffix(".md"))

    macro(error_messages)

    # The torch → burn map (book/pages/reference.py): tables rendered from table-driven experiments.
    def reference_table(book, exp_id, topic=None):
        # A row links its pitfall page by the page's title: the title's page is an input too
        # (the render memo keys what a code() call shows by its file's bytes).
        for page in reference.pitfall_pages(book, exp_id, topic):
            render_memo.used_macro(page_name(), "code", (f"docs/{page}.md",))
        return reference.table(book, exp_id, topic)

    def reference_filter(book, *exp_ids):
        return reference.filter_bar(book, *exp_ids)

    def reference_backlinks(book):
        """On a pitfall page: the map's rows whose pitfall: is this page."""
        # It reads every map experiment: their outputs are its inputs.
        render_memo.used_macro(page_name(), "reference_backlinks", tuple(reference.experiments(book)))
        return reference.backlinks(book, page_name())

    def reference_counts(book, *exp_ids):
        return reference.counts(book, *exp_ids)

    def reference_topics(book, exp_id):
        return reference.topics(book, exp_id)

    def reference_experiments(book):
        return reference.experiments(book)

    def reference_row(book, exp_id, row_id, verdict="same"):
        return reference.row_line(book, exp_id, row_id, verdict, page=page_name())

    for fn in (reference_table, reference_counts, reference_topics, reference_experiments,
               reference_row, reference_filter, reference_backlinks):
        macro(fn)

    for fn in (programs.code, programs.pair, blocks.side_output, blocks.outputs_tabs,
               blocks.compare_output, blocks.compare_table, values.value, values.raw, values.num,
               values.claim, versions.version_line, blocks.pitfall_count, values.max_diff, values.abs_diffs,
               versions.src, plots.line_plot, blocks.has_output, values.require,
               blocks.requires_note, report.execution_report, report.reproduction_totals,
               drift_report.drift_report):
        macro(fn)
