"""`python -m book.commands.search_segment SITE_DIR/search.json` (make site ENGINE=zensical):
the Chinese of Zensical's search index cut into words, as Material's search does it."""
import sys
from pathlib import Path

from ..site.search_segment import segment_index


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.commands.search_segment SITE_DIR/search.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    n = segment_index(path)
    print(f"搜索索引：{n} 节的中文已分词（{path}）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
