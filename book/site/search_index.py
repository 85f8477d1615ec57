"""The last step of either engine's search index, after the engine wrote it: mkdocs
(search/search_index.json's docs, from mkdocs_hooks.on_post_build) and Zensical (search.json's
items, `python -m book.commands.search_segment`). Both end up with the same entries:

- Zensical's Chinese cut into words as Material's plugin cuts it (book/site/search_segment.py);
- one entry per row of the torch → burn map (book/site/row_search.py), and the map's topic
  sections searched by their titles only (the rows carry their text);
- no version line in any text, so a result's teaser is its section's first sentence;
- two hidden fields, `kt` from the title and `kx` from the text (a map row's also from its
  burn code): each identifier's keys, the synonyms, and an error message heading's key
  (book/site/search_keys.py). Material indexes them as fields of their own (added to the
  index's config below); Zensical's search box never shows them: its worker, wrapped by
  docs/assets/javascripts/workers/book-search.js (which also reads every query), joins them
  to its own copy of each title and text;
- config["book"]: what that worker needs to make a query's keys as the index made them.
"""
import json
from pathlib import Path

from ..paths import Book
from . import row_search, search_keys, search_segment

# Material's field weights: a key from the title weighs what the title's words weigh (1000 times
# the text's), a key from the text what the text's words weigh.
FIELDS = {"kt": {"boost": 1000.0}, "kx": {"boost": 1.0}}
ENTRIES = {"mkdocs": "docs", "zensical": "items"}


def tune(entries: list[dict], separator: str) -> None:
    for e in entries:
        e["text"] = search_keys.without_version_line(e.get("text", ""))
        kt = search_keys.keys(e.get("title", ""), title=True)
        if "#err-" in e.get("location", ""):  # an error message's heading (pages/messages.py)
            kt.append(search_keys.message_key(e["title"], separator))
        e["kt"] = " ".join(k for k in kt if k)
        code = e.pop("code", "")  # a map row's burn code: searched, never shown
        e["kx"] = " ".join(search_keys.keys(e["text"]) + search_keys.code_words(code))


def finish(book: Book, path: Path, engine: str) -> dict:
    """Rewrite the engine's index in place; what was done, counted."""
    data = json.loads(path.read_text(encoding="utf-8"))
    entries = data[ENTRIES[engine]]
    if "book" in data.get("config", {}):  # finished already (the command run twice): as it is
        return {"entries": len(entries), "rows": 0, "keys": 0}
    if engine == "zensical":
        search_segment.segment_entries(entries)
    rows = row_search.row_entries(book, entries)
    row_search.empty_topics(book, entries)
    entries.extend(rows)
    config = data.setdefault("config", {})
    tune(entries, config["separator"])
    if engine == "mkdocs":
        config.setdefault("fields", {}).update(FIELDS)
    config["book"] = {"aliases": search_keys.rules()["aliases"], "end": search_keys.KEY_END}
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return {"entries": len(entries), "rows": len(rows),
            "keys": sum(len(e["kt"].split()) + len(e["kx"].split()) for e in entries)}
