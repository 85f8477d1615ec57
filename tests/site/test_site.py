"""The real book: `mkdocs build --strict` of docs/ from the committed build_outputs/, for the
local address (SITE_URL unset; tests/site/test_validate.py builds it for a host)."""
import html as htmllib
import itertools
import json
import re

import pytest

import browser_util as bu
from book.checking import structure
from book.pages import plots
from scratch import REPO

LOCAL_URL = "http://127.0.0.1:8000/"


@pytest.fixture(scope="module")
def index_html(site):
    return (site / "index.html").read_text(encoding="utf-8")


def pages(site):
    return sorted(p for p in site.rglob("index.html") if "assets" not in p.parts)


def test_version_line(index_html):
    m = re.search(r'<p class="version-line">(.*?)</p>', index_html)
    assert m, "no version line"
    assert "burn 0.22.1" in m.group(1) and "PyTorch 2.15.0" in m.group(1)


def test_a1_comparison_and_mutation_are_shown(index_html):
    assert re.search(r"worst=\d\.\d\de-\d\d tol=1e-06 OK", index_html)
    assert "worst=1.00e-03 tol=1e-06 MISMATCH" in index_html  # the mutation check bit


def test_burn_links_point_at_the_resolved_tag(index_html):
    links = re.findall(r'https://github\.com/tracel-ai/burn[^"\s<>)]*', index_html)
    assert len(links) >= 5
    bad = [u for u in links if not u.startswith("https://github.com/tracel-ai/burn/blob/v0.22.1/")]
    assert bad == []
    assert all(re.search(r"#L\d+-L\d+$", u) for u in links)


def test_every_page_but_the_last_links_the_next_one(site):
    found = {p: p.read_text(encoding="utf-8") for p in pages(site)}
    assert len(found) > 30
    without = [p.relative_to(site).as_posix() for p, h in found.items()
               if "md-footer__link--next" not in h and "md-footer__link--prev" not in h]
    assert without == []
    assert sum("md-footer__link--next" in h for h in found.values()) == len(found) - 1


def test_01_is_an_entry_of_the_sidebar(index_html):
    assert re.search(r'<a href="01-tensor/"[^>]*>\s*(<span[^>]*>)?\s*01 张量', index_html)


def test_heading_anchors_are_readable(site):
    html = (site / "05-train-step" / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h2 id="([^"]+)"', html)
    assert "主线位置" in ids and "小结" in ids
    numbered = [i for p in pages(site) for i in re.findall(r'<h[1-6] id="(_\d+)"', p.read_text("utf-8"))]
    assert numbered == []


def test_sitemap_lists_every_page(site):
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))
    assert len(locs) == len(pages(site))
    assert all(u.startswith(LOCAL_URL) for u in locs)


def test_canonical_links_are_the_local_address_by_default(site):
    for p in pages(site):
        path = p.parent.relative_to(site).as_posix()
        want = LOCAL_URL + ("" if path == "." else path + "/")
        assert re.findall(r'<link rel="canonical" href="([^"]*)"', p.read_text("utf-8")) == [want]


LONG = 80  # lines: longer outputs go in a collapsed block with a one-line summary


def test_long_outputs_are_collapsed(site):
    open_long = []
    for p in pages(site):
        shown = re.sub(r"<details.*?</details>", "", p.read_text(encoding="utf-8"), flags=re.S)
        open_long += [f"{p.relative_to(site).parent}: {pre.count(chr(10))} lines"
                      for pre in re.findall(r"<pre\b.*?</pre>", shown, flags=re.S) if pre.count("\n") > LONG]
    assert open_long == []


# --------------------------------------------------------------------------- plots

# Machado, Oliveira & Fernandes (2009): how a colour looks with each kind of colour blindness
# (severity 1), in linear RGB.
CVD = {
    "protan": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deutan": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritan": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}
# CIE76 ΔE two lines' colours must keep for every kind: the old palette's red and green came to
# 7, its green and orange to 5; Okabe & Ito's closest pair to 16.
MIN_DELTA_E = 12


def _linear(hex_colour: str) -> list[float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = (min(max(v, 0.0), 1.0) for v in rgb)
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               0.0193 * r + 0.1192 * g + 0.9505 * b)
    f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a: str, b: str) -> float:
    """The smallest ΔE between two colours, as seen with normal vision and each deficiency."""
    views = [lambda c: c] + [lambda c, m=m: [sum(m[i][j] * c[j] for j in range(3)) for i in range(3)]
                             for m in CVD.values()]
    return min(sum((p - q) ** 2 for p, q in zip(_lab(v(_linear(a))), _lab(v(_linear(b))))) ** 0.5
               for v in views)


def test_the_colour_check_bites():
    assert colour_distance("#d62728", "#2ca02c") < MIN_DELTA_E  # red and green, deuteranopia
    assert colour_distance("#0072B2", "#D55E00") >= MIN_DELTA_E


def test_the_palette_is_colour_blind_safe_and_dashed():
    assert len(set(plots.PLOT_DASHES)) == len(plots.PLOT_DASHES) == len(plots.PLOT_COLOURS)
    close = [(a, b, round(colour_distance(a, b), 1))
             for a, b in itertools.combinations(plots.PLOT_COLOURS, 2)
             if colour_distance(a, b) < MIN_DELTA_E]
    assert close == []


def test_every_plot_tells_its_lines_apart_without_colour(site):
    seen, problems = 0, []
    for p in pages(site):
        for svg in re.findall(r'<svg class="plot".*?</svg>', p.read_text("utf-8"), flags=re.S):
            seen += 1
            lines = [(m.group(1), m.group(2) or "")
                     for m in re.finditer(r'<polyline fill="none" stroke="([^"]+)"(?: stroke-dasharray="([^"]+)")?', svg)]
            keys = [(m.group(1), m.group(2) or "")
                    for m in re.finditer(r'<line x1[^>]*? stroke="([^"]+)"(?: stroke-dasharray="([^"]+)")? stroke-width="3"', svg)]
            where = f"{p.parent.relative_to(site)}: {re.search(r'<title>(.*?)</title>', svg).group(1)}"
            if len({d for _, d in lines}) != len(lines):
                problems.append(f"{where}：两条线的线型相同 {lines}")
            if keys != lines:
                problems.append(f"{where}：图例 {keys} 和线 {lines} 不一致")
            problems += [f"{where}：{a} 和 {b} 在色盲眼里分不开" for (a, _), (b, _) in
                         itertools.combinations(lines, 2) if colour_distance(a, b) < MIN_DELTA_E]
    assert seen >= 5, "hardly any plots: is the check blind?"
    assert problems == []


# --------------------------------------------------------------------------- the sidebars' titles

# Every nav entry shown inside the sidebar's view whose box meets its title's box, grown by
# the title's box-shadow (Material's is a 0.4rem spread and blur in the page's colour).
COVERED_JS = r"""sel => {
  const out = [];
  for (const nav of document.querySelectorAll(sel)) {
    const title = nav.querySelector(':scope > .md-nav__title');
    if (!title || !title.checkVisibility()) continue;
    const wrap = nav.closest('.md-sidebar__scrollwrap');
    const view = wrap.getBoundingClientRect();
    const t = title.getBoundingClientRect();
    const px = (getComputedStyle(title).boxShadow.match(/-?[\d.]+px/g) || []).map(parseFloat);
    const grow = px.length >= 4 ? Math.abs(px[2]) + Math.abs(px[3]) : 0;
    for (const a of nav.querySelectorAll('.md-nav__link')) {
      if (!a.checkVisibility() || title.contains(a)) continue;
      const r = a.getBoundingClientRect();
      if (r.height === 0 || r.bottom <= view.top || r.top >= view.bottom) continue;
      if (r.top < t.bottom + grow && r.bottom > t.top - grow && r.left < t.right + grow && r.right > t.left - grow)
        out.push(a.textContent.trim().slice(0, 30));
    }
  }
  return out;
}"""
NAVS = ".md-sidebar--primary .md-nav--primary, .md-sidebar--secondary .md-nav--secondary"
# Material's own rule, put back: the check must find what it covers.
MATERIAL_STICKY = (".md-nav--primary > .md-nav__title, .md-nav--secondary > .md-nav__title "
                   "{ position: sticky !important; box-shadow: 0 0 .4rem .4rem var(--md-default-bg-color) !important; }")


def covered_entries(page) -> list[str]:
    """What the titles cover with the sidebars where the page left them (Material scrolls the
    left one to the current page), then scrolled a little and a lot."""
    found = page.evaluate(COVERED_JS, NAVS)
    for top in (37, 400):
        page.evaluate("t => document.querySelectorAll('.md-sidebar__scrollwrap').forEach(w => w.scrollTop = t)", top)
        bu.wait_until(page, "t => [...document.querySelectorAll('.md-sidebar__scrollwrap')].every(w => "
                            "w.scrollTop === Math.min(t, w.scrollHeight - w.clientHeight))", top,
                      what="侧栏滚到位")
        found += page.evaluate(COVERED_JS, NAVS)
    return found


@pytest.fixture(scope="module")
def base_url(site):
    with bu.serve(site) as url:
        yield url


def test_the_sidebar_titles_cover_nothing(browser, base_url):
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    try:
        page = context.new_page()
        problems = {}
        for path in ("/", "/10-pitfalls/export-pytorch/", "/appendix/drift/", "/11-port-script/", "/not-covered/"):
            page.goto(base_url + path)
            bu.wait_until(page, "() => document.querySelector('.md-nav--primary > .md-nav__title') !== null")
            found = covered_entries(page)
            if found:
                problems[path] = found
        assert problems == {}
        page.goto(base_url + "/10-pitfalls/export-pytorch/")
        page.add_style_tag(content=MATERIAL_STICKY)
        assert covered_entries(page), "with Material's sticky titles back, the check must see them cover"
    finally:
        context.close()
    assert guard.outside == []


# --------------------------------------------------------------------------- 本书没有的

NOT_COVERED = REPO / "docs" / "not-covered.md"
NOT_COVERED_URL = "/not-covered/"


def not_covered_topics() -> list[dict]:
    """The page's topics: every H2 between 主线位置 and 对得上, written `名字：术语、术语`."""
    titles = [t for t, _ in structure.sections(NOT_COVERED.read_text(encoding="utf-8"))]
    assert titles[0] == "主线位置" and titles[-2:] == ["对得上", "小结"], titles
    out = []
    for title in titles[1:-2]:
        name, sep, terms = title.partition("：")
        assert sep and terms, f"not-covered.md 的每一节写成「名字：术语、术语」，得到 {title!r}"
        out.append({"title": title, "name": name.strip(),
                    "terms": [t.strip().strip("`").strip() for t in terms.split("、")]})
    return out


def _text(fragment: str) -> str:
    return htmllib.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("¶", "").strip()


def headings(page_html: str) -> list[str]:
    return [_text(m.group(2)) for m in re.finditer(r"<h([1-6])\b[^>]*>(.*?)</h\1>", page_html, flags=re.S)]


def not_covered_problems(topics, page_headings: dict[str, list[str]], index_titles: dict[str, list[str]],
                         map_text: str) -> list[str]:
    """Topics the book covers after all: a heading of another page, a search entry's title
    elsewhere (a map row is indexed under its spellings), or a term in the map's rows."""
    problems = []
    for topic in topics:
        for word in [topic["name"], *topic["terms"]]:
            for where, items in (("标题", page_headings), ("搜索条目", index_titles)):
                for page, texts in items.items():
                    hits = [t for t in texts if word.lower() in t.lower()]
                    if hits:
                        problems.append(f"「{topic['title']}」的 {word!r} 是 {page} 的{where}：{hits[0]!r}")
        for word in topic["terms"]:
            if word.lower() in map_text.lower():
                problems.append(f"「{topic['title']}」的 {word!r} 在对照表里")
    return problems


def book_facts(site):
    """(headings of every page but this one, search entry titles elsewhere, the map's text)."""
    page_headings = {}
    for p in pages(site):
        rel = p.parent.relative_to(site).as_posix()
        url = "/" if rel == "." else f"/{rel}/"
        if url != NOT_COVERED_URL:
            page_headings[url] = headings(p.read_text(encoding="utf-8"))
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    index_titles = {}
    for d in index["docs"]:
        if not d["location"].startswith(NOT_COVERED_URL.strip("/")):
            index_titles.setdefault(d["location"].split("#")[0] or "/", []).append(_text(d["title"]))
    map_html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    article = re.search(r"<article\b.*?</article>", map_html, flags=re.S).group(0)
    return page_headings, index_titles, _text(article)


def test_not_covered_lists_only_what_the_book_does_not_cover(site):
    topics = not_covered_topics()
    assert len(topics) >= 8
    assert not_covered_problems(topics, *book_facts(site)) == []


def test_the_not_covered_check_bites(site):
    page_headings, index_titles, map_text = book_facts(site)
    topics = not_covered_topics()
    # A chapter that starts to cover a topic, a map row that takes one of its names.
    page_headings["/99-new/"] = [f"用 {topics[0]['terms'][0]} 做点什么"]
    problems = not_covered_problems(topics, page_headings, index_titles,
                                    map_text + f" {topics[1]['terms'][0]}(x)")
    assert any("/99-new/" in p for p in problems) and any("对照表" in p for p in problems)


def search_first(page, query: str) -> tuple[str, list[str]]:
    """The search box's first result for query: (its page, every link the result lists)."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("")
    box.press("End")
    bu.wait_until(page, "() => !/\\d|没有/.test(document.querySelector('.md-search-result__meta').textContent)",
                  what="搜索框清空后结果行也清空")
    box.fill(query)
    box.press("End")  # Material reads the query on keyup
    bu.wait_until(page, "q => document.querySelector('input.md-search__input').value === q && "
                        "/\\d|没有/.test(document.querySelector('.md-search-result__meta').textContent)",
                  arg=query, what=f"搜索 {query!r} 的结果行")
    links = page.evaluate("""() => { const item = document.querySelector('.md-search-result__list > .md-search-result__item');
        return item ? [...item.querySelectorAll('a')].map(a => { const u = new URL(a.href);
                                                                   return u.pathname + decodeURIComponent(u.hash); }) : []; }""")
    return (links[0].split("#")[0] if links else ""), links


def test_search_finds_not_covered_for_every_topic(site, browser, base_url):
    html = (site / "not-covered" / "index.html").read_text(encoding="utf-8")
    ids = {_text(m.group(2)): m.group(1) for m in re.finditer(r'<h2 id="([^"]+)"[^>]*>(.*?)</h2>', html, flags=re.S)}
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    try:
        page = context.new_page()
        page.goto(base_url + "/")
        problems = []
        for topic in not_covered_topics():
            anchor = NOT_COVERED_URL + "#" + ids[topic["title"].replace("`", "")]
            for q in [topic["name"], *topic["terms"]]:
                first, links = search_first(page, q)
                if first != NOT_COVERED_URL or anchor not in links:
                    problems.append(f"{q!r}：第一个结果是 {links[:3]}，应为 {anchor}")
        assert problems == []
        # A topic the book covers lands elsewhere: the check can fail.
        assert search_first(page, "gather")[0] != NOT_COVERED_URL
    finally:
        context.close()
    assert guard.outside == []
