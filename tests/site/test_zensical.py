"""The same book built by Zensical (make site ENGINE=zensical), in a scratch copy of the
project: the pages, their fixed structure (checked by book/site/zensical_ext.py, as Zensical
reads no hooks), the full views and burn-first tabs, the diagrams, the downloads, the
Chinese search, and in a real browser: every page walked (nothing loaded from outside
127.0.0.1, no script error) and linked tabs. Its search box types test_search_queries.py's set."""
import json
import re

import pytest

import browser_util as bu
from builds import copy_project, zensical
from scratch import REPO

from book.experiments.manifest import manifests
from book.paths import Book


def test_every_page_of_the_nav_is_built(zsite):
    nav = re.findall(r"^\s*- (?:[^:\n]+: )?([\w/.-]+\.md)\s*$",
                     (REPO / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    assert len(nav) > 40
    for src in nav:
        out = src.removesuffix(".md").removesuffix("index")
        path = zsite / out / "index.html" if out else zsite / "index.html"
        assert path.is_file(), src


def test_nav_titles_are_text_under_zensical(zsite):
    """Every page's sidebar entry is its title as text: a title Zensical takes as raw Markdown
    (a macro in the H1 did that) put `HashMap<String, Linear>`'s `<String,` into every page's
    DOM as a tag."""
    html = (zsite / "index.html").read_text(encoding="utf-8")
    titles = re.findall(r'<span class="md-ellipsis">\s*([^<]*?)\s*</span>', html)
    assert len(titles) > 40
    raw = [t for t in titles if "`" in t or "{{" in t]
    tags = re.findall(r'<span class="md-ellipsis">\s*[^<]*<(?!/span|span class="md-typeset")[^>]*>', html)
    assert raw == [] and tags == [], (raw, tags)


def test_a_broken_structure_stops_the_build(tmp_path):
    root = copy_project(tmp_path / "book")
    page = root / "docs" / "10-pitfalls" / "kldiv-reduction.md"
    page.write_text(page.read_text(encoding="utf-8").replace("\n## 原因\n", "\n## 为什么\n"),
                    encoding="utf-8")
    code, out = zensical(root)
    assert code != 0
    assert "10-pitfalls/kldiv-reduction.md" in out and "'为什么'" in out and "'原因'" in out, out


def test_pitfall_page_has_full_views_burn_first_and_messages(zsite):
    html = (zsite / "10-pitfalls" / "moved-value" / "index.html").read_text(encoding="utf-8")
    assert 'class="example full-source"' in html
    assert "error[E0382]" in html  # error_messages(): the compiler's words are on the page
    # In 照搬到 burn the burn tab is the one checked at first (structure.burn_first).
    section = html[html.index('id="照搬到-burn"'):]
    first = re.search(r'<div class="tabbed-set[^"]*"[^>]*>(.*?)<div class="tabbed-labels', section, re.S)
    inputs = re.findall(r"<input[^>]*>", first.group(1))
    assert inputs and "checked" in inputs[-1] and "checked" not in inputs[0], inputs


def test_diagrams_are_inline(zsite):
    html = (zsite / "10-pitfalls" / "index.html").read_text(encoding="utf-8")
    assert html.count('class="diagram-light"') == html.count('class="diagram-dark"') >= 1
    assert "mermaid.min.js" not in html


def test_downloads_are_written(zsite):
    n = len(manifests(Book(REPO)))
    assert len(list((zsite / "downloads").glob("*.tar.gz"))) == n


def test_search_index_is_segmented(zsite):
    data = json.loads((zsite / "search.json").read_text(encoding="utf-8"))
    text = "".join(i.get("text", "") for i in data["items"])
    assert text.count("\u200b") > 1000
    assert "\\u200b" in data["config"]["separator"]  # the separator splits on it
    # One entry per row of the map, as under mkdocs (book/site/row_search.py).
    rows = [i for i in data["items"] if "#tensor-" in i["location"]]
    assert len(rows) >= 100 and all(i["location"].split("#")[0].rstrip("/").endswith("reference")
                                    for i in rows), rows[:2]


@pytest.fixture(scope="module")
def zurl(zsite):
    with bu.serve(zsite) as url:
        yield url


def test_linked_tabs_switch_together_under_zensical(zurl, browser):
    """Choosing PyTorch in one pair switches the other pairs too. (Every page's errors and
    requests are the walk's; search is test_search_queries.py's.)"""
    ctx = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(ctx)
    try:
        page = ctx.new_page()
        page.goto(zurl + "/10-pitfalls/clip-grad-norm/")
        picked = """() => [...document.querySelectorAll('.tabbed-set')].filter(s =>
            [...s.querySelectorAll(':scope > .tabbed-labels > label')].map(l => l.innerText.trim())
              .join('|') === 'PyTorch|burn').map(s =>
            [...s.querySelectorAll(':scope > input')].findIndex(i => i.checked))"""
        assert 1 in page.evaluate(picked)  # burn first in 照搬到 burn
        page.locator(".tabbed-set .tabbed-labels label", has_text="PyTorch").first.click()
        assert set(page.evaluate(picked)) == {0}
    finally:
        ctx.close()
    assert guard.outside == []


@pytest.fixture(scope="module")
def zwalk(zsite, browser):
    """Every page of the Zensical build at phone width, as test_browser.py walks mkdocs'."""
    from test_browser import Walk, attach_listeners, visit
    w = Walk()
    with bu.serve(zsite) as url:
        context = browser.new_context(viewport=bu.PHONE, color_scheme="light")
        guard = bu.Guard(context)
        page = context.new_page()
        attach_listeners(page, w, guard)
        settle = bu.Settle(page)
        try:
            for path in bu.site_pages(zsite):
                w.pages[path] = visit(page, guard, settle, path, url, w)
        finally:
            context.close()
    w.outside = list(guard.outside)
    return w


def test_walk_every_page(zwalk):
    from test_browser import CONTENT_TAGS, PAGE_WIDGETS
    assert len(zwalk.pages) > 40
    assert zwalk.outside == [], zwalk.outside[:5]
    assert zwalk.js_errors == [], zwalk.js_errors[:5]
    assert zwalk.bad_responses == [], zwalk.bad_responses[:5]
    problems = []
    for path, info in zwalk.pages.items():
        if info["scrollWidth"] > info["innerWidth"] + 1:
            problems.append(f"{path}: 横向溢出 {info['scrollWidth']} > {info['innerWidth']}：{info['sticking'][:3]}")
        if info["preProblems"]:
            problems.append(f"{path}: {info['preProblems'][:2]}")
        for d in info["diagrams"]:
            if not d["svg"]:
                problems.append(f"{path}: 图没有显示：{d['text'][:80]}")
        extra = set(info["tags"]) - CONTENT_TAGS - PAGE_WIDGETS.get(path, set())
        if extra:
            problems.append(f"{path}: 正文里有不该有的元素 {sorted(extra)}")
        if info["scripts"]:
            problems.append(f"{path}: 正文里有 script")
        if info["codesWithoutCopy"]:
            problems.append(f"{path}: {info['codesWithoutCopy']} 个代码块没有复制按钮")
    assert not problems, "\n".join(problems[:20])
    assert sum(len(i["diagrams"]) for i in zwalk.pages.values()) >= 15


SET_QUERY = """q => { const host = [...document.querySelectorAll('*')]
  .find(e => e.shadowRoot && e.shadowRoot.querySelector('input'));
  const box = host.shadowRoot.querySelector('input'); box.value = q;
  box.dispatchEvent(new Event('input', {bubbles: true})); }"""
RESULTS = """() => [...document.querySelectorAll('*')].filter(e => e.shadowRoot)
  .flatMap(h => [...h.shadowRoot.querySelectorAll('a[href]')]).map(a => a.href)"""
SEARCH_OPEN = """() => [...document.querySelectorAll('*')]
  .some(e => e.shadowRoot && e.shadowRoot.querySelector('input'))"""


def search(page, query: str) -> list[str]:
    """Zensical's results for a query, once they are this query's: the box is emptied and the
    old results gone first, then the new ones read when they stop changing."""
    page.evaluate(SET_QUERY, "")
    bu.wait_until(page, f"() => ({RESULTS})().length === 0", what="清空搜索框后旧结果消失")
    page.evaluate(SET_QUERY, query)
    return bu.settled(page, RESULTS, what=f"搜索 {query[:40]!r} 的结果")


# The rest of test_browser.py's checks that do not depend on Material's own search UI, run
# on the Zensical build with the same helpers.

def test_every_link_resolves_under_zensical(zsite):
    from book import sources
    from test_browser import link_problems
    pages = {p: (zsite / p.lstrip("/") / "index.html").read_text(encoding="utf-8")
             for p in bu.site_pages(zsite)}
    problems, burn_links = link_problems(zsite, pages, sources.burn_version(REPO / "Cargo.lock"))
    assert len(burn_links) >= 20
    assert problems == [], "\n".join(problems[:20])


def test_linked_tabs_persist_across_pages_under_zensical(browser, zurl):
    from test_browser import OTHER_TAB_PAGE, TABS_JS, choose_burn
    context, page, before = choose_burn(browser, zurl)
    try:
        assert len(before) >= 3 and set(before) == {"PyTorch"}, before
        page.goto(zurl + OTHER_TAB_PAGE)
        after = page.evaluate(TABS_JS, "open")
        assert len(after) >= 2 and set(after) == {"burn"}, after
    finally:
        context.close()


def test_diagrams_follow_the_colour_scheme_under_zensical(browser, zurl):
    from test_browser import SCHEME_JS
    for scheme, want in (("light", "diagram-light"), ("dark", "diagram-dark")):
        context = browser.new_context(viewport=bu.DESKTOP, color_scheme=scheme)
        bu.Guard(context)
        try:
            page = context.new_page()
            page.goto(zurl + "/03-loss-backward/", wait_until="load")
            svgs = page.evaluate(SCHEME_JS)
            assert [s["cls"] for s in svgs if s["shown"]] == [want], (scheme, svgs)
            (label,) = [s["label"] for s in svgs if s["shown"]]
            assert (label > 0.5) == (want == "diagram-dark"), (scheme, svgs)
        finally:
            context.close()


def test_copy_button_copies_text_under_zensical(browser, zurl):
    context = browser.new_context(viewport=bu.DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    bu.Guard(context)
    try:
        page = context.new_page()
        page.goto(zurl + "/10-pitfalls/rank-mismatch/")
        pre = page.locator(".md-content pre:has(code:text('Tensor<'))").first
        expected = pre.locator("code").text_content()
        pre.hover()
        pre.locator("button.md-clipboard, button[data-md-type='copy']").first.click()
        copied = page.evaluate("navigator.clipboard.readText()")
    finally:
        context.close()
    assert "Tensor<" in copied and copied.strip() == expected.strip()


def test_every_page_is_light_on_first_view_under_zensical(zwalk):
    from test_browser import FIRST_VIEW_GZIP_BUDGET, first_view_problems
    assert len(zwalk.pages) > 40 and zwalk.outside == []
    problems = first_view_problems(zwalk, FIRST_VIEW_GZIP_BUDGET, "/search.json")
    assert problems == [], "\n".join(problems)


def test_the_search_index_waits_for_the_reader_under_zensical(browser, zurl):
    """docs/assets/search.js holds back Zensical's request for search.json too: none on first
    view; the search button (clicked, or opened with "/") fetches it and the search works."""
    from urllib.parse import urlsplit
    for opener in ("click", "/"):
        context = browser.new_context(viewport=bu.DESKTOP)
        guard = bu.Guard(context)
        asked = []
        try:
            page = context.new_page()
            page.on("request", lambda r: asked.append(urlsplit(r.url).path))
            page.goto(zurl + "/10-pitfalls/", wait_until="load")
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)
            assert "/search.json" not in asked, "the index came with the page, before any search"
            if opener == "click":
                page.locator(".md-search__button").first.click()
            else:
                page.keyboard.press("/")
            bu.wait_until(page, SEARCH_OPEN, what="Zensical 的搜索框打开")
            page.evaluate(SET_QUERY, "梯度裁剪")
            bu.wait_until(page, f"() => ({RESULTS})().some(h => h.includes('clip-grad-norm'))",
                          what="搜索「梯度裁剪」找到 clip-grad-norm")
            assert "/search.json" in asked, opener
        finally:
            context.close()
        assert guard.outside == []
