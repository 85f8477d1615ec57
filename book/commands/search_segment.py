"""`python -m book.commands.search_segment SITE_DIR/search.json` (make site ENGINE=zensical):
Zensical's search index finished as the mkdocs build finishes Material's
(book/site/search_index.py): the Chinese cut into words, one entry per row of the torch → burn
map, no version lines, the hidden keys and synonyms."""
import sys
from pathlib import Path

from ..paths import Book
from ..site.search_index import finish


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.commands.search_segment SITE_DIR/search.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    n = finish(Book(), path, "zensical")
    print(f"搜索索引：{n['entries']} 节（其中对照表的 {n['rows']} 行），中文已分词，"
          f"加上 {n['keys']} 个隐藏的键和同义词（{path}）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
