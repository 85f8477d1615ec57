"""The script scanner's rules as a file of the built site: docs/scan.md's box fetches
assets/scan-rules.json on the reader's first scan (book/pages/scan_rules.py builds it from the
manifests and the pitfall pages). mkdocs adds it in mkdocs_hooks.on_files; under Zensical,
`python -m book.commands.downloads SITE_DIR` writes it after the build."""
import json

from ..pages import scan_rules
from ..paths import Book

PATH = "assets/scan-rules.json"


def files(book: Book) -> dict[str, bytes]:
    """{path in the site: bytes}; the same bytes for the same manifests and pages."""
    data = json.dumps(scan_rules.build(book), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return {PATH: data.encode("utf-8")}
