"""`python -m book.commands.search_segment SITE_DIR/search.json` (make site ENGINE=zensical):
the Chinese of Zensical's search index cut into words, as Material's search does it, and one
entry per row of the torch → burn map (book/site/row_search.py), as the mkdocs build has."""
import sys
from pathlib import Path

from ..paths import Book
from ..site.row_search import add_rows
from ..site.search_segment import segment_index


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.commands.search_segment SITE_DIR/search.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    n = segment_index(path)
    rows = add_rows(Book(), path, "items")
    print(f"搜索索引：{n} 节的中文已分词，加上对照表的 {rows} 行（{path}）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
