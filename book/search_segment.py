"""`python -m book.search_segment SITE_DIR/search.json`: cut the Chinese in Zensical's search
index into words with jieba, with the very function Material's search plugin uses under
mkdocs (each run of Han characters becomes its words joined by U+200B, which the configured
separator splits on). Without it a Chinese query matches only whole runs of characters."""
import json
import sys
from pathlib import Path

import jieba
from material.plugins.search.plugin import SearchIndex

segment = SearchIndex()._segment_chinese


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("用法：python -m book.search_segment SITE_DIR/search.json", file=sys.stderr)
        return 2
    path = Path(argv[0])
    jieba.setLogLevel(60)  # its "Building prefix dict" chatter is not ours to print
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data.get("items", []):
        for key in ("title", "text"):
            if isinstance(item.get(key), str):
                item[key] = segment(item[key])
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    print(f"搜索索引：{len(data.get('items', []))} 节的中文已分词（{path}）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
