"""The files of the built site that docs/scan.md's box fetches on the reader's first scan:
assets/scan-rules.json (book/pages/scan_rules.py builds it from the manifests and the pitfall
pages) and assets/pyparse.js, the Python parser (book/site/pyparse.py). mkdocs adds them in
mkdocs_hooks.on_files; under Zensical, `python -m book.commands.downloads SITE_DIR` writes them
after the build."""
import json

from ..pages import scan_rules
from ..paths import Book
from . import pyparse

PATH = "assets/scan-rules.json"


def files(book: Book) -> dict[str, bytes]:
    """{path in the site: bytes}; the same bytes for the same manifests, pages and node_modules."""
    data = json.dumps(scan_rules.build(book), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return {PATH: data.encode("utf-8"), pyparse.PATH: pyparse.bundle(book)}
