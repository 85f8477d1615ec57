"""`python -m book.commands.runner build [ID ...] [--force]` (make site, make outputs) and
`python -m book.commands.runner check` (make check, make test)."""
import sys

from ..errors import BookError
from ..experiments.manifest import discover
from ..paths import Book
from ..pipeline.build import build
from ..pipeline.check import check
from ..running.sides import Aborted


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(prog="python -m book.commands.runner")
    ap.add_argument("command", choices=["build", "check"])
    ap.add_argument("ids", nargs="*")
    ap.add_argument("--force", action="store_true", help="忽略缓存，重跑")
    ap.add_argument("--wait", action="store_true", help="另一个构建持有锁时等待，而不是退出")
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--root", help=argparse.SUPPRESS)  # tests: a scratch project
    args = ap.parse_intermixed_args(argv)
    book = Book(args.root) if args.root else Book()
    try:
        if args.command == "build":
            problems = build(book, args.ids or None, args.jobs, force=args.force, wait=args.wait)
        else:
            problems = check(book)
            if not problems:
                print(f"build_outputs/ 里 {len(discover(book))} 个实验的输出都是最新的，契约都成立")
    except BookError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Aborted) as e:
        # faults.guard has killed the children and removed the scratch folder by now.
        print(f"构建被中断（{e or '信号'}）：正在跑的实验都已停下，没有写入任何半成品的缓存", file=sys.stderr)
        return 130
    for p in problems:
        print(f"错误：{p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
