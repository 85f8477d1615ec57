"""The torch → burn map (docs/reference.md) in a real browser, as issue 25 asks of it: the filter
shows the rows it names, every burn cell's copy button copies exactly the row's module, a row
link brings its row into view (below the header and the filter, with the filter on or off), at
390 px every row's result is on screen, 「不同」 and 「没有」 are marked in words as well as in
colour, a row opens its whole program from its download, rows and pitfall pages link each
other, and the page's first view stays under the budget. Issue 37: at 390 and 1280 px nothing
on the map is wider than its place, and at 1280 px a 「改法」 block is as wide as burn code.
Each check is also run on a page broken on purpose, to see that it can fail.

Without /usr/bin/chromium these tests fail and say how to install it; BOOK_NO_BROWSER=1 skips
them on purpose (the static checks still run)."""
import html
import re
from urllib.parse import urlsplit

import pytest

import browser_util as bu
from book.pages import reference
from book.pages.programs import manifest
from book.paths import Book
from book.site.downloads.package import DIR as DOWNLOADS
from scratch import REPO

BOOK = Book(REPO)
MAP = "/reference/"
SEARCH_INDEX = "/search/search_index.json"
FIRST_VIEW_GZIP_BUDGET = 400_000  # tests/site/test_browser.py's, for every page
ROWS = [(e, r) for e in reference.experiments(BOOK) for r in manifest(BOOK, e).rows]
BY_ANCHOR = {reference.anchor(e, r["id"]): (e, r) for e, r in ROWS}
SHOWN = {"all": {"same", "differs", "none"}, "differs": {"differs"}, "none": {"none"},
         "both": {"differs", "none"}}


@pytest.fixture(scope="module")
def base_url(site):
    with bu.serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def empty_index(site) -> str:
    import json
    cfg = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    return json.dumps({"config": cfg, "docs": []})


def open_map(browser, base_url, empty_index, viewport=bu.DESKTOP, fragment="", broken=None, **ctx):
    """(context, guard, page) on the map. broken: {url glob: (content type, body) or None}
    answers those requests with that body (None: refuses them), to check the checks."""
    context = browser.new_context(viewport=viewport, **ctx)
    guard = bu.Guard(context)
    guard.overrides[SEARCH_INDEX] = empty_index
    for glob, answer in (broken or {}).items():
        context.route(glob, answering(answer))
    page = context.new_page()
    page.goto(base_url + MAP + fragment, wait_until="load")
    return context, guard, page


def answering(answer):
    def handle(route):
        if answer is None:
            route.abort()
        else:
            route.fulfill(status=200, content_type=answer[0], body=answer[1])
    return handle


def frames(page):
    """Until the layout has settled after the last change (two animation frames)."""
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


# --------------------------------------------------------------------------- the filter

FILTER_JS = """() => {
  const rows = [...document.querySelectorAll('table.ref-table tbody tr')];
  const shown = e => e.getClientRects().length > 0;
  const count = {};
  rows.filter(shown).forEach(r => { count[r.dataset.verdict] = (count[r.dataset.verdict] || 0) + 1; });
  const tables = [...document.querySelectorAll('table.ref-table')];
  return {count,
    label: Object.fromEntries([...document.querySelectorAll('.ref-filter label')].map(l =>
      [l.querySelector('input').value, Number(l.querySelector('.ref-n').textContent)])),
    // Tables shown without a row to show, or hidden with one; a heading shown over a hidden table.
    emptyShown: tables.filter(t => shown(t) && ![...t.tBodies[0].rows].some(shown)).length,
    headsOverHidden: tables.filter(t => !shown(t) && t.previousElementSibling
                                        && t.previousElementSibling.localName === 'h2'
                                        && shown(t.previousElementSibling)).length,
    tables: tables.length, tablesShown: tables.filter(shown).length};
}"""


def choose(page, value: str):
    page.locator(f".ref-filter label:has(input[value='{value}'])").click()
    bu.wait_until(page, "v => (document.querySelector('article').dataset.refShow || 'all') === v",
                  arg=value, what=f"筛选切到 {value}")
    frames(page)


def filter_problems(page) -> list[str]:
    """Each choice of the filter shows exactly the rows of its verdicts, as many as its label
    says, and no table or heading without a row under it."""
    problems = []
    if not page.locator(".ref-filter").is_visible():
        return ["筛选开关没有显示出来（map.js 没有运行？）"]
    want_all = {v: sum(1 for _, r in ROWS if r["verdict"] == v) for v in ("same", "differs", "none")}
    for value in ("differs", "none", "both", "all"):
        choose(page, value)
        got = page.evaluate(FILTER_JS)
        want = {v: n for v, n in want_all.items() if v in SHOWN[value] and n}
        if got["count"] != want:
            problems.append(f"{value}：显示的行 {got['count']}，应为 {want}")
        if got["label"].get(value) != sum(want.values()):
            problems.append(f"{value}：标签上写 {got['label'].get(value)} 行，应为 {sum(want.values())}")
        if got["emptyShown"] or got["headsOverHidden"]:
            problems.append(f"{value}：{got['emptyShown']} 张没有行可显示的表还显示着，"
                            f"{got['headsOverHidden']} 个标题下的表已隐藏")
        if value != "all" and got["tablesShown"] == got["tables"]:
            problems.append(f"{value}：一张表也没有隐藏")
    return problems


def row_top(page, anchor: str) -> dict:
    return page.evaluate("""a => { const r = document.getElementById(a).getBoundingClientRect();
        const bar = document.querySelector('.ref-filter').getBoundingClientRect();
        const head = document.querySelector('.md-header').getBoundingClientRect();
        return {top: r.top, bar: Math.max(bar.bottom, head.bottom), height: innerHeight,
                shown: document.getElementById(a).getClientRects().length > 0}; }""", anchor)


def in_view(pos: dict) -> bool:
    return pos["shown"] and pos["bar"] - 1 <= pos["top"] < pos["height"]


def test_the_filter_shows_the_rows_it_names(browser, base_url, empty_index):
    context, guard, page = open_map(browser, base_url, empty_index)
    try:
        assert filter_problems(page) == []
        # The reader's place stays: a 「不同」 row in the middle of the page, at the top of the
        # screen, is still there after only 「不同」 rows are shown.
        differs = [a for a, (_, r) in BY_ANCHOR.items() if r["verdict"] == "differs"]
        a = differs[len(differs) // 2]
        page.evaluate("a => document.getElementById(a).scrollIntoView()", a)
        frames(page)
        before = row_top(page, a)
        choose(page, "differs")
        after = row_top(page, a)
        assert in_view(before) and in_view(after) and after["top"] <= before["top"] + 2, (a, before, after)
        # A link to a row the filter hides (a 「不同」 row's 改法 points at a 「相同」 row):
        # following it shows every row again, with that row in view.
        x = next(x for x, (e, r) in BY_ANCHOR.items() if r["verdict"] == "differs"
                 and BY_ANCHOR[reference.anchor(e, r["fix"])][1]["verdict"] == "same")
        target = reference.anchor(BY_ANCHOR[x][0], BY_ANCHOR[x][1]["fix"])
        page.locator(f"#{x} .ref-fix a[href='#{target}']").click()
        bu.wait_until(page, "() => !document.querySelector('article').dataset.refShow",
                      what="点了被筛掉的行的链接之后筛选回到全部")
        frames(page)
        assert page.locator(".ref-filter input[value='all']").is_checked()
        assert in_view(row_top(page, target)), row_top(page, target)
    finally:
        context.close()
    assert guard.outside == []


def test_the_filter_check_sees_a_map_without_its_script(browser, base_url, empty_index):
    context, _, page = open_map(browser, base_url, empty_index, broken={"**/assets/map.js": None})
    try:
        assert filter_problems(page) == ["筛选开关没有显示出来（map.js 没有运行？）"]
    finally:
        context.close()


# --------------------------------------------------------------------------- copy buttons

# What Material's copy button copies for each burn cell: its target's innerText, end trimmed
# (the bundle's copy handler), read the way the handler reads it, with the collapsed cells open
# (as they are when a reader can press their button). Rows in order; a fix block (the 「改法」
# code in a result cell) says whose code it shows.
COPY_JS = """() => { document.querySelectorAll('details.ref-long').forEach(d => { d.open = true; });
  return [...document.querySelectorAll('table.ref-table tbody tr')].flatMap(tr =>
  [...tr.querySelectorAll('pre.ref-code')].map(pre => {
    const button = pre.querySelector('button[data-md-type="copy"][data-clipboard-target], button.md-clipboard[data-clipboard-target]');
    const target = button && document.querySelector(button.getAttribute('data-clipboard-target'));
    const fix = pre.closest('.ref-fix');
    return {row: tr.id, fix: fix ? fix.querySelector('a').getAttribute('href').slice(1) : null,
            button: !!button, same: target === pre.querySelector('code'),
            text: target ? target.innerText.replace(/\\s+$/, '') : null};
  })); }"""


def copy_problems(page) -> list[str]:
    cells = page.evaluate(COPY_JS)
    problems = []
    if len([c for c in cells if not c["fix"]]) != len(ROWS):
        problems.append(f"{len(cells)} 个 burn 格子，表里有 {len(ROWS)} 行")
    for c in cells:
        _, row = BY_ANCHOR[c["fix"] or c["row"]]
        where = c["row"] + ("（改法）" if c["fix"] else "")
        if not c["button"] or not c["same"]:
            problems.append(f"{where}：没有复制按钮，或按钮复制的不是这个代码块")
        elif c["text"] != reference.code_of(row).rstrip():
            problems.append(f"{where}：复制按钮复制的文字和 crate 里的模块不同")
    return problems


def clipboard_of(page, anchor: str, fix: bool = False) -> str:
    """Press the copy button of a row's burn cell (or of its 改法 block); what the clipboard holds."""
    page.evaluate("() => navigator.clipboard.writeText('')")
    cell = page.locator(f"[id='{anchor}'] > td:nth-child({3 if fix else 2})")
    details = cell.locator("details.ref-long")
    if details.count() and not details.evaluate("d => d.open"):
        details.locator("summary").click()
    pre = cell.locator("pre.ref-code").first
    pre.scroll_into_view_if_needed()
    pre.hover()
    pre.locator("button[data-md-type='copy'], button.md-clipboard").first.click()
    bu.wait_until(page, "() => navigator.clipboard.readText().then(t => t.length > 0)",
                  what=f"{anchor} 的复制按钮写进剪贴板")
    return page.evaluate("navigator.clipboard.readText()")


def test_every_burn_cell_copies_exactly_its_module(browser, base_url, empty_index):
    context, guard, page = open_map(browser, base_url, empty_index)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        assert copy_problems(page) == []
        # Pressed for real: a short cell, a collapsed hand-written one, one whose text holds
        # generics and 1e-6, and a 改法 block.
        long = next(a for a, (_, r) in BY_ANCHOR.items()
                    if r["verdict"] == "none" and reference.code_of(r).count("\n") > reference.LONG_LINES)
        generic = next(a for a, (_, r) in BY_ANCHOR.items() if "1e-" in reference.code_of(r)
                       and "<" in reference.code_of(r))
        fixed = next(a for a, (_, r) in BY_ANCHOR.items() if r.get("fix"))
        for a in (next(iter(BY_ANCHOR)), long, generic):
            assert clipboard_of(page, a) == reference.code_of(BY_ANCHOR[a][1]).rstrip(), a
        e, r = BY_ANCHOR[fixed]
        fix = next(f for f in manifest(BOOK, e).rows if f["id"] == r["fix"])
        assert clipboard_of(page, fixed, fix=True) == reference.code_of(fix).rstrip(), fixed
    finally:
        context.close()
    assert guard.outside == []


def test_the_copy_check_sees_a_cell_that_is_not_its_module(browser, base_url, empty_index, site):
    text = (site / "reference" / "index.html").read_text(encoding="utf-8")
    anchor, (_, row) = next(iter(BY_ANCHOR.items()))
    first = html.escape(reference.code_of(row).splitlines()[-1])
    start = text.index(f'<tr id="{anchor}"')
    at = text.index(first, start)
    broken = text[:at] + first + "//" + text[at + len(first):]
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    guard.overrides[MAP] = broken
    guard.overrides[SEARCH_INDEX] = empty_index
    try:
        page = context.new_page()
        page.goto(base_url + MAP, wait_until="load")
        problems = copy_problems(page)
    finally:
        context.close()
    assert problems == [f"{anchor}：复制按钮复制的文字和 crate 里的模块不同"], problems


# --------------------------------------------------------------------------- a row's link

@pytest.mark.parametrize("viewport", [bu.DESKTOP, bu.PHONE], ids=["desktop", "phone"])
def test_a_row_anchor_shows_the_row_below_the_filter(browser, base_url, empty_index, viewport):
    anchors = list(BY_ANCHOR)
    context, guard, page = open_map(browser, base_url, empty_index, viewport)
    try:
        for a in (anchors[len(anchors) // 4], anchors[-1]):
            page.goto(f"{base_url}{MAP}#{a}", wait_until="load")
            frames(page)
            assert in_view(row_top(page, a)), (a, row_top(page, a))
        # With the filter on 「不同」, a shared link to a 「相同」 row still shows it.
        same = next(a for a, (_, r) in BY_ANCHOR.items() if r["verdict"] == "same")
        choose(page, "differs")
        page.evaluate("a => { location.hash = a; }", same)
        bu.wait_until(page, "a => document.getElementById(a).getClientRects().length > 0", arg=same,
                      what="被筛掉的行的锚点让它重新显示")
        frames(page)
        assert in_view(row_top(page, same)), (same, row_top(page, same))
    finally:
        context.close()
    assert guard.outside == []


# --------------------------------------------------------------------------- phone width

# At phone width: each row's cells as boxes; what sticks out of the screen or out of its cell
# (a block of code may scroll inside itself; nothing else may need sideways scrolling); pieces
# of code that were broken across lines although they are meant to stay whole.
PHONE_JS = """() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  for (const tr of document.querySelectorAll('table.ref-table tbody tr')) {
    const cells = [...tr.cells];
    const res = cells[2].getBoundingClientRect();
    if (res.width === 0 || res.left < -1 || res.right > W + 1)
      out.push(`${tr.id}：结果一栏在 ${Math.round(res.left)}…${Math.round(res.right)}，屏幕宽 ${W}`);
    cells.forEach((td, i) => { if (td.scrollWidth > td.clientWidth + 1)
      out.push(`${tr.id}：第 ${i + 1} 栏的内容比格子宽（${td.scrollWidth} > ${td.clientWidth}）`); });
  }
  const breaking = new Set();
  for (const e of document.querySelectorAll('table.ref-table tbody *')) {
    const s = getComputedStyle(e);
    if (s.overflowWrap !== 'normal' || !['normal', 'keep-all'].includes(s.wordBreak))
      breaking.add(`${e.localName}.${e.className}（${s.overflowWrap} ${s.wordBreak}）`);
  }
  if (breaking.size) out.push(`会在名字中间断行的元素：${[...breaking].join('、')}`);
  const broken = [...document.querySelectorAll('table.ref-table .tk, table.ref-table .nb')]
    .filter(e => e.getClientRects().length > 1 || (e.getClientRects()[0] || {}).height > 1.6 * parseFloat(getComputedStyle(e).lineHeight));
  if (broken.length) out.push(`${broken.length} 段代码被折成了两行，如 ${broken[0].textContent}`);
  return {problems: out, pageWidth: document.documentElement.scrollWidth, width: W,
          height: document.documentElement.scrollHeight};
}"""


def phone_problems(page) -> list[str]:
    got = page.evaluate(PHONE_JS)
    extra = [] if got["pageWidth"] <= got["width"] else [f"页面宽 {got['pageWidth']}，屏幕宽 {got['width']}"]
    return extra + got["problems"]


def test_at_phone_width_every_result_is_on_screen(browser, base_url, empty_index):
    context, guard, page = open_map(browser, base_url, empty_index, bu.PHONE)
    try:
        problems = phone_problems(page)
        height = page.evaluate("document.documentElement.scrollHeight")
        choose(page, "both")
        both = page.evaluate("document.documentElement.scrollHeight")
    finally:
        context.close()
    assert guard.outside == []
    print(f"\nthe map at 390 px: {height:,} px tall, {both:,} px with only 「不同」 and 「没有」")
    assert problems == [], "\n".join(problems[:20]) + f"\n（共 {len(problems)} 处）"


def test_the_phone_check_sees_the_map_without_its_phone_layout(browser, base_url, empty_index, site):
    css = (site / "assets" / "book.css").read_text(encoding="utf-8")
    cut = css.index("@media screen and (max-width: 59.9375em) {\n  .md-typeset table.ref-table")
    end = css.index("\n}\n", cut) + 3
    context, _, page = open_map(browser, base_url, empty_index, bu.PHONE,
                                broken={"**/assets/book.css": ("text/css", css[:cut] + css[end:])})
    try:
        problems = phone_problems(page)
    finally:
        context.close()
    assert any("的内容比格子宽" in p for p in problems), problems[:5]


# --------------------------------------------------------------------------- widths (issue 37)

# Pages with long code: the map, and a few whose code blocks are long or many.
WIDE_CODE_PAGES = [MAP, "/01-tensor/", "/12-port-gpt/", "/scan/"]
# The 「改法」 block at 1280 px gets at least this many columns of code (it had 32 in the third
# column: most of its lines ran out of sight), and the burn code keeps what it had (58): widening
# the third column at the burn column's expense would leave it under 50.
FIX_COLUMNS = 60
BURN_COLUMNS = 50

# Whether the document scrolls sideways, and if so what sticks out: elements whose right edge is
# past the screen's with no box around them that scrolls (or clips) them back inside it.
PAGE_WIDTH_JS = """() => {
  const se = document.scrollingElement, W = se.clientWidth;
  const out = [];
  if (se.scrollWidth > W) for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || r.right <= W + 1) continue;
    let p = e.parentElement;
    while (p && p !== document.body && (getComputedStyle(p).overflowX === 'visible'
                                        || p.getBoundingClientRect().right > W + 1)) p = p.parentElement;
    if (!p || p === document.body) {
      const at = e.closest('[id]');
      out.push(`${e.localName}.${[...e.classList].join('.')}${at ? '（在 #' + at.id + ' 里）' : ''}：右边在 ${Math.round(r.right)}`);
    }
  }
  return {scroll: se.scrollWidth, width: W, out: out.slice(0, 10)};
}"""

# In every cell of the map: nothing wider than its cell, and no box that cuts off what does not fit
# in it (overflow hidden) instead of scrolling it sideways.
CELLS_JS = """() => {
  const out = [];
  for (const tr of document.querySelectorAll('table.ref-table tbody tr')) [...tr.cells].forEach((td, i) => {
    if (td.scrollWidth > td.clientWidth + 1)
      out.push(`${tr.id}：第 ${i + 1} 栏的内容比格子宽（${td.scrollWidth} > ${td.clientWidth}）`);
    for (const e of td.querySelectorAll('*')) {
      if (!e.clientWidth || e.scrollWidth <= e.clientWidth + 1) continue;
      if (['hidden', 'clip'].includes(getComputedStyle(e).overflowX))
        out.push(`${tr.id}：第 ${i + 1} 栏的 ${e.localName}.${[...e.classList].join('.')} 截掉了放不下的部分，`
                 + `不能左右滚动（${e.scrollWidth} > ${e.clientWidth}）`);
    }
  });
  return out;
}"""

# Columns of code a block shows without scrolling: its width inside the padding over the width
# of a digit in its font. For each shown 「改法」 block and each burn cell: [row, columns].
COLUMNS_JS = """sel => [...document.querySelectorAll(sel)].filter(c => c.getClientRects().length).map(c => {
  const s = getComputedStyle(c), probe = document.createElement('span');
  probe.style.whiteSpace = 'pre';
  probe.textContent = '0'.repeat(40);
  c.append(probe);
  const ch = probe.getBoundingClientRect().width / 40;
  probe.remove();
  return [c.closest('tr').id, (c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)) / ch];
})"""
FIX_CODE = "table.ref-table .ref-fix pre.ref-code > code"
BURN_CODE = "table.ref-table tbody td:nth-child(2) pre.ref-code > code"


def laid_out(page):
    """Once the fonts are in and the layout has settled (map.js has cut the map's code into lines
    when it shows the filter)."""
    if page.evaluate("() => !!document.querySelector('.ref-filter')"):
        bu.wait_until(page, "() => !document.querySelector('.ref-filter').hidden", what="map.js 显示筛选开关")
    page.evaluate("document.fonts.ready.then(() => true)")
    frames(page)


def width_problems(page) -> list[str]:
    got = page.evaluate(PAGE_WIDTH_JS)
    if got["scroll"] <= got["width"]:
        return []
    return [f"{urlsplit(page.url).path}：页面宽 {got['scroll']}，屏幕宽 {got['width']}，可以左右滚动"] + got["out"]


def columns(page, selector: str) -> list[tuple[str, float]]:
    return sorted(((row, n) for row, n in page.evaluate(COLUMNS_JS, selector)), key=lambda x: x[1])


def map_width_problems(page, viewport) -> list[str]:
    laid_out(page)
    page.evaluate("() => document.querySelectorAll('table.ref-table details').forEach(d => { d.open = true; })")
    # Opening turns each summary's chevron: measured mid-turn, it sticks out of its summary.
    bu.wait_until(page, "() => !document.getAnimations().some(a => a instanceof CSSTransition && a.playState === 'running')",
                  what="展开的 details 的过渡动画结束")
    frames(page)
    problems = width_problems(page) + page.evaluate(CELLS_JS)
    if viewport == bu.DESKTOP:
        fix, burn = columns(page, FIX_CODE), columns(page, BURN_CODE)
        if not fix or fix[0][1] < FIX_COLUMNS:
            problems.append(f"改法的代码框最窄的只有 {fix[0][1]:.1f} 列（{fix[0][0]}），至少要 {FIX_COLUMNS} 列"
                            if fix else "没有找到改法的代码框")
        if not burn or burn[0][1] < BURN_COLUMNS:
            problems.append(f"burn 一栏的代码框最窄的只有 {burn[0][1]:.1f} 列（{burn[0][0]}），至少要 {BURN_COLUMNS} 列"
                            if burn else "没有找到 burn 一栏的代码框")
    return problems


@pytest.mark.parametrize("viewport", [bu.PHONE, bu.DESKTOP], ids=["phone", "desktop"])
def test_nothing_on_the_map_is_wider_than_its_place(browser, base_url, empty_index, viewport):
    """At 390 and 1280 px the map does not scroll sideways, no cell's content is cut off (a piece
    of code wider than its box scrolls in that box), and at 1280 px a 「改法」 block is as
    readable as the burn code beside it."""
    context, guard, page = open_map(browser, base_url, empty_index, viewport)
    try:
        problems = map_width_problems(page, viewport)
        fix, burn = columns(page, FIX_CODE), columns(page, BURN_CODE)
    finally:
        context.close()
    assert guard.outside == []
    if fix and burn:
        print(f"\nthe map at {viewport['width']} px: 改法 code {fix[0][1]:.1f}–{fix[-1][1]:.1f} columns, "
              f"burn code {burn[0][1]:.1f}–{burn[-1][1]:.1f}")
    assert problems == [], "\n".join(problems[:20]) + f"\n（共 {len(problems)} 处）"


@pytest.mark.parametrize("viewport", [bu.PHONE, bu.DESKTOP], ids=["phone", "desktop"])
def test_pages_with_long_code_do_not_scroll_sideways(browser, base_url, viewport):
    """A long line of code scrolls in its own block: the page itself never scrolls sideways
    (test_browser.py's walk looks at every page at 390 px; these are the ones with the longest
    code, at both widths)."""
    context = browser.new_context(viewport=viewport)
    guard = bu.Guard(context)
    problems = []
    try:
        page = context.new_page()
        for path in WIDE_CODE_PAGES:
            guard.label = path
            page.goto(base_url + path, wait_until="load")
            laid_out(page)
            problems += width_problems(page)
    finally:
        context.close()
    assert guard.outside == []
    assert problems == [], "\n".join(problems)


# The map's code without its boxes that scroll: blocks whose lines run on past their cell, a call
# and its spellings cut off at the edge of their box; and the 「改法」 block back in the third column.
WITHOUT_SCROLLING = """
.md-typeset .ref-table pre.ref-code, .md-typeset .ref-table pre.ref-code > code { overflow: visible !important; white-space: pre !important; }
.ref-table td:first-child > code, .ref-table .ref-names code { overflow: hidden !important; white-space: pre !important; }
.ref-table tr:has(> td > .ref-fix) > td:not(:first-child) { grid-column: auto !important; }
"""


@pytest.mark.parametrize("viewport", [bu.PHONE, bu.DESKTOP], ids=["phone", "desktop"])
def test_the_width_checks_see_code_that_does_not_scroll(browser, base_url, empty_index, site, viewport):
    css = (site / "assets" / "book.css").read_text(encoding="utf-8") + WITHOUT_SCROLLING
    context, _, page = open_map(browser, base_url, empty_index, viewport,
                                broken={"**/assets/book.css": ("text/css", css)})
    try:
        problems = map_width_problems(page, viewport)
    finally:
        context.close()
    assert any("可以左右滚动" in p for p in problems), problems[:5]
    assert any("的内容比格子宽" in p for p in problems), problems[:5]
    assert any("截掉了放不下的部分" in p for p in problems), problems[:5]
    if viewport == bu.DESKTOP:
        assert any(p.startswith("改法的代码框最窄的只有") for p in problems), problems[:5]


# --------------------------------------------------------------------------- marks

MARKS_JS = """() => [...document.querySelectorAll('table.ref-table tbody tr')].map(tr => {
  const s = getComputedStyle(tr.cells[0], '::before');
  return [tr.id, tr.dataset.verdict, s.content, s.color, getComputedStyle(tr.cells[0]).color];
})"""


def test_differs_and_none_rows_are_marked_in_words_and_colour(browser, base_url, empty_index):
    context, _, page = open_map(browser, base_url, empty_index, color_scheme="light")
    try:
        marks = page.evaluate(MARKS_JS)
    finally:
        context.close()
    words = {"differs": "≠ 不同", "none": "∅ burn 没有"}
    assert len(marks) == len(ROWS)
    for anchor, verdict, content, colour, text in marks:
        assert verdict == BY_ANCHOR[anchor][1]["verdict"]
        if verdict in words:
            assert content == f'"{words[verdict]}"' and colour != text, (anchor, content, colour)
        else:
            assert content in ("none", "normal"), (anchor, content)


# --------------------------------------------------------------------------- whole program

VIEW_JS = """() => { const d = document.querySelector('dialog.ref-viewer');
  if (!d || !d.open) return null;
  const pre = d.querySelector('pre'), box = pre.getBoundingClientRect();
  const hits = [...pre.querySelectorAll('span.hit')];
  return {title: d.querySelector('strong').textContent,
          download: d.querySelector('a[download]').getAttribute('href'),
          files: [...d.querySelectorAll('.ref-files button')].map(b => b.title),
          open: (d.querySelector('.ref-files button[aria-pressed=true]') || {}).title,
          hits: hits.map(h => h.textContent),
          seen: hits.filter(h => { const r = h.getBoundingClientRect();
                                   return r.top >= box.top && r.bottom <= box.bottom; }).map(h => h.textContent)}; }"""


def test_a_row_opens_its_whole_program_from_its_download(browser, base_url, empty_index):
    exp_id, row = "ref-3-nn", "gru"
    anchor = reference.anchor(exp_id, row)
    context, guard, page = open_map(browser, base_url, empty_index, bu.PHONE, fragment=f"#{anchor}")
    requested = []
    page.on("request", lambda r: requested.append(urlsplit(r.url).path))
    try:
        link = page.locator(f"[id='{anchor}'] a.ref-prog")
        assert link.get_attribute("href") == f"../{DOWNLOADS}/{exp_id}.tar.gz"
        link.click()
        bu.wait_until(page, "() => document.querySelector('dialog.ref-viewer pre span.hit')",
                      what="完整程序读出来并标出这一行")
        view = page.evaluate(VIEW_JS)
        # It opens the row's topic file of the crate, where its module and its call are.
        assert view["open"] == "crates/ref-nn/src/rnn.rs", view["files"]
        assert "experiments/reference/ref_nn/rnn.py" in view["files"] and "README.md" in view["files"]
        assert "experiments/reference/ref-3-nn/rnn.yaml" in view["files"]
        assert any(h.startswith(f"mod {row} {{") for h in view["hits"])
        assert any(f'row("{row}"' in h for h in view["hits"])
        # It opens where main calls the row (its inputs and weights are made there).
        assert any(f"{row}::" in h for h in view["seen"]), view["seen"]
        assert view["download"].endswith(f"/{DOWNLOADS}/{exp_id}.tar.gz")
        page.locator("dialog.ref-viewer .ref-files button[title='experiments/reference/ref_nn/rnn.py']").click()
        view = page.evaluate(VIEW_JS)
        assert view["open"] == "experiments/reference/ref_nn/rnn.py"
        assert any(h.startswith(f"def {row}(") for h in view["seen"]), view["seen"]
        page.keyboard.press("Escape")
        bu.wait_until(page, "() => !document.querySelector('dialog.ref-viewer').open", what="Esc 关掉完整程序")
    finally:
        context.close()
    assert guard.outside == []
    assert f"{MAP}../{DOWNLOADS}/{exp_id}.tar.gz".replace("/reference/../", "/") in requested


# --------------------------------------------------------------------------- links, both ways

TR_RE = re.compile(r'<tr id="([^"]+)" data-verdict="[a-z]+">(.*?)</tr>', re.S)


def test_rows_and_pitfall_pages_link_each_other(site):
    """Static, over the built site: every row links its download and its whole program; a row
    with a pitfall page links it (a 「相同」 row saying that its call has a trap), and that
    page links back to the row; no other row names a pitfall."""
    rows = dict(TR_RE.findall((site / "reference" / "index.html").read_text(encoding="utf-8")))
    assert sorted(rows) == sorted(BY_ANCHOR)
    problems, pages = [], {}
    for anchor, cell in rows.items():
        exp_id, row = BY_ANCHOR[anchor]
        archive = f'href="../{DOWNLOADS}/{exp_id}.tar.gz"'
        if f'class="ref-prog" {archive}' not in cell or f'class="ref-dl" {archive} download' not in cell:
            problems.append(f"{anchor}：没有链到完整程序和下载包 {exp_id}.tar.gz")
        page = row.get("pitfall")
        linked = re.findall(r'<p class="ref-pit"[^>]*>(.*?)<a href="\.\./(10-pitfalls/[^"]+)/">', cell)
        if (page is None) != (not linked) or (page and linked[0][1] != page):
            problems.append(f"{anchor}：坑页链接 {linked}，清单里是 {page}")
            continue
        if page:
            lead = reference.PITFALL_LEAD[row["verdict"]]
            if linked[0][0] != lead + "：":
                problems.append(f"{anchor}：链到坑页前写的是 {linked[0][0]!r}，应为 {lead!r}")
            pages.setdefault(page, set()).add(anchor)
    assert (site / DOWNLOADS).is_dir()
    for page, anchors in sorted(pages.items()):
        text = (site / page / "index.html").read_text(encoding="utf-8")
        back = set(re.findall(r'href="\.\./\.\./reference/#([^"]+)"', text))
        if not anchors <= back:
            problems.append(f"{page}：没有链回对照表的行 {sorted(anchors - back)}")
    # Rows whose 「相同」 hides a trap elsewhere say so: optimizer state and resuming.
    assert rows[reference.anchor("ref-4-training", "optimizer_resume")].count(reference.PITFALL_LEAD["same"]) == 1
    assert problems == [], "\n".join(problems)
    assert len(pages) >= 15


# --------------------------------------------------------------------------- weight

def test_the_map_is_light_on_first_view(browser, base_url):
    w = bu.page_weight(browser, base_url + MAP, settle_ms=100)
    top = sorted(w["gzip_by_url"].items(), key=lambda kv: -kv[1])[:3]
    print(f"\nthe map's first view: {w['gzip']:,} bytes gzip ({w['bytes']:,} plain, {w['requests']} requests); "
          "largest: " + ", ".join(f"{urlsplit(u).path} {n:,}" for u, n in top))
    assert w["outside"] == []
    assert not any(urlsplit(u).path == SEARCH_INDEX for u in w["by_url"])
    assert w["gzip"] < FIRST_VIEW_GZIP_BUDGET, w["gzip"]
