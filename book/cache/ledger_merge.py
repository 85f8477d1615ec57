"""Merging what the machines of a reproduction matrix found into the one ledger. Each shard
writes its findings (`make reproduce RECORDS=file`) as JSON lines: the ledger's fields and a
status, held, failed or skipped. The merge is idempotent and order-independent: the records it
adds are the held ones the ledger lacks, sorted. It refuses, naming them, two findings for one
entry and CPU class that disagree (one machine saw it hold, another of the same class did not)
and a finding whose key is not the entry's key now (it vouches for inputs that are gone)."""
import json
from pathlib import Path

from ..errors import BookError
from ..paths import Book
from . import ledger

STATUSES = ("held", "failed", "skipped")


def read_findings(path: Path) -> list[dict]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            rec = None
        if (not isinstance(rec, dict) or rec.get("status") not in STATUSES
                or not all(isinstance(rec.get(k), str) for k in ledger.FIELDS)):
            raise BookError(f"{path} 第 {n} 行不是一条分片的记录（{', '.join(ledger.FIELDS)}, status）：{line[:80]}")
        out.append(rec)
    return out


def merge(book: Book, findings: list[dict], keys: dict[str, str],
          needs_hardware=()) -> tuple[list[dict], list[str]]:
    """(the records to add to the ledger, the experiments no machine could run: skipped by every
    shard, or needing hardware and found by none). keys: each experiment's current entry key."""
    problems, by_entry = [], {}
    for f in findings:
        if f["status"] == "skipped":
            continue
        now = keys.get(f["id"])
        if now != f["key"]:
            problems.append(f"{f['id']}：记录的键 {f['key'][:12]}… 不是条目现在的键 "
                            f"{(now or '（没有这个条目）')[:12]}…（这次重跑之后输入又变了，要重新复现）")
            continue
        by_entry.setdefault((f["id"], f["key"], f["cpu"]), set()).add(f["status"])
    for (i, _, cpu), seen in sorted(by_entry.items()):
        if len(seen) > 1:
            problems.append(f"{i}：在 {cpu} 上，有的机器复现了，有的没有：这个条目不稳定，先查清再合并")
    if problems:
        raise BookError("分片的记录合并不了：\n" + "\n".join(problems))
    have = {tuple(r[k] for k in ledger.FIELDS) for r in ledger.read(book)}
    new = {tuple(f[k] for k in ledger.FIELDS) for f in findings if f["status"] == "held"} - have
    order = sorted(new, key=lambda t: (t[4], t[0], t[3], t[2], t[1]))  # date, id, cpu, commit, key
    ran = {f["id"] for f in findings if f["status"] != "skipped"}
    unrun = sorted(({f["id"] for f in findings if f["status"] == "skipped"} | set(needs_hardware)) - ran)
    return [dict(zip(ledger.FIELDS, t)) for t in order], unrun
