"""`python -m book.commands.site_stamp check|snapshot|commit`: make site's skip (see
book/site/site_stamp.py). A no-op make site is mostly this check: it imports nothing else."""
import sys

from ..paths import Book
from ..site import site_stamp


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    book = Book()
    if argv == ["check"]:
        why, pages_only = site_stamp.examine(book)
        if why is None:
            print("没有变化：site/ 已是这些输入的构建结果，跳过（要重建：make site FORCE=1）")
            return 0
        print(f"要构建：{why}" + ("（实验的输入没变：不用检查实验）" if pages_only else ""))
        return 3 if pages_only else 1
    if argv == ["snapshot"]:
        site_stamp.snapshot(book)
        return 0
    if argv == ["commit"]:
        site_stamp.commit(book)
        return 0
    print("用法：python -m book.commands.site_stamp check|snapshot|commit", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
