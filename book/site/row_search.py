"""One search entry per row of the torch → burn map, under either engine: its title is every
PyTorch spelling of the row (F.cross_entropy, torch.topk, Tensor.sort), its location the row's
anchor, so that a name pasted from a script lands on the row itself. Added to the index the
engine wrote (mkdocs: search/search_index.json's docs; Zensical: search.json's items)."""
import html
import json
from pathlib import Path

from ..pages import reference
from ..pages.programs import manifest
from ..paths import Book
from .search_segment import segment

MAP_SOURCE = reference.MAP_PAGE.removesuffix(".md")
# A row outweighs a pitfall page (book/site/prepare.py's SEARCH_BOOST, 2): a porter who
# pastes torch.argmax wants the row first, with the argmax pitfall right after it. (Material
# weighs a document by its boost; Zensical's index has no such field and ignores it.)
ROW_BOOST = 6.0


def _page_location(entries: list[dict]) -> str:
    """The map page's own location in this index ("reference/" or "reference.html")."""
    for e in entries:
        loc = e.get("location", "").split("#")[0]
        if loc.rstrip("/").removesuffix(".html") == MAP_SOURCE:
            return loc
    raise ValueError(f"搜索索引里没有对照表这一页（{MAP_SOURCE}）")


def row_entries(book: Book, page_location: str) -> list[dict]:
    out = []
    for exp_id in reference.experiments(book):
        for r in manifest(book, exp_id).rows:
            title = " · ".join(r.get("spellings") or [r["torch"]])
            text = " ".join(["<code>" + html.escape(r["torch"]) + "</code>", html.escape(r["how"]),
                             reference.VERDICT_TEXT[r["verdict"]]])
            out.append({"location": f"{page_location}#{reference.anchor(exp_id, r['id'])}",
                        "title": segment(title), "text": segment(text), "boost": ROW_BOOST})
    return out


def add_rows(book: Book, index: Path, key: str) -> int:
    """Append the rows to the index's list `key` (docs or items); the number of rows."""
    if not reference.experiments(book):
        return 0  # a book without the map (the tests' scratch books)
    data = json.loads(index.read_text(encoding="utf-8"))
    entries = data[key]
    rows = row_entries(book, _page_location(entries))
    entries.extend(rows)
    index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return len(rows)
