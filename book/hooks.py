"""mkdocs hooks: the structure check runs on every page after the macros rendered it."""
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from book import structure  # noqa: E402


def on_page_markdown(markdown, page, config, files):
    kind = page.meta.get("kind")
    problems = structure.check(kind, markdown)
    if problems:
        raise PluginError(f"页面 {page.file.src_path} 不符合固定结构：" + "；".join(problems))
    return structure.burn_first(kind, markdown)
