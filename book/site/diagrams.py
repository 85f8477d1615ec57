"""The book's ```mermaid diagrams, drawn at build time into SVG and cached in diagrams/.

A reader's browser gets the SVG inline in the page: no mermaid JavaScript at view time, and
the diagram shows without JavaScript. Drawing needs chromium and node_modules/mermaid (npm ci);
`make site` runs `python -m book.commands.diagrams` (drawing: book/site/draw.py), which draws only the diagrams whose file is missing,
and starts no browser when none is. The mkdocs build only reads the cache.

Each fence is drawn twice, in mermaid's `default` and `dark` themes; the page carries both and
book.css shows the one of the palette (light `default`, dark `slate`). A file's name is

    diagrams/<key>-<theme>-<sha>.svg

where <key> is the start of the sha256 of the fence's text, the mermaid version (from
package-lock.json), the drawing config and the theme, and <sha> is the start of the sha256 of
the file's own bytes: a changed source gets a new key (and is drawn again), and a damaged file
no longer matches its name, which fails the build and `--check` naming the page.

    python -m book.commands.diagrams          draw what is missing, remove what no fence uses
    python -m book.commands.diagrams --check  only check: non-zero exit when a diagram is missing or damaged
    --root DIR                                a project other than this one (docs/ and diagrams/ under DIR)
"""
import hashlib
import json
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

try:  # the drawing step runs without mkdocs' packages too
    from mkdocs.exceptions import PluginError
    from pymdownx.superfences import SuperFencesException
except ImportError:  # pragma: no cover
    class PluginError(Exception):
        pass

    class SuperFencesException(Exception):
        pass

from ..paths import ROOT

CACHE_NAME = "diagrams"
THEMES = ("default", "dark")
KEY_LEN, SHA_LEN = 16, 12
# Bump when the Python side of drawing changes what it writes (the in-browser part, DRAW_JS,
# is hashed into every key by itself): every diagram is drawn again.
RENDERER = 1
# The page's own text (Material with `font: false` falls back to the system's sans-serif);
# Noto Sans CJK SC first, the font the SVG's text is measured in when it is drawn.
FONT = ('"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", '
        '"Microsoft YaHei", sans-serif')
# Labels are drawn at 16 px; the page never shows a diagram below MIN_SCALE of its size
# (12 px text): narrower boxes scroll sideways instead (book.css).
FONT_PX = 16
MIN_SCALE = 0.75
# The text column's width at 1280 px (Material, both sidebars shown): a diagram wider than
# DESKTOP_BOX / MIN_SCALE scrolls sideways even on a desktop; the drawing step says so.
DESKTOP_BOX = 688
CONFIG = {
    "startOnLoad": False,
    "securityLevel": "strict",
    "deterministicIds": True,
    "htmlLabels": False,  # plain SVG <text>, no <foreignObject> HTML
    "fontFamily": FONT,
    "flowchart": {"htmlLabels": False, "useMaxWidth": False, "curve": "basis",
                  "nodeSpacing": 28, "rankSpacing": 28, "padding": 8,
                  "wrappingWidth": 1000},  # no automatic wrapping: labels break at <br/> only
    "markdownAutoWrap": False,
    "themeVariables": {"fontFamily": FONT, "fontSize": f"{FONT_PX}px"},
}
FENCE_RE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*mermaid[ \t]*$")
NAME_RE = re.compile(rf"^([0-9a-f]{{{KEY_LEN}}})-({'|'.join(THEMES)})-([0-9a-f]{{{SHA_LEN}}})\.svg$")


class DiagramError(SuperFencesException, PluginError):
    """A diagram the build cannot show: missing or damaged in diagrams/, or mermaid refused it.
    A SuperFencesException, so that superfences does not swallow it; a PluginError, so that
    mkdocs prints the message, not a traceback."""


@dataclass(frozen=True)
class Fence:
    page: str    # docs-relative path, "01-tensor/index.md"
    line: int    # line of the opening ``` (1-based)
    source: str  # normalized text (see normalize)

    @property
    def first(self) -> str:
        """The diagram's first line that says something (after `flowchart LR`)."""
        lines = [ln.strip() for ln in self.source.split("\n") if ln.strip()]
        return (lines[1] if len(lines) > 1 else lines[0]) if lines else ""

    def where(self) -> str:
        at = f" 第 {self.line} 行" if self.line else ""
        return f"页面 {self.page}{at}的 mermaid 图（{self.first[:60]}）"


def normalize(source: str) -> str:
    """The text that is hashed: the same for docs/*.md and for what superfences hands over
    (dedented, no trailing blanks, no blank lines around it)."""
    lines = [ln.rstrip() for ln in textwrap.dedent(source.replace("\r\n", "\n")).split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def find_fences(text: str, page: str) -> list[Fence]:
    """Every ```mermaid fence of one Markdown text, in order."""
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, mark = m.group(1), m.group(2)
        body, j = [], i + 1
        close = re.compile(rf"^{re.escape(indent)}{mark[0]}{{{len(mark)},}}[ \t]*$")
        while j < len(lines) and not close.match(lines[j]):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        out.append(Fence(page, i + 1, normalize("\n".join(body))))
        i = j + 1
    return out


class Cache:
    """diagrams/ of one project (ROOT unless a test points it elsewhere)."""

    def __init__(self, root: Path = ROOT, cache: Path | None = None):
        self.root = Path(root).resolve()
        self.docs = self.root / "docs"
        self.dir = Path(cache) if cache else self.root / CACHE_NAME
        lock = self.root / "package-lock.json"
        self.lock = lock if lock.exists() else ROOT / "package-lock.json"
        mermaid = self.root / "node_modules" / "mermaid"
        self.mermaid = mermaid if mermaid.exists() else ROOT / "node_modules" / "mermaid"
        self._version = None

    # ---- names
    def version(self) -> str:
        """The mermaid version package-lock.json pins: a new one draws every diagram again."""
        if self._version is None:
            try:
                lock = json.loads(self.lock.read_text(encoding="utf-8"))
                self._version = lock["packages"]["node_modules/mermaid"]["version"]
            except (OSError, KeyError, ValueError) as e:
                raise DiagramError(f"读不出 {self.lock} 里锁定的 mermaid 版本：{e}") from e
        return self._version

    def key(self, source: str, theme: str) -> str:
        blob = json.dumps({"source": normalize(source), "mermaid": self.version(), "config": CONFIG,
                           "theme": theme, "renderer": RENDERER, "draw": DRAW_SHA},
                          sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:KEY_LEN]

    def files(self) -> dict[tuple[str, str], list[Path]]:
        """(key, theme) -> the files named for it (one, unless something went wrong)."""
        out: dict[tuple[str, str], list[Path]] = {}
        if self.dir.is_dir():
            for p in sorted(self.dir.iterdir()):
                m = NAME_RE.match(p.name)
                if m:
                    out.setdefault((m.group(1), m.group(2)), []).append(p)
        return out

    def problem(self, source: str, theme: str, files=None) -> str | None:
        """None when the diagram's file is there and matches its name, else what is wrong."""
        key = self.key(source, theme)
        found = (files if files is not None else self.files()).get((key, theme), [])
        if not found:
            return f"{self.dir.name}/ 里没有它的 {theme} 主题 SVG（{key}-{theme}-*.svg）"
        if len(found) > 1:
            return f"{self.dir.name}/ 里有 {len(found)} 个 {key}-{theme}-*.svg，应只有一个"
        p = found[0]
        sha = hashlib.sha256(p.read_bytes()).hexdigest()[:SHA_LEN]
        if not p.name.endswith(f"-{sha}.svg"):
            return f"{self.dir.name}/{p.name} 已损坏：内容的 sha256 开头是 {sha}，和文件名不符"
        return None

    def svg(self, source: str, theme: str) -> str:
        key = self.key(source, theme)
        (p,) = self.files()[(key, theme)]
        return p.read_text(encoding="utf-8")

    def fences(self) -> list[Fence]:
        out = []
        for md in sorted(self.docs.rglob("*.md")):
            out += find_fences(md.read_text(encoding="utf-8"), md.relative_to(self.docs).as_posix())
        return out

    def check(self) -> list[str]:
        """One line per fence and theme that is missing or damaged."""
        files = self.files()
        out = []
        for f in self.fences():
            for theme in THEMES:
                p = self.problem(f.source, theme, files)
                if p:
                    out.append(f"{f.where()}：{p}")
        return out

    def unused(self) -> list[Path]:
        want = {(self.key(f.source, t), t) for f in self.fences() for t in THEMES}
        return [p for k, ps in self.files().items() if k not in want for p in ps]

    # ---- writing
    def store(self, source: str, theme: str, svg: str) -> Path:
        """Write one drawn SVG under its content-addressed name (temp file, then rename),
        replacing any other file of the same key and theme."""
        data = svg.encode("utf-8")
        key = self.key(source, theme)
        name = f"{key}-{theme}-{hashlib.sha256(data).hexdigest()[:SHA_LEN]}.svg"
        self.dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".svg", dir=self.dir)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, self.dir / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        for old in self.files().get((key, theme), []):
            if old.name != name:
                old.unlink()
        return self.dir / name


# --------------------------------------------------------------------------- drawing

# Runs in a blank chromium page with mermaid loaded. Draws one diagram and makes its SVG lean
# and self-contained: ids all start with the diagram's own id (two diagrams, or both themes of
# one, can share a page), CSS rules that match nothing in it are dropped, the size is fixed.
DRAW_JS = r"""async ({id, source, config}) => {
  mermaid.initialize(config);
  const {svg} = await mermaid.render(id, source);
  const holder = document.createElement('div');
  holder.innerHTML = svg;
  document.body.appendChild(holder);
  const el = holder.querySelector('svg');
  // ids: only the svg's own (its CSS is scoped by it) and the ones something points at,
  // all starting with the diagram's id (two diagrams, or both themes of one, share a page).
  const refs = new Set();
  el.querySelectorAll('*').forEach(e => {
    for (const a of e.attributes) {
      for (const m of a.value.matchAll(/url\(#([^)]+)\)/g)) refs.add(m[1]);
      if ((a.name === 'href' || a.name === 'xlink:href') && a.value.startsWith('#')) refs.add(a.value.slice(1));
    }
  });
  el.querySelectorAll('marker').forEach(m => { if (!refs.has(m.id)) m.remove(); });
  const rename = {};
  el.querySelectorAll('[id]').forEach(e => {
    if (!refs.has(e.id)) { e.removeAttribute('id'); return; }
    rename[e.id] = e.id.startsWith(id) ? e.id : id + '-' + e.id;
    e.id = rename[e.id];
  });
  el.querySelectorAll('*').forEach(e => {
    for (const a of [...e.attributes]) {
      if (a.name.startsWith('data-') || (a.name === 'style' && /^[\s;]*$/.test(a.value))) {
        e.removeAttribute(a.name); continue;
      }
      if (a.value.includes('url(#'))
        e.setAttribute(a.name, a.value.replace(/url\(#([^)]+)\)/g, (m, x) => `url(#${rename[x] || x})`));
      if ((a.name === 'href' || a.name === 'xlink:href') && a.value.startsWith('#'))
        e.setAttribute(a.name, '#' + (rename[a.value.slice(1)] || a.value.slice(1)));
      if (a.name === 'class') e.setAttribute('class', [...new Set(a.value.split(/\s+/).filter(Boolean))].join(' '));
    }
  });
  // CSS: keep the rules that select something in this svg (and every at-rule).
  const style = el.querySelector('style');
  if (style && style.sheet) {
    const keep = [];
    for (const r of style.sheet.cssRules) {
      if (r.selectorText === undefined) { keep.push(r.cssText); continue; }
      const sels = r.selectorText.split(',').filter(s => {
        const bare = s.replace(/::?[a-z-]+(\([^)]*\))?/g, '').trim();
        try { return bare === '' || el.querySelector(bare) !== null || bare === '#' + id; }
        catch (e) { return true; }
      });
      if (sels.length) keep.push(sels.join(',') + '{' + r.style.cssText + '}');
    }
    style.textContent = keep.join('');
  }
  const vb = el.viewBox.baseVal;
  const w = Math.ceil(vb.width), h = Math.ceil(vb.height);
  el.removeAttribute('style');
  el.setAttribute('width', w);
  el.setAttribute('height', h);
  // Measured where the reader sees it: the smallest label's font size at scale 1.
  const sizes = [...el.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize));
  // Each label's lines as drawn: mermaid wraps an edge label wider than 200 px by itself.
  const rows = [...el.querySelectorAll('text')].flatMap(t =>
      [...t.querySelectorAll(':scope > tspan')].map(s => s.textContent.trim()));
  const out = new XMLSerializer().serializeToString(el);
  holder.remove();
  return {svg: out, width: w, height: h, minFont: Math.min(...sizes), texts: sizes.length, rows};
}"""

PAGE_HTML = f"<!doctype html><html><head><meta charset='utf-8'><style>body{{font-family:{FONT}}}</style></head><body></body></html>"
DRAW_SHA = hashlib.sha256((DRAW_JS + PAGE_HTML).encode("utf-8")).hexdigest()[:16]


# --------------------------------------------------------------------------- the mkdocs side

_cache: Cache | None = None
_page: str | None = None


def use(cache: Cache):
    """book/site/mkdocs_hooks.py's on_config: the project mkdocs.yml belongs to."""
    global _cache
    _cache = cache


def current() -> Cache:
    global _cache
    if _cache is None:
        _cache = Cache()
    return _cache


def check_page(page: str, markdown: str):
    """book/site/prepare.py: stop the build on a diagram the cache cannot show."""
    global _page
    _page = page
    cache = current()
    files = cache.files()
    problems = []
    try:  # line numbers of the page's own file (the macros have run on `markdown`)
        lines = {f.source: f.line for f in find_fences((cache.docs / page).read_text(encoding="utf-8"), page)}
    except OSError:
        lines = {}
    for f in find_fences(markdown, page):
        f = Fence(page, lines.get(f.source, 0), f.source)
        for theme in THEMES:
            p = cache.problem(f.source, theme, files)
            if p:
                problems.append(f"{f.where()}：{p}")
    if problems:
        raise DiagramError("；".join(problems) + "。运行 make site（它先运行 python -m book.commands.diagrams 画图），"
                           f"再把 {cache.dir.name}/ 里新画的 SVG 一起提交")


def _with_class(svg: str, cls: str) -> str:
    """The root <svg> with one class attribute, ours: mermaid's own (`flowchart`) goes, as a
    browser dropped it anyway (an element keeps the first of two) and no style reads it."""
    m = re.match(r"\s*<svg\b[^>]*>", svg)
    if not m:
        raise DiagramError("画好的 SVG 不以 <svg> 开头")
    tag = re.sub(r'\sclass="[^"]*"', "", m.group(0))
    return tag.replace("<svg", f'<svg class="{cls}"', 1) + svg[m.end():]


def html(source: str) -> str:
    """The figure the page carries: both themes inline, book.css shows the palette's one."""
    cache = current()
    parts, width = [], 0
    for theme in THEMES:
        problem = cache.problem(source, theme)
        if problem:
            f = Fence(_page or "?", 0, normalize(source))
            raise DiagramError(f"{f.where()}：{problem}。运行 make site（它先运行 python -m book.commands.diagrams 画图）")
        svg = cache.svg(source, theme)
        m = re.search(r'<svg\b[^>]*?\swidth="(\d+)"', svg)
        width = max(width, int(m.group(1)) if m else 0)
        cls = "diagram-light" if theme == "default" else "diagram-dark"
        parts.append(_with_class(svg, cls))
    least = -(-width * MIN_SCALE // 1)  # never narrower than this: 12 px text
    return (f'<figure class="diagram" style="--diagram-min: {int(least)}px">'
            f'<div class="diagram-scroll" tabindex="0" role="group" aria-label="图，可左右滑动">'
            + "".join(parts) +
            '</div><figcaption class="diagram-hint" aria-hidden="true">'
            '<span>← 左右滑动看全图 →</span></figcaption></figure>')


def fence_format(source, language, class_name, options, md, **kwargs):
    """pymdownx.superfences custom format for ```mermaid (mkdocs.yml)."""
    return html(source)


# --------------------------------------------------------------------------- command line
