"""The committed query set (search_queries.yaml), typed into the real search box of both
builds, mkdocs-material's and Zensical's: the result a reader's Enter opens must be the section
the query set names. Porting tasks as porters typed them, torch spellings of map rows, every
error message the pitfall pages print (as printed, and with a reader's own path), Chinese
phrasings, and the topics the book says it does not cover.

A query an engine still gets wrong is listed in MATERIAL_MISSES or ZENSICAL_MISSES: a new miss
fails, and so does a listed one that starts to work (delete it from the list then).
"""
import functools
import html
import json
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

import browser_util as bu
from book.pages import messages
from book.paths import Book
from scratch import REPO, SAFETY_S

QUERIES = Path(__file__).with_name("search_queries.yaml")
SECTIONS = ("porting", "map", "chinese", "not_covered")
BOOK = Book(REPO)
# Material adds up to 5 times the score of a page's own entry and 2 times a section's, and
# weighs a pitfall page twice a chapter: a pitfall whose long title mentions safetensors comes
# before 08's section 「载入 safetensors」. Zensical ranks the shorter title first.
MATERIAL_MISSES = {"safetensors"}
ZENSICAL_MISSES: set[str] = set()
# A query whose key the results must not show: the keys are hidden words, in Zensical's case
# joined to the worker's copy of each title and text only.
HIDDEN = ("nn.GRU", "nn·gru·")


def pasted(msg: str) -> str:
    """A message as a reader's terminal prints it: a real path for $DIR, a real build hash."""
    return msg.replace("$DIR", "/home/reader/port").replace("<hash>", "3f9c0a1b7d2e5f60")


@functools.cache
def book_messages() -> dict[str, str]:
    """Each error message a pitfall page prints, by its title (its heading on the page)."""
    out = {}
    for md in sorted((REPO / "docs" / "10-pitfalls").glob("*.md")):
        for _, msg in messages.of_page(BOOK, md.relative_to(REPO / "docs").with_suffix("").as_posix()):
            out[messages.title(msg)] = msg
    return out


@functools.cache
def cases() -> tuple[tuple[str, str, list[str]], ...]:
    """(section, what is typed, the places that count as right) for the whole query set."""
    data = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    out = [(s, c["q"], c["want"]) for s in SECTIONS for c in data.get(s, [])]
    full = book_messages()
    for c in data["errors"]:
        msg = full.get(c["error"], c["error"])
        for typed in dict.fromkeys([msg, pasted(msg)]):
            out.append(("errors", typed.replace("\n", " "), c["want"]))
    return tuple(out)


def where(href: str) -> str:
    """A result's link as the query set writes it: page/#anchor, or page/ for the page itself."""
    u = urlsplit(href)
    path = unquote(u.path).lstrip("/")
    return path + (f"#{unquote(u.fragment)}" if u.fragment else "")


def misses(found: dict[str, str | None]) -> dict[str, str]:
    """{query (its first 80 characters): what came first} for each query whose first result is wrong."""
    return {q[:80]: f"第一个结果 {found[q]!r}，应当是 {want}" for _, q, want in cases()
            if found[q] not in want}


def check(found: dict, listed: set, name: str) -> None:
    wrong = misses(found)
    new = {q: why for q, why in wrong.items() if q not in listed}
    fixed = sorted(listed - set(wrong))
    assert not new and not fixed, (
        "".join(f"\n新的没找对：{q!r}：{why}" for q, why in new.items())
        + (f"\n已经找对了（从 {name} 里删掉）：{fixed}" if fixed else ""))


# --------------------------------------------------------------------------- the set itself

def test_the_query_set_is_the_issues(site):
    """At least 60 queries; every error message the book prints, no more, no fewer; every place
    a query should land exists in the index (an anchor renamed is a query set to fix)."""
    data = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    assert sum(len(data.get(s, [])) for s in (*SECTIONS, "errors")) >= 60
    typed = [q for _, q, _ in cases()]
    assert len(typed) == len(set(typed)), "同一条查询写了两次"
    assert len(data["porting"]) >= 15 and len(data["map"]) >= 15 and len(data["chinese"]) >= 15
    listed = {c["error"] for c in data["errors"]}
    printed = set(book_messages())
    assert listed == printed, (f"书里有、表里没有：{sorted(printed - listed)}；"
                               f"表里有、书里没有：{sorted(listed - printed)}")
    docs = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    locations = {d["location"] for d in docs}
    gone = sorted({w for _, _, want in cases() for w in want} - locations)
    assert gone == [], f"索引里没有这些地方：{gone}"


def teaser_problems(entries: list[dict]) -> list[str]:
    """Entries whose teaser would start with the version line, or that lack the hidden fields."""
    out = []
    for e in entries:
        if "版本：PyTorch" in e.get("text", "").replace("\u200b", ""):
            out.append(f"{e['location']}：摘要里有版本行")
        if not isinstance(e.get("kt"), str) or not isinstance(e.get("kx"), str):
            out.append(f"{e['location']}：没有隐藏的 kt、kx")
    return out


def test_teasers_are_sections_not_version_lines(site, zsite):
    """Both indexes: no text holds a version line (the teaser of every pitfall and chapter
    result was 「版本：PyTorch 2.15.0…」), every entry has its hidden keys, and Material
    indexes them as fields."""
    m = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    z = json.loads((zsite / "search.json").read_text(encoding="utf-8"))
    assert {"kt", "kx"} <= set(m["config"]["fields"])
    assert teaser_problems(m["docs"]) == [] and teaser_problems(z["items"]) == []
    assert sum("kx" in e and "nn·gru·" in e["kx"] for e in m["docs"]) >= 3
    # The check sees one.
    assert teaser_problems([{"location": "x/", "title": "t", "text": "<p>版本：PyTorch 2.15.0</p>",
                             "kt": "", "kx": ""}]) == ["x/：摘要里有版本行"]


def test_a_query_set_miss_is_seen():
    """The check fails on a wrong first result, and on a listed miss that is found."""
    right = {q: want[0] for _, q, want in cases()}
    check(right, set(), "MISSES")
    q = next(iter(right))
    with pytest.raises(AssertionError, match="新的没找对"):
        check({**right, q: "appendix/report/"}, set(), "MISSES")
    with pytest.raises(AssertionError, match="已经找对了"):
        check(right, {q[:80]}, "MISSES")


# --------------------------------------------------------------------------- keys both sides make

WORKER = REPO / "docs" / "assets" / "javascripts" / "workers" / "book-search.js"
# book-search.js in node, in front of a stand-in for Zensical's worker that records each input
# it is asked and finds nothing (so every fallback is tried): for each query, the index holds
# only the keys Python made, and the first input must ask for one of them.
FIRST_INPUTS = r"""
const fs = require("fs"), vm = require("vm");
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
let asked = [];
Object.assign(globalThis, { self: globalThis, location: { href: "http://x/w.js?zensical=engine.js" },
  importScripts() {}, postMessage() {},
  onmessage(ev) { if (ev.data.type === 2) { asked.push(ev.data.data.input);
    self.postMessage({ type: 3, data: { items: [] } }); } } });
vm.runInThisContext(fs.readFileSync(process.argv[1], "utf8"));
const out = {};
for (const c of cases.queries) {
  self.onmessage({ data: { type: 0, data: { config: cases.config,
    items: [{ title: "", text: "", kt: c.keys.join(" "), kx: "" }] } } });
  asked = [];
  self.onmessage({ data: { type: 2, data: { input: c.query } } });
  out[c.query] = asked[0];
}
process.stdout.write(JSON.stringify(out));
"""
SAME_KEYS = ["nn.GRU", "torch.nn.functional.cross_entropy", "GradScaler", "torch.amp.GradScaler",
             "Tensor<B, 2>", "&burn::Tensor<2>", "HashMap<String, burn::nn::Linear>",
             "GradientClippingConfig::Norm", "x.masked_fill(mask, 0.0)", "burn-train", "fine-tune"]


def test_queries_ask_for_the_keys_the_index_holds(site):
    """Python (the index) and book-search.js (the query) make the same key of an identifier and
    of a pasted message; else a query written as code would find nothing by its key."""
    from book.site import search_keys
    config = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["config"]
    queries = [{"query": q, "keys": search_keys.identifier_keys(q.split("(")[0])} for q in SAME_KEYS]
    full = book_messages()
    for title in list(full)[:8]:
        heading = html.escape(title)  # the index holds the heading as HTML
        queries.append({"query": full[title].replace("\n", " "),
                        "keys": [search_keys.message_key(heading, config["separator"])]})
    assert all(q["keys"] and q["keys"][0] for q in queries), queries
    p = subprocess.run(["node", "-e", FIRST_INPUTS, str(WORKER)], capture_output=True, text=True,
                       input=json.dumps({"config": config, "queries": queries}), timeout=SAFETY_S)
    assert p.returncode == 0, p.stderr
    first = json.loads(p.stdout)
    wrong = [f"{q['query'][:50]!r}：先问 {first[q['query']]!r}，索引里是 {q['keys']}"
             for q in queries if (first[q["query"]] or "").split(" ")[0] not in q["keys"]]
    assert wrong == [], "\n".join(wrong)


# --------------------------------------------------------------------------- mkdocs-material


# What Material's Enter opens (its search component): of the links ":first-child [href]"
# finds in the result list, the one whose article has the highest data-md-score, the first
# of equals.
ENTER_MATERIAL = """() => {
  const result = document.querySelector('[data-md-component="search-result"]');
  let best = null, score = -Infinity;
  for (const a of result.querySelectorAll(':first-child [href]')) {
    const s = parseFloat(a.firstElementChild.getAttribute('data-md-score'));
    if (s > score) { best = a.href; score = s; }
  }
  return best; }"""


def material_first(page, query: str) -> str | None:
    """Type the query into Material's box; the link Enter would open, or None."""
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
                  arg=query, what=f"搜索 {query[:40]!r} 的结果行")
    href = page.evaluate(ENTER_MATERIAL)
    return where(href) if href else None


LISTED_MATERIAL = """() => [...document.querySelectorAll(
  '.md-search-result__list > .md-search-result__item > a.md-search-result__link:first-child')]
  .map(a => new URL(a.href).pathname)"""


def appendix_first(listed: dict[str, list[str]]) -> list[str]:
    """For each pasted message: an appendix page (which repeats every outcome) listed above a
    content page is a wrong answer even when the first result is right."""
    from test_browser import appendix_before_content
    return [p for s, q, _ in cases() if s == "errors" for p in appendix_before_content(q[:40], listed[q])]


def test_the_query_set_under_material(browser, site):
    found, listed = {}, {}
    with bu.serve(site) as url:
        context = browser.new_context(viewport=bu.DESKTOP)
        guard = bu.Guard(context)
        try:
            page = context.new_page()
            page.goto(url + "/")
            for _, q, _ in cases():
                found[q] = material_first(page, q)
                listed[q] = page.evaluate(LISTED_MATERIAL)
            material_first(page, HIDDEN[0])
            shown = page.locator(".md-search-result__list").inner_text()
            assert "GRU" in shown and HIDDEN[1] not in shown, shown[:300]
        finally:
            context.close()
    assert guard.outside == []
    check(found, MATERIAL_MISSES, "MATERIAL_MISSES")
    assert appendix_first(listed) == []


# --------------------------------------------------------------------------- Zensical


# Zensical's dialog is in a shadow root; Enter opens the selected result (the first).
ZENSICAL_STATE = """() => {
  const host = [...document.querySelectorAll('*')].find(e => e.shadowRoot && e.shadowRoot.querySelector('input'));
  const root = host.shadowRoot;
  const status = root.querySelector('[role=status]');
  const a = root.querySelector('a[aria-selected=true]') || root.querySelector('a[href]');
  let h = null;
  if (a) { const t = document.createElement('textarea');
    t.innerHTML = new URL(a.href).searchParams.get('h') || ''; h = t.value; }
  return {status: status ? status.textContent : '', href: a ? a.href : null, h,
          listed: [...root.querySelectorAll('a[href]')].map(a => new URL(a.href).pathname)}; }"""


# Answers from the search worker, counted: Zensical's box says "No results" while it waits for
# one, so the count is how a test knows the list it reads is the answer.
COUNT_ANSWERS = """(() => { const W = window.Worker; if (!W) return; window.__bookAnswers = 0;
  window.Worker = function (url, options) { const w = new W(url, options);
    w.addEventListener('message', e => { if (e.data && e.data.type === 3) window.__bookAnswers++; });
    return w; };
  window.Worker.prototype = W.prototype; })();"""


def zensical_first(page, query: str, listed: dict | None = None) -> str | None:
    """Type the query into Zensical's box; the link Enter would open, or None. The list is this
    query's once the worker has answered and the selected result carries the query (?h=), or
    the box says there is none."""
    from test_zensical import RESULTS, SET_QUERY
    page.evaluate(SET_QUERY, "")
    bu.wait_until(page, f"() => ({RESULTS})().length === 0", what="清空搜索框后旧结果消失")
    asked = page.evaluate("window.__bookAnswers")
    page.evaluate(SET_QUERY, query)
    state = bu.wait_until(page, f"""([q, n]) => {{ const s = ({ZENSICAL_STATE})();
        return window.__bookAnswers > n && (s.h === q || (s.status === 'No results' && !s.href)) && s; }}""",
                          arg=[query, asked], what=f"搜索 {query[:40]!r} 的结果").json_value()
    if listed is not None:
        listed[query] = list(dict.fromkeys(state["listed"]))
    return where(state["href"]) if state["href"] else None


def test_the_query_set_under_zensical(browser, zsite):
    from test_zensical import SEARCH_OPEN
    found, listed = {}, {}
    with bu.serve(zsite) as url:
        context = browser.new_context(viewport=bu.DESKTOP)
        context.add_init_script(COUNT_ANSWERS)
        guard = bu.Guard(context)
        try:
            page = context.new_page()
            page.goto(url + "/")
            page.locator(".md-search__button").first.click()
            bu.wait_until(page, SEARCH_OPEN, what="Zensical 的搜索框打开")
            for _, q, _ in cases():
                found[q] = zensical_first(page, q, listed)
            zensical_first(page, HIDDEN[0])
            shown = page.evaluate(f"() => [...document.querySelectorAll('*')].filter(e => e.shadowRoot)"
                                  ".map(h => h.shadowRoot.textContent).join(' ')")
            assert "GRU" in shown and HIDDEN[1] not in shown, shown[:300]
        finally:
            context.close()
    assert guard.outside == []
    check(found, ZENSICAL_MISSES, "ZENSICAL_MISSES")
    assert appendix_first(listed) == []
