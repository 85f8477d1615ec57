"""The Python parser that the scanner and the port generator read scripts with: @lezer/python
(an error-tolerant incremental parser, pinned in package-lock.json) and the three packages it
needs, from node_modules, wrapped as one plain script. The page loads it as assets/pyparse.js
when the reader first focuses the scan box (or scans); `make scan` and `make port` give node the same bytes, so both read
a script through one parser. It defines `BookPyParse` (window) or module.exports: {parser}."""
import json

from ..errors import BookError
from ..paths import Book

PATH = "assets/pyparse.js"
# In dependency order; each package's CommonJS build (dist/index.cjs) requires only these.
PACKAGES = ["@lezer/common", "@lezer/lr", "@lezer/highlight", "@lezer/python"]


def _module(book: Book, name: str) -> tuple[str, str]:
    pkg = book.root / "node_modules" / name
    try:
        meta = json.loads((pkg / "package.json").read_text(encoding="utf-8"))
        code = (pkg / "dist" / "index.cjs").read_text(encoding="utf-8")
    except OSError as e:
        raise BookError(f"找不到 {name}（{e.filename}）：先运行 make setup（npm ci）") from None
    return meta["version"], code


def bundle(book: Book) -> bytes:
    """The script; the same bytes for the same node_modules."""
    parts = ["/* @lezer/python and what it needs, from node_modules (book/site/pyparse.py). */",
             "(function () {", "  var defs = {};"]
    for name in PACKAGES:
        version, code = _module(book, name)
        parts.append(f"  /* {name} {version} */")
        parts.append(f"  defs[{json.dumps(name)}] = function (module, exports, require) {{\n{code}\n  }};")
    parts.append("""  var cache = {};
  function req(name) {
    if (!(name in defs)) throw new Error('pyparse: no module ' + name);
    if (!cache[name]) { var m = cache[name] = { exports: {} }; defs[name](m, m.exports, req); }
    return cache[name].exports;
  }
  var api = { parser: req('@lezer/python').parser };
  if (typeof module !== 'undefined' && module.exports) module.exports = api;
  if (typeof window !== 'undefined') window.BookPyParse = api;
})();
""")
    return "\n".join(parts).encode("utf-8")
