"""The built book in a real browser: Debian's chromium, driven by pip's playwright.

The site is built once (`mkdocs build --strict`), served on 127.0.0.1, and walked page by
page at phone width; the other tests reuse that walk or open a few pages of their own.
Screenshots go to .screenshots/ at the repo root (gitignored), to be looked at by a person.

Without /usr/bin/chromium these tests fail and say how to install it; BOOK_NO_BROWSER=1
skips them on purpose.
"""
import html
import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

import browser_util as bu
from book.pages import messages
from book import sources
from book.paths import Book
from scratch import REPO

SHOTS = REPO / ".screenshots"
# Representative pages: the landing page, a chapter with tabs and a diagram, a pitfall page
# (compile errors with generics in them), the pitfall index.
SHOT_PAGES = {"index": "/", "chapter": "/01-tensor/", "pitfall": "/10-pitfalls/moved-value/",
              "pitfalls": "/10-pitfalls/"}
TAB_PAGE, OTHER_TAB_PAGE = "/01-tensor/", "/02-module/"
SEARCH_INDEX = "/search/search_index.json"
BOOK = Book(REPO)
# Chinese queries and pages that certainly hold the word (the walk adds every page whose
# text holds it).
QUERIES = {
    "借用": {"/02-module/", "/10-pitfalls/moved-value/"},
    "广播": {"/01-tensor/", "/10-pitfalls/rank-mismatch/"},
    "整数": {"/01-tensor/int-ops/", "/10-pitfalls/int-scalar/", "/10-pitfalls/int-div/",
             "/10-pitfalls/int-sum-wrap/"},
}
# Issue 13: every page's first view, gzip-compressed as a server would send it. The search
# index (1.4 MB, ~300 KB gzip) is not part of it: it comes only when the reader searches.
FIRST_VIEW_GZIP_BUDGET = 400_000
BURN_LINK = re.compile(r"https://github\.com/tracel-ai/burn/blob/v([^/]+)/([^#]+)#L(\d+)-L(\d+)")
# mkdocs.yml's site_url (make serve's address): canonical links and the sitemap use it.
SITE_URL = "http://127.0.0.1:8000/"
# burn-onnx lives in its own repository: linked at the commit its package was made from.
ONNX_LINK = re.compile(r"https://github\.com/tracel-ai/burn-onnx/blob/([0-9a-f]{40})/crates/burn-onnx/([^#]+)#L(\d+)-L(\d+)")
# Elements the Markdown of this book may produce inside .md-content (SVG subtrees aside).
# An output rendered as HTML shows up as anything else: <module>, <date>, <tensor>, <script>.
CONTENT_TAGS = {
    "article", "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "div", "span", "code", "pre",
    "ul", "ol", "li", "input", "label", "nav", "button", "details", "summary", "table",
    "thead", "tbody", "tr", "th", "td", "strong", "em", "b", "i", "blockquote", "hr", "br",
    "img", "sup", "sub", "kbd", "abbr", "del", "ins", "mark", "small", "dl", "dt", "dd",
    "figure", "figcaption", "aside",
}
# A page's own widgets, allowed on that page only: the script scanner's box.
PAGE_WIDGETS = {"/scan/": {"textarea"}}


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def base_url(site):
    with bu.serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def empty_index(site) -> str:
    """The search index with its config and no documents. Walks and screenshots serve it in
    place of the real one: Material's worker still makes all its requests (the guard sees
    them), but does not spend a second of CPU per page indexing the whole book. The search
    test uses the real index."""
    cfg = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    return json.dumps({"config": cfg, "docs": []})


@pytest.fixture(scope="module")
def static_pages(site) -> dict[str, str]:
    """URL path -> the built HTML of every page."""
    return {p: (site / p.lstrip("/") / "index.html").read_text(encoding="utf-8")
            for p in bu.site_pages(site)}


PAGE_JS = r"""() => {
  const iw = window.innerWidth;
  const content = document.querySelector('.md-content');
  const article = content.querySelector('article');
  const codes = [...content.querySelectorAll('pre > code')];
  const describe = e => e.localName + (e.id ? '#' + e.id : '') +
      (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\s+/).join('.') : '');
  // Elements that stick out to the right of the viewport without a scrolling or clipping
  // ancestor to hold them: those are what make a phone scroll sideways.
  const fixed = e => { for (let a = e; a && a !== document.body; a = a.parentElement)
                         if (getComputedStyle(a).position === 'fixed') return true; return false; };
  const held = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                        if (getComputedStyle(a).overflowX !== 'visible') return true; return false; };
  // An element's own box, or the text it lets spill out (overflow-x: visible).
  const rightEdge = e => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 0;
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible')
      return Math.max(r.right, r.left + e.scrollWidth);
    return r.right;
  };
  const sticking = [];
  for (const e of document.body.querySelectorAll('*')) {
    const right = rightEdge(e);
    if (right <= iw + 1 || fixed(e) || held(e)) continue;
    sticking.push(describe(e) + ' right=' + Math.round(right));
  }
  const preProblems = [];
  content.querySelectorAll('pre').forEach((pre, i) => {
    const r = pre.getBoundingClientRect();
    if (r.width && r.right > iw + 1) preProblems.push(`pre #${i} reaches x=${Math.round(r.right)}`);
    const code = pre.querySelector('code') || pre;
    const ox = getComputedStyle(code).overflowX, oxp = getComputedStyle(pre).overflowX;
    if (code.scrollWidth > code.clientWidth + 1 && !['auto', 'scroll'].includes(ox)
        && !['auto', 'scroll'].includes(oxp))
      preProblems.push(`pre #${i} is wider than its box and does not scroll (overflow-x ${ox})`);
  });
  return {
    scheme: document.body.getAttribute('data-md-color-scheme'),
    scrollWidth: document.documentElement.scrollWidth, innerWidth: iw,
    sticking: sticking.slice(0, 10), preProblems,
    codes: codes.length,
    codesWithoutCopy: codes.filter(c => !c.parentElement.querySelector(
        'button[data-md-type="copy"], button.md-clipboard')).length,
    tags: [...new Set([...content.querySelectorAll('*')].filter(e => !e.closest('svg'))
                        .map(e => e.localName))],
    scripts: content.querySelectorAll('script').length,
    articleText: article ? article.textContent : '',
    preText: codes.map(c => c.textContent).join('\n\u0000\n'),
    bodyText: document.body.innerText,
  };
}"""


class Walk:
    def __init__(self):
        self.pages: dict[str, dict] = {}
        self.outside: list[tuple[str, str]] = []
        self.js_errors: list[tuple[str, str]] = []
        self.bad_responses: list[tuple[str, str]] = []
        self.requested: dict[str, int] = {}  # local URL path -> times requested
        self.finished: list = []  # the requests of the page being visited
        self.seconds = 0.0
        self.started = time.time()


def visit(page, guard, settle: bu.Settle, path: str, base_url: str, walk: "Walk") -> dict:
    guard.label = path
    settle.reset()
    walk.finished.clear()
    page.goto(base_url + path, wait_until="load")
    diagrams = bu.wait_for_diagrams(page)
    settle.wait()  # until the search worker's fetches and anything late are done
    info = page.evaluate(PAGE_JS)
    info["diagrams"] = diagrams
    # The first view's weight: every request of this load goes over the wire again, as the
    # guard's routing turns chromium's cache off (as in a fresh context: test_weighing_...).
    info["weight"] = bu.weigh(walk.finished, guard)
    return info


def attach_listeners(page, walk: Walk, guard):
    page.on("pageerror", lambda e: walk.js_errors.append((guard.label, str(e))))
    page.on("console", lambda m: m.type == "error" and walk.js_errors.append(
        (guard.label, "console: " + m.text)))
    page.on("response", lambda r: r.status >= 400 and walk.bad_responses.append(
        (guard.label, f"{r.status} {r.url}")))
    page.on("requestfailed", lambda r: bu.is_local(r.url) and r.failure != "net::ERR_ABORTED"
            and walk.bad_responses.append((guard.label, f"{r.failure} {r.url}")))

    def count(r):
        path = urlsplit(r.url).path
        walk.requested[path] = walk.requested.get(path, 0) + 1
    page.on("request", count)
    page.on("requestfinished", lambda r: walk.finished.append(r))


@pytest.fixture(scope="module")
def walk(browser, base_url, site, empty_index) -> Walk:
    """Every page of the site at phone width (light): what each one looks like once loaded."""
    w = Walk()
    t0 = time.monotonic()
    context = browser.new_context(viewport=bu.PHONE, color_scheme="light")
    guard = bu.Guard(context)
    guard.overrides[SEARCH_INDEX] = empty_index
    page = context.new_page()
    attach_listeners(page, w, guard)
    settle = bu.Settle(page)
    SHOTS.mkdir(exist_ok=True)
    try:
        for path in bu.site_pages(site):
            w.pages[path] = visit(page, guard, settle, path, base_url, w)
            for name, p in SHOT_PAGES.items():
                if p == path:
                    shoot(page, SHOTS / f"{name}-phone-light.png")
    finally:
        context.close()
    w.outside = list(guard.outside)
    w.seconds = time.monotonic() - t0
    print(f"\nwalked {len(w.pages)} pages at phone width in {w.seconds:.1f}s")
    fonts = {p: min(d["font"] for d in i["diagrams"])
             for p, i in w.pages.items() if i["diagrams"] and all(d["font"] for d in i["diagrams"])}
    if fonts:
        small = min(fonts, key=fonts.get)
        print(f"diagram labels at phone width: {min(fonts.values()):.1f}px ({small}) to "
              f"{max(fonts.values()):.1f}px (drawn at 16px; the svg shrinks to 3/4 at most, then scrolls)")
    return w


def shoot(page, path: Path):
    """The top of the page: 2 viewports on a desktop, 3 on a phone."""
    width = page.viewport_size["width"]
    rows = 2 if width > 800 else 3
    height = min(page.evaluate("document.documentElement.scrollHeight"),
                 rows * page.viewport_size["height"])
    page.screenshot(path=str(path), full_page=True,
                    clip={"x": 0, "y": 0, "width": width, "height": height})


# --------------------------------------------------------------------------- the browser itself

def test_missing_chromium_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(bu, "CHROMIUM", tmp_path / "no-chromium")
    problem = bu.chromium_problem()
    assert problem and "bash tools/system-packages.sh" in problem and "BOOK_NO_BROWSER=1" in problem


# --------------------------------------------------------------------------- outside requests

def test_outside_request_guard_catches_injected_requests(browser, base_url):
    """The guard itself: a page that asks for things from outside gets each one recorded."""
    context = browser.new_context()
    guard = bu.Guard(context)
    try:
        page = context.new_page()
        guard.label = "/probe/"
        page.goto(base_url + "/")
        page.set_content(
            '<img src="http://example.com/x.png">'
            '<link rel="stylesheet" href="https://fonts.googleapis.com/css?family=Roboto">'
            '<script src="https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.min.js"></script>'
            f'<img src="http://localhost:{urlsplit(base_url).port}/assets/images/favicon.png">'
            f'<img src="{base_url}/assets/images/favicon.png">')
        page.evaluate("fetch('http://example.com/api').catch(() => null)")
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    urls = {u for _, u in guard.outside}
    assert {"http://example.com/x.png", "https://fonts.googleapis.com/css?family=Roboto",
            "https://cdn.jsdelivr.net/npm/mermaid/dist/mermaid.min.js",
            "http://example.com/api"} <= urls, guard.outside
    assert any(u.startswith("http://localhost:") for u in urls), "localhost is not 127.0.0.1"
    assert not any(u.startswith(base_url) for u in urls)
    assert all(label == "/probe/" for label, _ in guard.outside)


def test_no_request_leaves_127_0_0_1(walk, site):
    pages = bu.site_pages(site)
    assert len(pages) >= 20 and set(walk.pages) == set(pages)
    # A first view never fetches the search index (assets/search.js holds it back until the
    # reader searches); test_the_search_index_waits_for_the_reader follows the search's requests.
    assert walk.requested.get(SEARCH_INDEX, 0) == 0, walk.requested
    assert walk.outside == [], "requests that left 127.0.0.1 (page, url):\n" + "\n".join(
        f"  {p}  {u}" for p, u in walk.outside)


def test_no_javascript_errors_or_missing_files(walk):
    assert walk.js_errors == [], "\n".join(f"  {p}  {e}" for p, e in walk.js_errors)
    assert walk.bad_responses == [], "\n".join(f"  {p}  {e}" for p, e in walk.bad_responses)


# --------------------------------------------------------------------------- mermaid
# Drawn at build time (book/site/diagrams.py): each figure.diagram carries an inline svg per theme.

def diagram_problems(info: dict, expected: int) -> list[str]:
    out = []
    ds = info["diagrams"]
    if len(ds) != expected:
        out.append(f"{len(ds)} figure.diagram in the browser, {expected} in the built HTML")
    for i, d in enumerate(ds):
        if not d["svg"]:
            out.append(f"diagram {i}: no svg shown ({d['svgs']} in the figure; text {d['text'][:80]!r})")
        elif len(d["shown"]) != 1 or d["svgs"] != 2:
            out.append(f"diagram {i}: {len(d['shown'])} of {d['svgs']} svgs shown, want 1 of 2")
        elif d["kind"] == "error" or any("Syntax error" in t for t in d["labels"]):
            out.append(f"diagram {i}: mermaid drew its error picture")
        elif d["shapes"] < 5 or not d["labels"] or d["width"] < 50 or d["height"] < 20:
            out.append(f"diagram {i}: empty-looking svg ({d['shapes']} shapes, "
                       f"{len(d['labels'])} labels, {d['width']:.0f}x{d['height']:.0f})")
        elif d["font"] is None or d["font"] < 12 - 0.01:
            out.append(f"diagram {i}: labels drawn at {d['font']}px, below 12px")
        if d["scroll"] > d["box"] + 1 and (d["overflowX"] not in ("auto", "scroll") or d["hint"] < 8):
            out.append(f"diagram {i}: {d['scroll']}px wide in a {d['box']}px box, but "
                       f"overflow-x {d['overflowX']} and a {d['hint']:.0f}px hint")
    if "Syntax error" in info["bodyText"] or "Parse error" in info["bodyText"]:
        out.append("mermaid error text on the page")
    return out


def fence_count() -> int:
    return sum(len(re.findall(r"^\s*```+\s*mermaid\b", p.read_text(encoding="utf-8"), re.M))
               for p in (REPO / "docs").rglob("*.md"))


def test_every_mermaid_diagram_renders(walk, static_pages):
    fences = fence_count()
    built = {path: h.count('<figure class="diagram"') for path, h in static_pages.items()}
    assert fences and sum(built.values()) == fences, (
        f"{fences} ```mermaid fences in docs/, {sum(built.values())} figure.diagram in the site")
    problems = {path: diagram_problems(walk.pages[path], n) for path, n in built.items()}
    problems = {k: v for k, v in problems.items() if v}
    assert problems == {}, "\n".join(f"  {k}: {'; '.join(v)}" for k, v in problems.items())
    assert sum(len(walk.pages[p]["diagrams"]) for p in built) == fences


def diagrams_at(browser, base_url, paths, **context_args) -> dict[str, list[dict]]:
    context = browser.new_context(**context_args)
    bu.Guard(context)
    try:
        page = context.new_page()
        out = {}
        for path in paths:
            page.goto(base_url + path, wait_until="load")
            out[path] = bu.wait_for_diagrams(page)
        return out
    finally:
        context.close()


def pages_with_diagrams(static_pages) -> list[str]:
    return [p for p, h in static_pages.items() if '<figure class="diagram"' in h]


def test_diagram_text_is_at_least_12px_on_a_desktop(browser, base_url, static_pages):
    seen = diagrams_at(browser, base_url, pages_with_diagrams(static_pages), viewport=bu.DESKTOP)
    fonts = {p: min(d["font"] or 0 for d in ds) for p, ds in seen.items()}
    print("\ndiagram labels at 1280px: " + ", ".join(f"{p} {f:.1f}px" for p, f in sorted(fonts.items())))
    assert len(fonts) == fence_count() and min(fonts.values()) >= 12 - 0.01, fonts
    # book.site.draw warns about a diagram too wide for a desktop; none is, today.
    wide = {p: (d["scroll"], d["box"]) for p, ds in seen.items() for d in ds if d["scroll"] > d["box"] + 1}
    assert wide == {}, f"diagrams that scroll sideways at 1280px: {wide}"


def test_wide_diagrams_scroll_and_say_so_on_a_phone(walk, static_pages):
    ds = {p: d for p in pages_with_diagrams(static_pages) for d in walk.pages[p]["diagrams"]}
    wide = {p: d for p, d in ds.items() if d["scroll"] > d["box"] + 1}
    # 09-deploy's is the widest kind: it must scroll rather than shrink below 12px text.
    assert "/09-deploy/" in wide, {p: (d["scroll"], d["box"]) for p, d in ds.items()}
    print(f"\n/09-deploy/ at 390px: {wide['/09-deploy/']['scroll']}px in a "
          f"{wide['/09-deploy/']['box']}px box; {len(wide)} of {len(ds)} diagrams scroll")
    for p, d in ds.items():
        assert d["font"] >= 12 - 0.01, (p, d["font"])
        if p in wide:
            assert d["overflowX"] in ("auto", "scroll") and d["hint"] >= 8, (p, d)
            assert "左右滑动" in d["hintText"], (p, d["hintText"])
        else:
            assert d["hint"] == 0, f"{p}: the hint shows though the diagram fits"


SCHEME_JS = """() => [...document.querySelectorAll('figure.diagram svg')].map(s => {
  const t = s.querySelector('.nodes text') || s.querySelector('text');
  const m = getComputedStyle(t).fill.match(/[\\d.]+/g).map(Number);
  return {cls: s.getAttribute('class'), shown: getComputedStyle(s).display !== 'none',
          label: (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255};
})"""


def test_diagrams_follow_the_colour_scheme(browser, base_url):
    """prefers-color-scheme picks the palette; the palette toggle (data-md-color-scheme on
    body) switches the diagram too: light labels on slate, dark ones on default."""
    for scheme, want in (("light", "diagram-light"), ("dark", "diagram-dark")):
        context = browser.new_context(viewport=bu.DESKTOP, color_scheme=scheme)
        bu.Guard(context)
        try:
            page = context.new_page()
            page.goto(base_url + "/03-loss-backward/", wait_until="load")
            for palette, shown in ((None, want), ("slate", "diagram-dark"), ("default", "diagram-light")):
                if palette:
                    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{palette}')")
                svgs = page.evaluate(SCHEME_JS)
                assert [s["cls"] for s in svgs if s["shown"]] == [shown], (scheme, palette, svgs)
                (label,) = [s["label"] for s in svgs if s["shown"]]
                assert (label > 0.5) == (shown == "diagram-dark"), (scheme, palette, svgs)
        finally:
            context.close()


def test_diagrams_show_without_javascript(browser, base_url, static_pages):
    seen = diagrams_at(browser, base_url, ["/09-deploy/", "/01-tensor/"], viewport=bu.PHONE,
                       java_script_enabled=False)
    for path, ds in seen.items():
        assert diagram_problems({"diagrams": ds, "bodyText": ""}, 1) == [], (path, ds)
        assert ds[0]["shown"] == ["diagram-light"]


def test_no_page_requests_mermaid(walk, site):
    """Nothing of mermaid reaches the reader: no script requested by any page, none in site/."""
    asked = sorted(p for p in walk.requested if "mermaid" in p.lower())
    assert asked == [], asked
    assert [p.name for p in site.rglob("*mermaid*")] == []


BROKEN_BITS = (
    # An output that went in as HTML: the browser makes elements of <module> and <script>.
    '<pre><code>File "x.py", line 1, in <module>\n<script>window.__pwned = 1</script></code></pre>'
    # A block that neither wraps nor scrolls: it widens the page on a phone.
    '<pre style="overflow: visible"><code style="overflow: visible; white-space: pre">'
    + "wide " * 200 + "</code></pre>")


def test_checks_see_a_broken_page(browser, base_url, static_pages):
    """The walk's checks on /01-tensor/ with its diagram emptied, a second one without the
    scroll hint, an output pasted in as HTML and a code block that does not scroll: each one
    must complain."""
    good = static_pages["/01-tensor/"]
    # The light svg emptied of its drawing, the dark one gone.
    bad, n = re.subn(r'(<svg class="diagram-light"[^>]*>).*?</svg>', r"\1</svg>", good, count=1, flags=re.S)
    bad, m = re.subn(r'<svg class="diagram-dark".*?</svg>', "", bad, count=1, flags=re.S)
    # A wide diagram of another page, its hint dropped.
    wide = static_pages["/09-deploy/"]
    fig = re.search(r'<figure class="diagram".*?</figure>', wide, re.S).group(0)
    fig = re.sub(r'<figcaption class="diagram-hint".*?</figcaption>', "", fig, flags=re.S)
    bad = bad.replace("</article>", fig + BROKEN_BITS + "</article>", 1)
    assert n == m == 1 and BROKEN_BITS in bad
    context = browser.new_context(viewport=bu.PHONE)
    guard = bu.Guard(context)
    guard.overrides["/01-tensor/"] = bad
    try:
        page = context.new_page()
        info = visit(page, guard, bu.Settle(page), "/01-tensor/", base_url, Walk())
    finally:
        context.close()
    problems = diagram_problems(info, 1)
    text = "; ".join(problems)
    assert "2 figure.diagram in the browser, 1 in the built HTML" in problems, problems
    assert "diagram 0: empty-looking svg" in text or "diagram 0: 1 of 1 svgs" in text, problems
    assert "diagram 1:" in text and "hint" in text, problems
    assert {"module", "script"} <= set(info["tags"]) - CONTENT_TAGS and info["scripts"] == 1
    assert info["scrollWidth"] > info["innerWidth"] and info["sticking"] and info["preProblems"]


# --------------------------------------------------------------------------- linked tabs

# The label checked in each PyTorch/burn tab set; `collapsed`: only the sets inside a
# closed <details> (a collapsed ??? block), `open`: only the others.
TABS_JS = """(which) => [...document.querySelectorAll('.tabbed-set')].map(s => {
  const labels = [...s.querySelectorAll(':scope > .tabbed-labels > label')].map(l => l.textContent.trim());
  const inputs = [...s.querySelectorAll(':scope > input')];
  let collapsed = false;
  for (let a = s.parentElement; a; a = a.parentElement)
    if (a.localName === 'details' && !a.open) collapsed = true;
  return {labels, collapsed, checked: labels[inputs.findIndex(i => i.checked)]};
}).filter(s => s.labels.join('|') === 'PyTorch|burn')
  .filter(s => which === 'all' || s.collapsed === (which === 'collapsed'))
  .map(s => s.checked)"""


def choose_burn(browser, base_url):
    """A fresh context: on TAB_PAGE click "burn" on the second visible tab set. Returns the context,
    the page and the checked labels before the click."""
    context = browser.new_context(viewport=bu.DESKTOP)
    bu.Guard(context)
    page = context.new_page()
    page.goto(base_url + TAB_PAGE)
    before = page.evaluate(TABS_JS, "all")
    # :visible: the full views (book/site/downloads/) put tab sets inside collapsed blocks.
    page.locator(".tabbed-set:visible").nth(1).locator(":scope > .tabbed-labels > label") \
        .get_by_text("burn", exact=True).click()
    bu.wait_until(page, f"({TABS_JS})('open').every(c => c === 'burn')", what="点了 burn 之后每组标签都选 burn")
    return context, page, before


def test_linked_tabs_switch_together_and_persist(browser, base_url):
    context, page, before = choose_burn(browser, base_url)
    try:
        assert len(before) >= 3 and set(before) == {"PyTorch"}, before
        # What shows is the burn code, in every set.
        first = page.locator(".tabbed-set").first.locator(".tabbed-block")
        assert first.nth(1).is_visible() and not first.nth(0).is_visible()
        stored = page.evaluate("Object.keys(localStorage).filter(k => k.endsWith('__tabs'))")
        assert stored, "content.tabs.link stored nothing in localStorage"

        page.goto(base_url + OTHER_TAB_PAGE)
        after = page.evaluate(TABS_JS, "open")
        assert len(after) >= 2 and set(after) == {"burn"}, after
    finally:
        context.close()


SECTION_TABS_JS = """() => {
  const out = []; let h2 = null;
  for (const el of document.querySelector('article').children) {
    if (el.localName === 'h2') { h2 = el.textContent.replace('¶', '').trim(); continue; }
    const sets = el.matches('.tabbed-set') ? [el] : [...el.querySelectorAll('.tabbed-set')];
    for (const s of sets) {
      const labels = [...s.querySelectorAll(':scope > .tabbed-labels > label')].map(l => l.textContent.trim());
      const inputs = [...s.querySelectorAll(':scope > input')];
      if (labels.join('|') === 'PyTorch|burn') out.push([h2, labels[inputs.findIndex(i => i.checked)]]);
    }
  }
  return out;
}"""


def test_burn_code_shows_first_where_the_section_is_about_it(browser, base_url):
    """A fresh reader of a pitfall page sees the burn tab in 照搬到 burn and 改法, PyTorch
    elsewhere; once a tab is picked, that choice holds on the next page."""
    context = browser.new_context(viewport=bu.DESKTOP)
    bu.Guard(context)
    try:
        page = context.new_page()
        page.goto(base_url + "/10-pitfalls/detach-graph/")
        shown = page.evaluate(SECTION_TABS_JS)
        about_burn = [c for h, c in shown if h in ("照搬到 burn", "改法")]
        assert about_burn and set(about_burn) == {"burn"}, shown
        assert {c for h, c in shown if h not in ("照搬到 burn", "改法")} <= {"PyTorch"}, shown
        # The reader picks PyTorch: the next pitfall page keeps it, even where burn comes first.
        burn_sets = page.locator(".tabbed-set:has(> input:nth-of-type(2):checked)")
        burn_sets.first.locator(":scope > .tabbed-labels > label").get_by_text("PyTorch", exact=True).click()
        bu.wait_until(page, "(__md_get('__tabs') || [])[0] === 'PyTorch'", what="Material 记下读者选的 PyTorch")
        page.goto(base_url + "/10-pitfalls/moved-value/")
        assert {c for _, c in page.evaluate(SECTION_TABS_JS)} == {"PyTorch"}
    finally:
        context.close()


def test_linked_tabs_reach_collapsed_blocks(browser, base_url):
    """Tab sets inside a collapsed ??? block follow the choice too, once opened."""
    context, page, _ = choose_burn(browser, base_url)
    try:
        problems = []
        for path in (TAB_PAGE, OTHER_TAB_PAGE):
            if path != TAB_PAGE:
                page.goto(base_url + path)
            n = len(page.evaluate(TABS_JS, "collapsed"))
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            page.wait_for_function("() => [...document.querySelectorAll('details')].every(d => d.open)")
            checked = page.evaluate(TABS_JS, "all")
            if set(checked) != {"burn"}:
                problems.append(f"{path}: {checked.count('PyTorch')} of the {n} tab sets in "
                                f"collapsed blocks still show PyTorch after choosing burn")
        assert problems == [], "\n".join(problems)
    finally:
        context.close()


# --------------------------------------------------------------------------- search

def run_search(page, query: str) -> tuple[str, list[str]]:
    """Type a query into Material's search; return its meta line and the result pages."""
    box = page.locator("input.md-search__input")
    box.click()
    # Empty the box and wait for the meta line to say so: otherwise the previous query's
    # count can satisfy the wait below and its results be read for this query.
    box.fill("")
    box.press("End")
    bu.wait_until(page, "() => !/\\d|没有/.test(document.querySelector('.md-search-result__meta').textContent)",
                  what="搜索框清空后结果行也清空")
    box.fill(query)
    box.press("End")  # Material reads the query on keyup
    bu.wait_until(page,  # a count, or "没有找到符合条件的结果"
                  "q => document.querySelector('input.md-search__input').value === q && "
                  "/\\d|没有/.test(document.querySelector('.md-search-result__meta').textContent)",
                  arg=query, what=f"搜索 {query!r} 的结果行")
    meta = page.locator(".md-search-result__meta").inner_text()
    if not re.search(r"\d", meta):
        return meta, []
    total = int(re.search(r"\d+", meta).group())
    # Ten results come at once, then four more each time the list is scrolled to its end.
    items = ".md-search-result__list > .md-search-result__item"
    # Scroll to the end and back a little, poll after poll, until every result is rendered.
    bu.wait_until(page, """([sel, total]) => {
        const w = document.querySelector('.md-search__scrollwrap');
        if (document.querySelectorAll(sel).length >= total) return true;
        const end = w.scrollHeight - w.clientHeight;
        w.scrollTop = w.scrollTop >= end - 1 ? end - 50 : w.scrollHeight;
        return false; }""", arg=[items, total], what=f"搜索 {query!r} 的 {total} 条结果全部画出")
    links = page.evaluate(f"""() => [...document.querySelectorAll('{items} > a.md-search-result__link:first-child')]
                                 .map(a => new URL(a.href).pathname)""")
    assert len(links) == total, f"{query}: {meta} but {len(links)} rendered"
    return meta, links


# The page's search worker, reached the way the box reaches it. Material posts the box's value
# as {type: 2, data: value} to its worker (docs/assets/search.js starts it inside
# javascripts/workers/book-search.js, which reads the query) and renders the groups of the
# {type: 3} answer in order, one result per page.
# engine_search posts the same message to the same worker and reads the same answer without
# drawing it: the exhaustive checks (every torch name, every pasted message) go through it, and
# each of them also types a sample into the real box and requires the same list.
RECORD_WORKERS = """(() => { const W = window.Worker; if (!W) return; window.__bookWorkers = [];
  window.Worker = function (url, options) { const w = new W(url, options);
    window.__bookWorkers.push(w); return w; };
  window.Worker.prototype = W.prototype; })();"""
ENGINE_JS = """q => new Promise(resolve => {
  const w = window.__bookWorkers[window.__bookWorkers.length - 1];
  const answer = e => { if (!e.data || e.data.type !== 3) return;
    w.removeEventListener('message', answer);
    resolve(e.data.data.items.map(g => new URL(g[0].location, location.origin + '/').pathname)
              .map(p => p.replace(/index\\.html$/, ''))); };
  w.addEventListener('message', answer);
  w.postMessage({type: 2, data: q}); })"""


def search_page(browser, base_url, path: str):
    """(context, page) at path, with the search worker recorded and its index loaded (the
    first search in the box asks for it). The search is the same from every page: a light one
    spares the CPU the map's 600 tables."""
    context = browser.new_context(viewport=bu.DESKTOP)
    context.add_init_script(RECORD_WORKERS)
    guard = bu.Guard(context)
    page = context.new_page()
    page.goto(base_url + path)
    run_search(page, "burn")
    return context, guard, page


def engine_search(page, query: str) -> list[str]:
    """The result pages the box would list for this query, in its order (see RECORD_WORKERS)."""
    return page.evaluate(ENGINE_JS, query)


def box_agrees(page, queries: list[str], every: int) -> list[str]:
    """Every every-th query typed into the real box: its list must be engine_search's."""
    problems = []
    for q in queries[::every]:
        _, shown = run_search(page, q)
        engine = engine_search(page, q)
        if shown != engine:
            problems.append(f"{q[:60]!r}：搜索框列出 {shown[:5]}，引擎给出 {engine[:5]}")
    return problems


def test_engine_search_is_what_the_box_shows(browser, base_url):
    """The fast path and the box agree, on queries with many results and on none."""
    context, guard, page = search_page(browser, base_url, "/")
    try:
        queries = ["torch", "DataLoader", "梯度", "E0382", "zzqxjv"]
        assert engine_search(page, "zzqxjv") == []
        assert len(engine_search(page, "torch")) > 10
        assert box_agrees(page, queries, 1) == []
    finally:
        context.close()
    assert guard.outside == []


def test_chinese_search_finds_the_pages(browser, base_url, walk):
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    problems = []
    try:
        page = context.new_page()
        page.goto(base_url + "/10-pitfalls/")
        for query, sure in QUERIES.items():
            holding = {p for p, info in walk.pages.items() if query in info["articleText"]}
            assert sure <= holding, f"{query}: {sorted(sure - holding)} no longer contain it"
            meta, found = run_search(page, query)
            print(f"\n{query}: {meta}; {len(holding)} pages hold it; results: {found}")
            missing = holding - set(found)
            if not found:
                problems.append(f"{query}: {meta}")
            elif missing:
                problems.append(f"{query}: {meta}; missing {sorted(missing)}")
            elif found[0] not in holding:
                problems.append(f"{query}: first result {found[0]} does not contain it")
    finally:
        context.close()
    assert guard.outside == []
    assert problems == [], "\n".join(problems)


def test_search_index_is_segmented_with_jieba(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    cfg = index["config"]
    assert cfg["lang"] == ["zh"], cfg
    sep = re.compile(cfg["separator"])
    assert sep.fullmatch("\u200b"), f"the separator does not split on U+200B: {cfg['separator']!r}"
    text = " ".join(re.sub(r"<[^>]+>", " ", d["text"]) + " " + d["title"] for d in index["docs"])
    assert text.count("\u200b") > 1000, "no zero-width separators: jieba did not segment"
    tokens = set(sep.split(text))
    assert {"借用", "广播", "整数", "张量"} <= tokens
    # Unsegmented Chinese would leave whole clauses as single tokens.
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    longest = max(runs, key=len)
    assert len(longest) <= 8, f"unsegmented run of {len(longest)} characters: {longest}"


def error_queries() -> list[tuple[str, set[str]]]:
    """(message, the pages that carry it) for every message of every pitfall page."""
    by_msg: dict[str, set[str]] = {}
    for md in sorted((REPO / "docs" / "10-pitfalls").glob("*.md")):
        page = md.relative_to(REPO / "docs").with_suffix("").as_posix()
        for _, msg in messages.of_page(BOOK, page):
            by_msg.setdefault(msg, set()).add(f"/{page}/")
    return sorted(by_msg.items())


def test_every_pasted_message_is_on_its_page(static_pages):
    """Every literal error a pitfall page's experiments print is on that page as text: what a
    reader pastes from a terminal. (search_queries.yaml types each into both engines' boxes,
    as cached and with a reader's own path, and requires its pitfall first.)"""
    queries = error_queries()
    assert len(queries) >= 15, f"only {len(queries)} messages on the pitfall pages"
    for msg, pages in queries:
        for path in pages:
            text = html.unescape(re.sub(r"<[^>]+>", "", static_pages[path]))
            assert msg in text, f"{path} does not show {msg[:60]!r}"


def appendix_before_content(query: str, found: list[str]) -> list[str]:
    appendix = [i for i, p in enumerate(found) if p.startswith("/appendix/")]
    content = [i for i, p in enumerate(found) if not p.startswith("/appendix/")]
    if appendix and content and appendix[0] < content[-1]:
        return [f"{query!r}: {found[appendix[0]]} ranks before content page {found[content[-1]]}"]
    return []


def test_the_search_index_waits_for_the_reader(browser, base_url):
    """First view fetches no search index; a click into the search box fetches it, and then a
    query with lunr syntax in it (quotes, a colon), pasted from a terminal, still finds pages."""
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    asked = []
    try:
        page = context.new_page()
        page.on("request", lambda r: asked.append(urlsplit(r.url).path))
        page.goto(base_url + "/10-pitfalls/file-exists/", wait_until="load")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        assert SEARCH_INDEX not in asked, "the index came with the page, before any search"
        meta, found = run_search(page, 'save checkpoint: AlreadyExists("checkpoint.bpk")')
        assert SEARCH_INDEX in asked, "searching never fetched the index"
        assert any(p.endswith("lunr.zh.min.js") for p in asked), asked  # the worker's own requests
        assert found[:1] == ["/10-pitfalls/file-exists/"], (meta, found)
    finally:
        context.close()
    assert guard.outside == []


def torch_names() -> list[tuple[str, str]]:
    """(row id, the torch name a reader would search for) for each row of the torch → burn map:
    the last name called in its torch column (x.masked_fill(m, v) → masked_fill,
    nn.GRU(4, 3) → nn.GRU, x.clone().detach() → detach)."""
    from book.pages import reference
    from book.pages.programs import manifest
    out = []
    for exp_id in reference.experiments(BOOK):
        for r in manifest(BOOK, exp_id).rows:
            names = re.findall(r"(?:nn\.|F\.)?[A-Za-z_][A-Za-z0-9_]*(?=\()", r["torch"])
            if names:
                out.append((r["id"], names[-1]))
    return out


def test_a_torch_name_finds_the_reference_row(browser, base_url):
    """Typing a torch call's name (masked_fill, nn.GRU) finds the map's page among the results.
    Asked of the engine only: that the box shows the engine's answer is checked by
    test_engine_search_is_what_the_box_shows and by the spellings pasted below."""
    names = torch_names()
    assert any(n == "masked_fill" for _, n in names), names
    context, guard, page = search_page(browser, base_url, "/")
    missing = []
    try:
        rows_of: dict[str, list[str]] = {}
        for row_id, name in names:  # one search per name, however many rows call it
            rows_of.setdefault(name, []).append(row_id)
        for name, row_ids in rows_of.items():
            found = engine_search(page, name)
            if "/reference/" not in found:
                missing.append(f"{name} (rows {', '.join(row_ids)}): {found[:5]}")
    finally:
        context.close()
    assert guard.outside == []
    assert missing == [], "\n".join(missing)


def test_appendix_is_never_above_a_content_page(browser, base_url):
    """The appendix repeats every experiment's outcome, but its generated sections are left
    out of the index and it weighs next to nothing: it comes after every content page, even
    for its own name, and is still found."""
    context, guard, page = search_page(browser, base_url, "/")
    problems = []
    try:
        for query in [*QUERIES, "panic", "compile_error", "burn", "E0382", "mismatch", "缓存"]:
            found = engine_search(page, query)
            problems += appendix_before_content(query, found)
        for query, path in (("执行报告", "/appendix/report/"), ("版本漂移", "/appendix/drift/")):
            found = engine_search(page, query)
            problems += appendix_before_content(query, found)
            if path not in found:
                problems.append(f"{query!r} (the appendix page's own title): {path} not found")
    finally:
        context.close()
    assert problems == [], "\n".join(problems)


# --------------------------------------------------------------------------- escaping

def shown_files(exp_id: str, side: str) -> list[Path]:
    """The cached files a side_output of this experiment puts on the page (as book.pages.blocks)."""
    d = REPO / "build_outputs" / exp_id
    status = json.loads((d / "outcome.json").read_text("utf-8"))[side]["actual"]["status"]
    stdout = [d / f"{side}.json"] if (d / f"{side}.json").is_file() else [d / f"{side}.txt"]
    if status == "compile_error":
        return [d / f"{side}.diagnostics.txt"]
    if status in ("panic", "exception", "error", "timeout"):
        return stdout + [d / f"{side}.stderr.txt"]
    return stdout


def output_files_with_markup() -> list[tuple[str, str, Path]]:
    """(page path, experiment, file) for every shown output whose text has <letters...>."""
    out = []
    call = re.compile(r'(side_output|outputs_tabs)\(\s*"([^"]+)"(?:\s*,\s*"([a-z]+)")?')
    for md in (REPO / "docs").rglob("*.md"):
        rel = md.relative_to(REPO / "docs").as_posix()
        url = "/" + re.sub(r"(^|/)index\.md$", r"\1", rel).removesuffix(".md")
        url = url if url.endswith("/") else url + "/"
        for fn, exp_id, side in call.findall(md.read_text(encoding="utf-8")):
            if not (REPO / "build_outputs" / exp_id / "outcome.json").is_file():
                continue  # a requires: experiment never run: the page says so instead
            outcome = json.loads((REPO / "build_outputs" / exp_id / "outcome.json").read_text("utf-8"))
            for s in ([side] if fn == "side_output" else [x for x in ("python", "burn") if x in outcome]):
                for f in shown_files(exp_id, s):
                    if f.is_file() and re.search(r"<[A-Za-z/]", f.read_text(encoding="utf-8")):
                        out.append((url, exp_id, f))
    return sorted(set(out))


def test_outputs_with_angle_brackets_show_literally(walk):
    files = output_files_with_markup()
    assert len(files) >= 5, files  # compile errors with Tensor<..>, tracebacks with <module>
    missing = []
    for url, exp_id, f in files:
        text = walk.pages[url]["preText"]
        for line in f.read_text(encoding="utf-8").splitlines():
            if "<" in line and line.strip() and line.strip() not in text:
                missing.append(f"{url} ({exp_id}/{f.name}): {line.strip()[:100]}")
    assert missing == [], "output lines not shown literally:\n" + "\n".join(missing)


def test_no_markup_from_outputs_in_the_dom(walk):
    odd = {p: sorted(set(i["tags"]) - CONTENT_TAGS - PAGE_WIDGETS.get(p, set())) for p, i in walk.pages.items()}
    odd = {p: t for p, t in odd.items() if t}
    assert odd == {}, f"unexpected elements inside .md-content: {odd}"
    scripts = {p: i["scripts"] for p, i in walk.pages.items() if i["scripts"]}
    assert scripts == {}, f"<script> inside .md-content: {scripts}"


def test_code_blocks_have_copy_buttons_that_copy_text(walk, browser, base_url):
    assert sum(i["codes"] for i in walk.pages.values()) > 100
    without = {p: i["codesWithoutCopy"] for p, i in walk.pages.items() if i["codesWithoutCopy"]}
    assert without == {}, f"code blocks without a copy button: {without}"
    # The button copies the text, generics and all: a compile error with Tensor<..> in it.
    context = browser.new_context(viewport=bu.DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    bu.Guard(context)
    try:
        page = context.new_page()
        page.goto(base_url + "/10-pitfalls/rank-mismatch/")
        pre = page.locator(".md-content pre:has(code:text('Tensor<'))").first
        expected = pre.locator("code").text_content()
        pre.hover()
        pre.locator("button[data-md-type='copy']").click()
        copied = page.evaluate("navigator.clipboard.readText()")
    finally:
        context.close()
    assert "Tensor<" in copied and copied.strip() == expected.strip()


# --------------------------------------------------------------------------- links

class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for attr in ("href", "src"):
            if a.get(attr) is not None and tag in ("a", "link", "script", "img", "source",
                                                   "iframe", "area"):
                self.refs.append((tag, a[attr]))


def parse(html_text: str) -> _Links:
    p = _Links()
    p.feed(html_text)
    return p


def burn_file(repo_path: str, version: str) -> Path | None:
    """crates/burn-flex/src/x.rs -> <registry>/burn-flex-<version>/src/x.rs (Cargo.toml:
    the .orig cargo keeps of the file in the repo), via each crate's path_in_vcs."""
    for root in sources.registry_roots():
        burn = root / f"burn-{version}"
        if not burn.is_dir():
            continue
        # Every crate published from burn's repository at that commit (pytorch-reader too).
        for d in root.glob(f"*-{version}"):
            try:
                if sources.vcs_commit(d) != sources.vcs_commit(burn):
                    continue
                prefix = sources.path_in_vcs(d).strip("/") + "/"
            except Exception:
                continue
            if repo_path.startswith(prefix):
                rel = repo_path[len(prefix):]
                f = d / ("Cargo.toml.orig" if rel == "Cargo.toml" else rel)
                return f if f.is_file() else None
    return None


def onnx_problem(m) -> str | None:
    """A burn-onnx link must name the commit of the locked package and lines inside its file."""
    sha, rel, a, b = m.groups()
    d = sources.crate_dir("burn-onnx", sources.locked_version(REPO / "Cargo.lock", "burn-onnx"))
    if sha != sources.vcs_commit(d):
        return f"commit {sha} is not the one burn-onnx's package was made from"
    f = d / rel
    if not f.is_file():
        return f"no {rel} in cargo's copy of burn-onnx"
    if not 1 <= int(a) <= int(b) <= len(f.read_text(encoding="utf-8").splitlines()):
        return f"lines {a}-{b} outside {rel}"
    return None


def link_problems(site: Path, static_pages: dict[str, str], version: str):
    """(problems, burn links) over every page: hrefs/srcs into the site must hit a file
    (and an id, for #anchors); outside the site only burn's source at the tag, within the file."""
    parsed = {p: parse(h) for p, h in static_pages.items()}
    broken, foreign, burn_links = [], {}, set()
    for page, links in parsed.items():
        for tag, ref in links.refs:
            if ref.startswith(SITE_URL):
                ref = "/" + ref[len(SITE_URL):]  # canonical links: the site's own address
            parts = urlsplit(ref)
            if parts.scheme in ("http", "https") or ref.startswith("//"):
                m = BURN_LINK.fullmatch(ref)
                o = ONNX_LINK.fullmatch(ref)
                if m and m.group(1) == version:
                    burn_links.add(ref)
                elif o and onnx_problem(o) is None:
                    pass
                elif o:
                    broken.append(f"{page}: {ref}: {onnx_problem(o)}")
                else:
                    foreign.setdefault(ref, set()).add(page)
                continue
            if parts.scheme:  # mailto:, javascript:, data:
                foreign.setdefault(ref, set()).add(page)
                continue
            target = urlsplit(urljoin(page, ref))
            path = unquote(target.path)
            f = site / path.lstrip("/")
            if path.endswith("/") or f.is_dir():
                f = f / "index.html"
            if not f.is_file():
                broken.append(f"{page}: <{tag}> {ref} -> no {f.relative_to(site)}")
                continue
            if target.fragment:
                rel = f.parent.relative_to(site).as_posix()
                key = "/" if rel == "." else f"/{rel}/"
                ids = parsed[key].ids if key in parsed else parse(f.read_text("utf-8")).ids
                if unquote(target.fragment) not in ids:
                    broken.append(f"{page}: {ref} -> no id {target.fragment!r} on {key}")
    for ref in sorted(burn_links):
        _, repo_path, a, b = BURN_LINK.fullmatch(ref).groups()
        f = burn_file(repo_path, version)
        if f is None:
            broken.append(f"{ref}: no {repo_path} in cargo's copy of burn {version}")
            continue
        n = len(f.read_text(encoding="utf-8").splitlines())
        if not 1 <= int(a) <= int(b) <= n:
            broken.append(f"{ref}: lines {a}-{b} outside {f.name} ({n} lines)")
    broken += [f"external link not to burn v{version} source: {u} "
               f"(on {len(ps)} page(s): {', '.join(sorted(ps)[:3])}{' ...' if len(ps) > 3 else ''})"
               for u, ps in sorted(foreign.items())]
    return broken, burn_links


def test_every_link_resolves(site, static_pages):
    version = sources.burn_version(REPO / "Cargo.lock")
    problems, burn_links = link_problems(site, static_pages, version)
    assert len(burn_links) >= 20, "hardly any links to burn's source: is the check blind?"
    assert problems == [], "\n".join(problems)


def test_link_check_sees_broken_links(tmp_path):
    """The checker on a scratch site: a missing page, a missing anchor, a foreign link, a
    burn link past the end of its file and one to a file burn does not have."""
    version = sources.burn_version(REPO / "Cargo.lock")
    burn = f"https://github.com/tracel-ai/burn/blob/v{version}/crates/burn-flex/src/ops/reduce.rs"
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(
        f'<a href="a/#here">ok</a><a href="a/#gone">x</a><a href="b/">x</a>'
        f'<a href="https://example.com/">x</a><a href="{burn}#L1-L5">ok</a>'
        f'<a href="{burn}#L1-L999999">x</a><a href="{burn.replace("reduce", "nope")}#L1-L2">x</a>',
        "utf-8")
    (tmp_path / "a" / "index.html").write_text('<h2 id="here">h</h2><a href="../#top">up</a>'
                                               '<p id="top"></p>', "utf-8")
    pages = {p: (tmp_path / p.lstrip("/") / "index.html").read_text("utf-8")
             for p in bu.site_pages(tmp_path)}
    problems, burn_links = link_problems(tmp_path, pages, version)
    text = "\n".join(problems)
    assert len(burn_links) == 3
    assert "no id 'gone' on /a/" in text and "no b/index.html" in text
    assert "no id 'top' on /" in text  # the anchor is on /a/, not on /
    assert "https://example.com/" in text
    assert "L1-L999999: lines" in text and "nope.rs in cargo" in text
    assert len(problems) == 6, text


# --------------------------------------------------------------------------- phone layout

def test_nothing_overflows_at_phone_width(walk):
    problems = {}
    for path, info in walk.pages.items():
        p = []
        if info["scrollWidth"] > info["innerWidth"]:
            p.append(f"page is {info['scrollWidth']}px wide in a {info['innerWidth']}px viewport")
        p += info["sticking"] + info["preProblems"]
        if p:
            problems[path] = p
    assert problems == {}, "\n".join(f"  {k}: {'; '.join(v)}" for k, v in problems.items())


# --------------------------------------------------------------------------- screenshots

LABEL_COLOUR_JS = """() => {
  const svg = [...document.querySelectorAll('figure.diagram svg')].find(s => getComputedStyle(s).display !== 'none');
  const t = svg && (svg.querySelector('.nodes text') || svg.querySelector('text'));
  if (!t) return null;
  const m = getComputedStyle(t).fill.match(/[\\d.]+/g).map(Number);
  return (0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]) / 255;
}"""


def test_screenshots_light_and_dark(browser, base_url, walk, empty_index):
    """Desktop and phone, light and dark; the files are for a person to look at. Asserts the
    palette follows prefers-color-scheme and diagrams are drawn for it."""
    SHOTS.mkdir(exist_ok=True)
    seen = {}
    for scheme in ("light", "dark"):
        # One context per scheme, so that the second viewport finds the assets in the cache.
        context = browser.new_context(viewport=bu.DESKTOP, color_scheme=scheme)
        guard = bu.Guard(context)
        guard.overrides[SEARCH_INDEX] = empty_index
        try:
            page = context.new_page()
            for device, viewport in (("desktop", bu.DESKTOP), ("phone", bu.PHONE)):
                if (scheme, device) == ("light", "phone"):
                    continue  # taken during the walk
                page.set_viewport_size(viewport)
                for name, path in SHOT_PAGES.items():
                    page.goto(base_url + path)
                    bu.wait_for_diagrams(page)
                    seen[(scheme, device, name)] = (
                        page.evaluate("document.body.getAttribute('data-md-color-scheme')"),
                        page.evaluate(LABEL_COLOUR_JS))
                    shoot(page, SHOTS / f"{name}-{device}-{scheme}.png")
        finally:
            context.close()
        assert guard.outside == []
    for (scheme, device, name), (palette, label) in seen.items():
        assert palette == ("slate" if scheme == "dark" else "default"), (scheme, device, name)
        if label is not None:  # diagram label text: dark on light, light on dark
            assert (label > 0.5) == (scheme == "dark"), (scheme, device, name, label)
    shots = [SHOTS / f"{n}-{d}-{c}.png" for n in SHOT_PAGES for d in ("desktop", "phone")
             for c in ("light", "dark")]
    stale = [s.name for s in shots
             if not s.is_file() or s.stat().st_mtime < walk.started or s.stat().st_size < 5000]
    assert stale == [], f"screenshots not written by this run: {stale}"


# --------------------------------------------------------------------------- page weight

def first_view_problems(walk: "Walk", budget: int, index: str) -> list[str]:
    """Pages of a walk whose first view is over the budget (gzip), or fetched the index."""
    problems = []
    for path, info in walk.pages.items():
        w = info["weight"]
        if any(urlsplit(u).path == index for u in w["by_url"]):
            problems.append(f"{path}：首屏就下载了搜索索引 {index}")
        if w["gzip"] > budget:
            problems.append(f"{path}：首屏 gzip 后 {w['gzip']:,} 字节，超出预算 {budget:,}")
    return problems


def test_weighing_in_the_walk_is_weighing_in_a_fresh_browser(browser, base_url, walk):
    """The walk's weights (one context, routed) are what a fresh context with an empty cache
    downloads, on two pages the walk reaches late, when every shared asset has been fetched
    before: the routing really leaves nothing cached between pages (the map, the heaviest, and
    a pitfall page)."""
    for path in ("/reference/", "/10-pitfalls/moved-value/"):
        fresh = bu.page_weight(browser, base_url + path, settle_ms=100)
        walked = walk.pages[path]["weight"]
        paths = lambda w: sorted(urlsplit(u).path for u in w["by_url"])  # noqa: E731
        assert paths(walked) == paths(fresh), path
        assert walked["gzip"] == fresh["gzip"], (path, walked["gzip"], fresh["gzip"])


def test_every_page_is_light_on_first_view(walk):
    """Each page as the walk loaded it (nothing cached, see the test above): what it downloads,
    gzip-compressed, stays within the budget; diagram pages included, and no search index
    among it."""
    weights = {path: info["weight"] for path, info in walk.pages.items()}
    assert len(weights) > 40
    heaviest = sorted(weights.items(), key=lambda kv: -kv[1]["gzip"])
    print(f"\nfirst view, gzip (budget {FIRST_VIEW_GZIP_BUDGET:,} bytes), heaviest pages:")
    for path, w in heaviest[:5]:
        top = max(w["gzip_by_url"].items(), key=lambda kv: kv[1])
        print(f"  {w['gzip']:>9,}  ({w['bytes']:>9,} plain, {w['requests']} requests)  {path}"
              f"  largest: {top[1]:,} {urlsplit(top[0]).path}")
    problems = first_view_problems(walk, FIRST_VIEW_GZIP_BUDGET, SEARCH_INDEX)
    assert problems == [], "\n".join(problems)


def test_page_with_diagrams_loads_no_mermaid(browser, base_url, static_pages):
    """The diagram is in the page itself (two small inline svgs): no script is fetched for it."""
    w = bu.page_weight(browser, base_url + "/01-tensor/")
    html_text = static_pages["/01-tensor/"]
    svgs = sum(len(m) for m in re.findall(r"<svg class=\"diagram-(?:light|dark)\".*?</svg>", html_text, re.S))
    print(f"\n/01-tensor/: {w['bytes']:,} bytes in {w['requests']} requests; its two diagram svgs "
          f"{svgs:,} bytes of the HTML")
    assert not any("mermaid" in u for u in w["by_url"]), [u for u in w["by_url"] if "mermaid" in u]
    assert 0 < svgs < 60_000
    assert w["outside"] == []


def test_onnx_links_are_checked_against_the_locked_package():
    d = sources.crate_dir("burn-onnx", sources.locked_version(REPO / "Cargo.lock", "burn-onnx"))
    sha = sources.vcs_commit(d)
    base = "https://github.com/tracel-ai/burn-onnx/blob/{}/crates/burn-onnx/src/import/model_gen.rs#L{}-L{}"
    assert onnx_problem(ONNX_LINK.fullmatch(base.format(sha, 17, 38))) is None
    assert "commit" in onnx_problem(ONNX_LINK.fullmatch(base.format("0" * 40, 17, 38)))
    assert "outside" in onnx_problem(ONNX_LINK.fullmatch(base.format(sha, 17, 99999)))


PLOT_TEXT_JS = """() => [...document.querySelectorAll('svg.plot')].map(svg => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * scale));
})"""


@pytest.mark.parametrize("path", ["/05-train-step/", "/10-pitfalls/eval-memory/"])
def test_plot_text_is_legible_on_a_phone(browser, base_url, path):
    context = browser.new_context(viewport=bu.PHONE)
    bu.Guard(context)
    try:
        page = context.new_page()
        page.goto(base_url + path)
        smallest = page.evaluate(PLOT_TEXT_JS)
        assert smallest and min(smallest) >= 11, smallest
    finally:
        context.close()


# --------------------------------------------------------------------------- the map's rows

def map_spellings() -> list[tuple[str, str]]:
    """(the row's anchor, one of its spellings) for every spelling of every row of the map."""
    from book.pages import reference
    from book.pages.programs import manifest
    return [(reference.anchor(e, r["id"]), s) for e in reference.experiments(BOOK)
            for r in manifest(BOOK, e).rows for s in r["spellings"]]


def test_every_spelling_is_indexed_on_its_row(site):
    """Checked over the whole map without a browser: each spelling is in the title of an entry
    whose location is its row's anchor on the map page."""
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    titles = {d["location"]: d["title"].replace("\u200b", "") for d in docs}
    spellings = map_spellings()
    assert len(spellings) >= 600
    missing = [f"{a}: {s}" for a, s in spellings if s not in titles.get(f"reference/#{a}", "")]
    assert missing == [], missing[:20]


ROWS_JS = """q => new Promise(resolve => {
  const w = window.__bookWorkers[window.__bookWorkers.length - 1];
  const answer = e => { if (!e.data || e.data.type !== 3) return;
    w.removeEventListener('message', answer);
    resolve(e.data.data.items.map(g => g.map(d => d.location))); };
  w.addEventListener('message', answer);
  w.postMessage({type: 2, data: q}); })"""


# Spellings that a pitfall's title writes out whole, where that page comes first and the map's
# row after it («mask_where 照搬 torch.where»: the pitfall is about that very call). Listed so
# that the day the map comes first, this fails too and the list shrinks.
PITFALL_FIRST = {"torch.where"}


def test_a_spelling_from_a_script_lands_on_its_row(browser, base_url):
    """Every spelling (F.cross_entropy, torch.topk, Tensor.sort) finds the map first, and among
    the map's results the row that declares it; every 30th is pasted into the real box, which
    must list the map first too."""
    spellings = map_spellings()
    context, guard, page = search_page(browser, base_url, "/")
    problems, rows_of = [], {}
    try:
        for a, s in spellings:
            rows_of.setdefault(s, []).append(a)
        # Typed into the box, a query takes half a second: a sample, the rest asked of the engine.
        pasted = [s for s in sorted(rows_of)[::30] if s not in PITFALL_FIRST]
        assert len(pasted) >= 15, len(pasted)
        for s, anchors in rows_of.items():
            groups = page.evaluate(ROWS_JS, s)
            first = groups[0] if groups else []
            mine = next((g for g in groups if g[0].startswith("reference/")), [])
            if (not first or first[0].startswith("reference/")) == (s in PITFALL_FIRST):
                problems.append(f"{s}：第一个结果是 {first[:1]}"
                                + ("（它在 PITFALL_FIRST 里：从表里删掉它）" if s in PITFALL_FIRST else ""))
            if not any(f"reference/#{a}" in mine for a in anchors):
                problems.append(f"{s}：对照表的结果里没有它的行 {anchors}")
        for s in pasted:
            _, shown = run_search(page, s)
            if shown[:1] != ["/reference/"]:
                problems.append(f"{s}（粘贴进搜索框）：第一个结果是 {shown[:1]}")
    finally:
        context.close()
    assert guard.outside == []
    assert problems == [], "\n".join(problems[:30]) + f"\n（共 {len(problems)} 处）"


def test_a_row_anchor_brings_the_row_into_view(browser, base_url):
    """A link to a row (from another page, or shared) shows that row below the header."""
    from book.pages import reference
    anchors = list(reference.anchors(BOOK))
    context = browser.new_context(viewport=bu.DESKTOP)
    page = context.new_page()
    try:
        for a in (anchors[len(anchors) // 3], anchors[-1]):
            page.goto(f"{base_url}/reference/#{a}")
            page.wait_for_load_state("load")
            top, header, height = page.evaluate("""a => new Promise(done => requestAnimationFrame(() =>
                requestAnimationFrame(() => { const r = document.getElementById(a).getBoundingClientRect();
                  done([r.top, document.querySelector('.md-header').getBoundingClientRect().bottom,
                        window.innerHeight]); })))""", a)
            assert header - 1 <= top < height, (a, top, header, height)
    finally:
        context.close()
