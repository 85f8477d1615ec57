"""What the last full build did with each experiment (cached, ran, compared, skipped, failed),
for the execution report: build_outputs/.last-build.json, never committed."""
import json
import os
from datetime import datetime, timezone

from ..paths import Book

STATE_FILE = ".last-build.json"


def write(book: Book, states: dict):
    """Written by a full build (not by one that ran only some experiments)."""
    book.outputs.mkdir(parents=True, exist_ok=True)
    tmp = book.outputs / f".tmp-{STATE_FILE}"
    tmp.write_text(json.dumps({"at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                               "experiments": states}, ensure_ascii=False, indent=1), "utf-8")
    os.replace(tmp, book.outputs / STATE_FILE)


def read(book: Book) -> dict:
    """Experiment id → its state in the last full build; {} when there was none (or it is damaged)."""
    try:
        return json.loads((book.outputs / STATE_FILE).read_text("utf-8"))["experiments"]
    except (OSError, ValueError, KeyError):
        return {}
