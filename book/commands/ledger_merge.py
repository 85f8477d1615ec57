"""Merge the findings of a reproduction matrix's shards into build_outputs/reproductions.jsonl.

    python -m book.commands.ledger_merge FILE ...      (make ledger-merge RECORDS="a.jsonl b.jsonl")
"""
import sys
from pathlib import Path

from ..cache import ledger
from ..cache.keys import stored_inputs
from ..cache.ledger_merge import merge, read_findings
from ..errors import BookError
from ..experiments.manifest import discover
from ..paths import Book


def main(argv=None) -> int:
    files = sys.argv[1:] if argv is None else argv
    if not files:
        print("用法：make ledger-merge RECORDS=\"分片1.jsonl 分片2.jsonl …\"", file=sys.stderr)
        return 2
    book = Book()
    try:
        findings = [f for name in files for f in read_findings(Path(name))]
        exps = discover(book)
        keys = {e.id: (stored_inputs(book, e.id) or {}).get("key") for e in exps}
        # Hardware no runner of the matrix had: its experiments got no finding at all.
        added, unrun = merge(book, findings, keys, [e.id for e in exps if e.requires])
    except (OSError, BookError) as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    ledger.append(book, added)
    for i in unrun:
        print(f"没有一台机器能跑 {i}（它要的硬件这次没有机器有）：它还没有复现")
    print(f"合并了 {len(files)} 个分片的 {len(findings)} 条记录：build_outputs/{ledger.FILE} 新增 {len(added)} 行")
    return 0


if __name__ == "__main__":
    sys.exit(main())
