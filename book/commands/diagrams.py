"""`python -m book.commands.diagrams [--check] [--root DIR]`: draw the diagrams that are missing
and remove those no fence uses (make site), or only check them (make check)."""
import argparse
import sys
from pathlib import Path

from ..paths import ROOT
from ..site.diagrams import THEMES, Cache, DiagramError
from ..site.draw import draw_missing


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m book.commands.diagrams", description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="只检查，不画：缺图或图损坏时退出码非 0")
    ap.add_argument("--root", type=Path, default=ROOT, help="项目根目录（其下的 docs/ 和 diagrams/）")
    args = ap.parse_args(argv)
    cache = Cache(args.root)
    try:
        if args.check:
            problems = cache.check()
            for p in problems:
                print(f"错误：{p}", file=sys.stderr)
            if problems:
                print("运行 python -m book.commands.diagrams（make site 会运行它）画图，再提交 "
                      f"{cache.dir.name}/ 里的 SVG", file=sys.stderr)
                return 1
            extra = cache.unused()
            n = len(cache.fences())
            print(f"{n} 张 mermaid 图都已画好（{cache.dir.name}/ 里 {n * len(THEMES)} 个 SVG）"
                  + (f"；另有 {len(extra)} 个没有图再用的文件，python -m book.commands.diagrams 会删掉它们" if extra else ""))
            return 0
        drawn = draw_missing(cache)
        if not drawn:
            print(f"{len(cache.fences())} 张 mermaid 图都已画好，没有要画的")
        return 0
    except DiagramError as e:
        print(f"错误：{e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
