"""One search entry per row of the torch → burn map, under either engine: its title is every
PyTorch spelling of the row (F.cross_entropy, torch.topk, Tensor.sort), its location the row's
anchor, so that a name pasted from a script lands on the row itself. Added to the index the
engine wrote (mkdocs: search/search_index.json's docs; Zensical: search.json's items) by
book/site/search_index.py."""
import html

from ..pages import reference
from ..pages.programs import manifest
from ..paths import Book
from .search_segment import segment

MAP_SOURCE = reference.MAP_PAGE.removesuffix(".md")
# A row weighs what a pitfall page weighs (book/site/prepare.py's SEARCH_BOOST, 2), twice a
# content page: a word that a row and a chapter's section both hold finds the row, where the
# answer is one line. A spelling (torch.argmax) needs no more: its key is in the row's title
# (book/site/search_keys.py). (Material weighs a document by its boost; Zensical's index has no
# such field and ignores it.)
ROW_BOOST = 2.0


def _page_location(entries: list[dict]) -> str:
    """The map page's own location in this index ("reference/" or "reference.html")."""
    for e in entries:
        loc = e.get("location", "").split("#")[0]
        if loc.rstrip("/").removesuffix(".html") == MAP_SOURCE:
            return loc
    raise ValueError(f"搜索索引里没有对照表这一页（{MAP_SOURCE}）")


def row_entries(book: Book, entries: list[dict]) -> list[dict]:
    """One entry per row for an index whose entries are `entries`; none for a book without the
    map (the tests' scratch books)."""
    if not reference.experiments(book):
        return []
    page_location = _page_location(entries)
    out = []
    for exp_id in reference.experiments(book):
        for r in manifest(book, exp_id).rows:
            title = " · ".join(r.get("spellings") or [r["torch"]])
            # Quotes stay quotes: Zensical shows &#x27; in a teaser as it is written.
            text = " ".join(["<code>" + html.escape(r["torch"], quote=False) + "</code>",
                             html.escape(r["how"], quote=False),
                             reference.VERDICT_TEXT[r["verdict"]]])
            # "code" is the row's burn code: search_index.tune turns it into hidden keys (a
            # porter may search for burn's own names) and drops it.
            out.append({"location": f"{page_location}#{reference.anchor(exp_id, r['id'])}",
                        "title": segment(title), "text": segment(text), "boost": ROW_BOOST,
                        "code": reference.code_of(r)})
    return out


def empty_topics(book: Book, entries: list[dict]) -> int:
    """The map's topic sections (损失函数, 混合精度) searched by their titles only: their text is
    the rows' cells again, which the row entries carry one by one, and a topic that held the
    word five times in five rows outranked the one row that answers. The number emptied."""
    if not reference.experiments(book):
        return 0
    page = _page_location(entries)
    topics = {r["topic"] for e in reference.experiments(book) for r in manifest(book, e).rows}
    n = 0
    for e in entries:
        loc = e.get("location", "")
        if "#" in loc and loc.split("#")[0] == page \
                and e.get("title", "").replace("\u200b", "") in topics:
            e["text"] = ""
            n += 1
    return n
