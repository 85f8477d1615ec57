"""Drawing the ```mermaid fences that have no SVG yet: mermaid (node_modules) in Debian's
chromium through playwright, each fence in both themes, checked for its text size and width
before it is stored in diagrams/ (book/site/diagrams.py)."""
import json
import os
import re
from pathlib import Path

from .diagrams import (CONFIG, DESKTOP_BOX, DRAW_JS, FONT_PX, MIN_SCALE, PAGE_HTML, THEMES, Cache,
                       DiagramError, Fence)


# Debian's chromium (tools/system-packages.sh); BOOK_CHROMIUM points elsewhere (tests: nowhere).
CHROMIUM = Path(os.environ.get("BOOK_CHROMIUM", "/usr/bin/chromium"))


LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class Drawer:
    """chromium with mermaid loaded, started on first use."""

    def __init__(self, cache: Cache):
        self.cache = cache
        self._pw = self._browser = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._browser:
            self._browser.close()
        if self._pw:
            self._pw.stop()

    def _start(self):
        js = self.cache.mermaid / "dist" / "mermaid.min.js"
        pkg = self.cache.mermaid / "package.json"
        installed = json.loads(pkg.read_text(encoding="utf-8"))["version"] if pkg.exists() else None
        if installed != self.cache.version() or not js.exists():
            raise DiagramError(f"node_modules 里的 mermaid 是 {installed}，package-lock.json 锁定的是 "
                               f"{self.cache.version()}：先运行 npm ci（make setup 会运行它）")
        if not CHROMIUM.exists():
            raise DiagramError(f"画图要用 {CHROMIUM}：先运行 bash tools/system-packages.sh")
        from playwright.sync_api import sync_playwright
        self._pw = sync_playwright().start()
        self._browser = self._pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        self._js = js

    def draw(self, fence: Fence, theme: str) -> dict:
        if self._browser is None:
            self._start()
        key = self.cache.key(fence.source, theme)
        # A fresh page per diagram: mermaid's counters start over, so the output depends only
        # on the diagram (the same bytes whichever others are drawn with it).
        context = self._browser.new_context(viewport={"width": 1280, "height": 800})
        try:
            context.route("**", lambda r: r.abort() if not r.request.url.startswith(("data:", "about:"))
                          else r.continue_())
            page = context.new_page()
            page.set_content(PAGE_HTML)
            page.add_script_tag(path=str(self._js))
            page.evaluate("document.fonts.ready.then(() => true)")
            config = dict(CONFIG, theme=theme, deterministicIDSeed=key)
            try:
                return page.evaluate(DRAW_JS, {"id": f"d{key}-{theme}", "source": fence.source,
                                               "config": config})
            except Exception as e:
                msg = str(e).split("\n")
                raise DiagramError(f"{fence.where()}：mermaid 画不出来：{' '.join(msg[:6])}") from e
        finally:
            context.close()


def auto_wrapped(source: str, rows: list[str]) -> list[str]:
    """Drawn lines that are no line of a label in the source: mermaid broke them itself."""
    lines = {part.strip() for label in re.findall(r'"([^"]*)"', source)
             for part in re.split(r"<br\s*/?>", label)}
    return [r for r in rows if r and r not in lines]


def draw_missing(cache: Cache, say=print) -> list[tuple[Fence, str]]:
    """Draw every (fence, theme) whose file is missing or damaged; remove unused files.
    Starts no browser when nothing is missing. Returns what was drawn."""
    files = cache.files()
    todo = []
    for f in cache.fences():
        for theme in THEMES:
            p = cache.problem(f.source, theme, files)
            if p:
                todo.append((f, theme, p))
    drawn = []
    if todo:
        seen = {}
        with Drawer(cache) as d:
            for f, theme, why in todo:
                key = (cache.key(f.source, theme), theme)
                if key in seen:  # the same diagram on two pages
                    continue
                out = d.draw(f, theme)
                seen[key] = cache.store(f.source, theme, out["svg"])
                drawn.append((f, theme))
                if out["minFont"] < FONT_PX:
                    raise DiagramError(f"{f.where()}：画出来的文字只有 {out['minFont']}px，应为 {FONT_PX}px")
                wrapped = auto_wrapped(f.source, out["rows"])
                if wrapped:
                    say(f"注意：{f.where()} 里 mermaid 自己给文字折了行（边上的文字每行最多约 200px）："
                        + "、".join(wrapped[:4]) + "：在合适的地方加 <br/>")
                if out["width"] * MIN_SCALE > DESKTOP_BOX:
                    say(f"注意：{f.where()} 宽 {out['width']}px，1280 宽的桌面上也要左右滚动才看得全"
                        f"（放得下的宽度是 {int(DESKTOP_BOX / MIN_SCALE)}px）：改成 flowchart TB，或用 <br/> 给长标签换行")
                say(f"画了 {f.where()}，{theme} 主题：{out['width']}×{out['height']}，"
                    f"{len(out['svg'].encode()) / 1024:.1f} KB → {seen[key].relative_to(cache.dir.parent)}"
                    + ("" if why.startswith(f"{cache.dir.name}/ 里没有") else f"（原因：{why}）"))
    for p in cache.unused():
        p.unlink()
        say(f"删掉了没有图再用的 {p.relative_to(cache.dir.parent)}")
    return drawn
