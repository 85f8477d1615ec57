"""The fixed page structures of BOOK.md, checked on each page's rendered Markdown."""
import re

PITFALL = ["PyTorch 的写法", "照搬到 burn", "现象", "原因", "改法", "怎么检查", "小结"]
H2_RE = re.compile(r"^## +(.+?)\s*#*\s*$")
FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")


def _walk(markdown: str):
    """(line, its H2 title or None, whether it is inside fenced code) for each line."""
    fence = None
    for line in markdown.split("\n"):
        m = FENCE_RE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and line.strip() == mark:
                fence = None
        h = H2_RE.match(line) if fence is None else None
        yield line, h.group(1) if h else None, fence is not None


def sections(markdown: str) -> list[tuple[str, str]]:
    """(H2 title, body) pairs, skipping headings inside fenced code."""
    out, title, body = [], None, []
    for line, h, _ in _walk(markdown):
        if h:
            if title is not None or body:
                out.append((title, "\n".join(body)))
            title, body = h, []
        else:
            body.append(line)
    out.append((title, "\n".join(body)))
    return [(t, b) for t, b in out if t is not None]


def check(kind: str | None, markdown: str) -> list[str]:
    """What is missing or out of place; empty when the page keeps its structure."""
    if kind in (None, "appendix"):
        return []
    secs = sections(markdown)
    titles = [t for t, _ in secs]
    if kind == "pitfall":
        if titles != PITFALL:
            for i, want in enumerate(PITFALL):
                got = titles[i] if i < len(titles) else None
                if got != want:
                    where = f"第 {i + 1} 个二级标题是 {got!r}" if got else f"只有 {len(titles)} 个二级标题"
                    return [f"坑页的二级标题必须依次是 {' → '.join(PITFALL)}；{where}，应为 {want!r}"]
            return [f"坑页的二级标题必须恰好是 {' → '.join(PITFALL)}；多出了 {titles[len(PITFALL):]}"]
        return []
    if kind == "content":
        problems = []
        if not titles or titles[0] != "主线位置":
            problems.append(f"内容页的第一个二级标题必须是 '主线位置'，实际是 {titles[0] if titles else None!r}")
        else:
            first = secs[0][1]
            if 'class="version-line"' not in first:
                problems.append("'主线位置' 一节里缺版本行：用 {{ version_line(...) }} 生成，不要手写")
            if not re.search(r"^\s*```+mermaid\s*$", first, re.M):
                problems.append("'主线位置' 一节里缺一张 mermaid 图")
        if len(titles) < 4 or titles[-2:] != ["对得上", "小结"]:
            problems.append(f"内容页的最后两个二级标题必须是 '对得上' 和 '小结'，实际是 {titles[-2:]}")
        for t in ("主线位置", "对得上", "小结"):
            if titles.count(t) > 1:
                problems.append(f"二级标题 {t!r} 出现了 {titles.count(t)} 次")
        return problems
    return [f"front matter 的 kind 只能是 content、pitfall 或 appendix，得到 {kind!r}"]


# Sections of a pitfall page that are about the burn code: there its tab opens first (until
# the reader picks a tab; Material then keeps that choice on every page).
BURN_FIRST = {"照搬到 burn", "改法"}
BURN_TAB_RE = re.compile(r'^(\s*)=== "burn"$', re.M)


def burn_first(kind: str | None, markdown: str) -> str:
    if kind != "pitfall":
        return markdown
    out, title = [], None
    for line, h, fenced in _walk(markdown):
        title = h or title
        if not fenced and not h and title in BURN_FIRST:
            line = BURN_TAB_RE.sub(r'\1===+ "burn"', line)
        out.append(line)
    return "\n".join(out)


HEADING_RE = re.compile(r"^(#{2,6}) +(.+?)\s*$")


def unsearchable_headings(markdown: str) -> str:
    """Every heading below the title marked data-search-exclude: an appendix's generated
    sections (one per page and experiment) stay out of the search index, so that the appendix
    never ranks above the page it reports on. Its title and introduction stay in."""
    out = []
    for line, _, in_fence in _walk(markdown):
        m = HEADING_RE.match(line) if not in_fence else None
        if m and not m.group(2).endswith("}"):
            line = f"{m.group(1)} {m.group(2)} {{ data-search-exclude }}"
        out.append(line)
    return "\n".join(out)
