"""Cut the Chinese in Zensical's search
index into words with jieba, with the very function Material's search plugin uses under
mkdocs (each run of Han characters becomes its words joined by U+200B, which the configured
separator splits on). Without it a Chinese query matches only whole runs of characters."""
import json
from pathlib import Path

import jieba
from material.plugins.search.plugin import SearchIndex

segment = SearchIndex()._segment_chinese


def segment_index(path: Path) -> int:
    """Rewrite Zensical's search.json with its Chinese cut into words; the number of sections."""
    jieba.setLogLevel(60)  # its "Building prefix dict" chatter is not ours to print
    data = json.loads(path.read_text(encoding="utf-8"))
    for item in data.get("items", []):
        for key in ("title", "text"):
            if isinstance(item.get(key), str):
                item[key] = segment(item[key])
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return len(data.get("items", []))
