"""Cut the Chinese in Zensical's search index into words with jieba (book/site/search_index.py
calls it), with the very function Material's search plugin uses under mkdocs (each run of Han
characters becomes its words joined by U+200B, which the configured separator splits on).
Without it a Chinese query matches only whole runs of characters."""
import jieba
from material.plugins.search.plugin import SearchIndex

segment = SearchIndex()._segment_chinese


def segment_entries(entries: list[dict]) -> None:
    """Cut the Chinese of Zensical's search.json items into words, in place."""
    jieba.setLogLevel(60)  # its "Building prefix dict" chatter is not ours to print
    for item in entries:
        for key in ("title", "text"):
            if isinstance(item.get(key), str):
                item[key] = segment(item[key])
