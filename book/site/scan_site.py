"""The files of the built site that docs/scan.md's box fetches when the reader first focuses it (or scans):
assets/scan-rules.json (book/pages/scan_rules.py builds it from the manifests and the pitfall
pages) and assets/pyparse.js, the Python parser (book/site/pyparse.py); and on the first press
of 「生成 burn crate」 (docs/assets/port-page.js), assets/port-rules.json, the port generator's
rules (book/port/rules.py, the same as `make port`'s for the same SITE_URL). mkdocs adds them in
mkdocs_hooks.on_files; under Zensical, `python -m book.commands.downloads SITE_DIR` writes them
after the build."""
import json
import os

from ..pages import reference, scan_rules
from ..paths import Book
from ..port import rules as port_rules
from . import pyparse

PATH = "assets/scan-rules.json"
PORT_PATH = "assets/port-rules.json"
DEFAULT_SITE = "http://127.0.0.1:8000/"  # book/commands/port.py's, with SITE_URL unset


def _json(data) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")


def links_at_site(markdown: str) -> str:
    """Code the port generator wrote with SITE_URL unset (crates/port-cnn, an experiment kept as
    generated) links the map's rows and the pitfalls at DEFAULT_SITE; on a page of a build for
    another address those links point at that address instead, as the page's own 「生成 burn
    crate」 writes them there (port-rules.json above). The files themselves stay as generated."""
    site_url = os.environ.get("SITE_URL") or DEFAULT_SITE
    site_url += "" if site_url.endswith("/") else "/"  # as mkdocs reads site_url
    return markdown if site_url == DEFAULT_SITE else markdown.replace(DEFAULT_SITE, site_url)


def files(book: Book) -> dict[str, bytes]:
    """{path in the site: bytes}; the same bytes for the same manifests, pages and node_modules."""
    site_url = os.environ.get("SITE_URL") or DEFAULT_SITE
    out = {PATH: _json(scan_rules.build(book))}
    # A book without the map (the tests' scratch sites) has no scan page to serve the parser to,
    # and no rows a generated line could come from.
    if not reference.experiments(book):
        return out
    out[pyparse.PATH] = pyparse.bundle(book)
    out[PORT_PATH] = _json(port_rules.build(book, site_url))
    return out
