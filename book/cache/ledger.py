"""The ledger of reproductions, build_outputs/reproductions.jsonl (committed): one line per
experiment each time `make reproduce` reran it and it kept its committed entry's promises,
with the entry's key (exactly what was reproduced), the commit, the CPU class and the date.
Only `make reproduce` writes it, and only for what held; make test reads it, never writes."""
import json

from ..errors import BookError
from ..paths import Book, write_atomic

FILE = "reproductions.jsonl"
FIELDS = ("id", "key", "commit", "cpu", "date")


def path(book: Book):
    return book.outputs / FILE


def read(book: Book) -> list[dict]:
    """Every record, oldest first; a line that is not a whole record stops with its number."""
    try:
        text = path(book).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            rec = None
        if not isinstance(rec, dict) or set(rec) != set(FIELDS) or not all(isinstance(rec[k], str) for k in FIELDS):
            raise BookError(f"build_outputs/{FILE} 第 {n} 行不是一条完整的复现记录（{', '.join(FIELDS)}）：{line[:80]}")
        out.append(rec)
    return out


def append(book: Book, records: list[dict]) -> None:
    """Add records at the end (the file is rewritten whole, never half)."""
    if not records:
        return
    old = path(book).read_text(encoding="utf-8") if path(book).is_file() else ""
    new = "".join(json.dumps({k: r[k] for k in FIELDS}, ensure_ascii=False) + "\n" for r in records)
    write_atomic(path(book), old + new)


def current(book: Book, keys: dict[str, str]) -> dict[str, dict[str, dict]]:
    """Experiment id → CPU class → its latest record, counting only reproductions of the entry
    as it is now (the same key): a reproduction of older inputs vouches for nothing here."""
    out: dict = {}
    for rec in read(book):
        if keys.get(rec["id"]) == rec["key"]:
            out.setdefault(rec["id"], {})[rec["cpu"]] = rec
    return out
