"""The Zensical adapter: a Markdown extension that does under Zensical what
book/site/mkdocs_hooks.py does under mkdocs
(Zensical reads no `hooks:`). Listed in mkdocs.yml's markdown_extensions for both engines;
under mkdocs it finds no Zensical page context and leaves the text alone.

- after the macros (a preprocessor below their priority): book/site/prepare.py's prepare, so the
  structure check, the error messages, the diagrams check, the full views, burn-first tabs
  and the search weight hold under Zensical too;
- on the HTML: the full views' lighten, as mkdocs_hooks.on_page_content does.
"""
from pathlib import Path

from markdown import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from ..experiments import manifest
from ..paths import Book
from . import prepare
from .downloads import view


def _context(md):
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    return ContextPreprocessor.from_markdown(md)


def _book(ctx) -> Book:
    return Book(Path(ctx.config.get("root_dir") or ".").resolve())


class _Prepare(Preprocessor):
    def run(self, lines):
        ctx = _context(self.md)
        if ctx is None or ctx.page is None:
            return lines
        # Manifests are read thousands of times per build: keep them for this process.
        if not manifest.building():
            manifest.start_build_memo()
        try:
            return prepare.prepare(_book(ctx), ctx.page.path, ctx.page.meta, "\n".join(lines)).split("\n")
        except prepare.PageError as e:
            # Zensical reports an exception in an extension and stops the build.
            raise SystemExit(f"错误：{e}") from None


class _Lighten(Postprocessor):
    def run(self, text):
        return view.lighten(text) if _context(self.md) is not None else text


class BookExtension(Extension):
    def extendMarkdown(self, md):
        # Zensical's macros preprocessor sits at 35: this runs right after it.
        md.preprocessors.register(_Prepare(md), "book_prepare", 34)
        md.postprocessors.register(_Lighten(md), "book_lighten", 0)


def makeExtension(**kwargs):
    return BookExtension(**kwargs)
