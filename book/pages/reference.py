"""Render the torch → burn map: the rows of table-driven experiments (manifests with `rows:`),
each with the burn code that ran (its module in the crate), every PyTorch spelling it stands
for, a stable anchor, and the run's result. Only reads build_outputs/ and the manifests."""
import html
import posixpath
import re

from .. import sources
from ..checking.contract import ROW_WANT
from ..errors import BookError
from ..experiments.manifest import by_id
from ..paths import Book
from . import outputs
from .programs import manifest
from .row_result import result

# Where the site keeps each experiment's download (book/site/downloads/package.py's DIR; pages/
# may not import site/, and a test holds the two equal).
DOWNLOADS = "downloads"
VERDICT_TEXT = {"same": "相同", "differs": "不同", "none": "burn 0.22.1 没有"}
MAP_PAGE = "reference.md"
# A hand-written replacement longer than this is shown collapsed.
LONG_LINES = 14
# Under a 「不同」 or 「没有」 row, and under a 「相同」 row whose call has a trap elsewhere.
PITFALL_LEAD = {"differs": "讲这个差别的坑", "none": "相关的坑", "same": "这一行相同，但相关的写法有坑"}
# A run of code longer than this, with no space in it, gets places where a line may break
# (_pieces). Each piece is an inline-block span, which a line may break around; the text (and
# what a reader copies) stays the same.
LONG_RUN = 20
RUN_RE = re.compile(r"[!-~]+")
# A piece shorter than this joins the next one (the last, the one before it): fewer spans.
SHORT_PIECE = 6


def _pieces(run: str) -> list[str]:
    """A run of code cut between tokens: after ( [ { , and ::, before a dot that starts a
    method or a field; never inside a quoted string ('ckpt.pt')."""
    cuts, quote = [0], None
    for i, c in enumerate(run):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{," or run.startswith("::", i - 1) and c == ":":
            cuts.append(i + 1)
        elif c == "." and i and (run[i - 1].isalnum() or run[i - 1] in "_)]") \
                and run[i + 1:i + 2].isidentifier():
            cuts.append(i)
    cuts = sorted(set(cuts + [len(run)]))
    out, carry = [], ""
    for a, b in zip(cuts, cuts[1:]):
        piece = carry + run[a:b]
        carry = piece if len(piece) < SHORT_PIECE else ""
        if not carry:
            out.append(piece)
    if carry:
        out[-1:] = [out[-1] + carry] if out else [carry]
    return out


def _breakable(text: str) -> str:
    """Escaped text whose runs of code wrap only between tokens, never inside a name or a
    number: a long run is cut into pieces, and a run with a hyphen inside (1e-6, which a
    browser would break after the -) is one piece."""
    out, at = [], 0
    for m in RUN_RE.finditer(text):
        out.append(html.escape(text[at:m.start()]))
        run = m.group(0)
        pieces = _pieces(run) if len(run) > LONG_RUN else [run]
        out.append("".join(f'<span class="tk">{html.escape(x)}</span>' for x in pieces)
                   if len(pieces) > 1 or "-" in run[1:-1] else html.escape(run))
        at = m.end()
    return "".join(out) + html.escape(text[at:])


def _code(s: str) -> str:
    return "<code>" + _breakable(s) + "</code>"


def _href(page: str, target: str) -> str:
    """A link from a page (reference, 10-pitfalls/x: as manifests name pages) to a file of the
    built site or to another page, for raw HTML, which neither engine rewrites: directory URLs
    (use_directory_urls), so reference.md is served at reference/."""
    base = page.removesuffix("/index") if page != "index" else ""
    return posixpath.relpath(target, base or ".") + ("/" if not posixpath.splitext(target)[1] else "")


def pitfall_title(book: Book, page: str) -> str:
    """A pitfall page's title (its first-level heading) as HTML, `code` spans included."""
    text = (book.root / "docs" / f"{page}.md").read_text(encoding="utf-8")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), None)
    if not title or "{{" in title or "{%" in title:
        raise BookError(f"坑页 docs/{page}.md 的一级标题{'里有宏' if title else '找不到'}：对照表用它作链接的文字")
    parts = title.split("`")
    return "".join(f"<code>{html.escape(x)}</code>" if i % 2 else html.escape(x)
                   for i, x in enumerate(parts))


def pitfall_pages(book: Book, exp_id: str, topic: str | None = None) -> list[str]:
    """The pitfall pages the rows of an experiment (of one topic) link, in row order."""
    rows = manifest(book, exp_id).rows
    return list(dict.fromkeys(r["pitfall"] for r in rows
                              if r.get("pitfall") and (topic is None or r["topic"] == topic)))


def _block(code: str) -> str:
    # One physical line per table row: a newline in <pre> is written as &#10;, so that no
    # blank line ends the raw HTML block in Markdown.
    return '<pre class="ref-code"><code>' + html.escape(code).replace("\n", "&#10;") + "</code></pre>"


def anchor(exp_id: str, row_id: str) -> str:
    """The row's id on the map page: the experiment's name without ref-N- (tensor-sort)."""
    return f"{exp_id.split('-', 2)[-1]}-{row_id}"


def code_of(row: dict) -> str:
    """The burn code of a row as the page shows it and a reader copies it."""
    return row["code"]


def _burn_cell(book: Book, exp, row: dict) -> str:
    code = code_of(row)
    n = code.count("\n")
    cell = _block(code)
    if row["verdict"] == "none" and n > LONG_LINES:
        cell = f'<details class="ref-long"><summary>手写的实现（{n} 行）</summary>{cell}</details>'
    # Beside the code, never around it: the source it calls, the whole program this row runs
    # in (map.js opens it from the download; without script, the link downloads it) and the
    # download itself.
    links = []
    if row["src"]:
        s = sources.link(book, row["src"][0], row["src"][1])
        links.append(f'<a class="ref-src" href="{s["url"]}" title="{html.escape(s["repo_path"])} '
                     f'L{s["start"]}–L{s["end"]}">源码：{_breakable(row["src"][1])}</a>')
    # Outside search (as every full view is): the same two links on every row.
    archive = _href(exp.page, f"{DOWNLOADS}/{exp.id}.tar.gz")
    links.append(f'<span class="ref-progs" data-search-exclude=""><a class="ref-prog" href="{archive}">完整程序</a>'
                 f'<a class="ref-dl" href="{archive}" download>下载 {exp.id}.tar.gz</a></span>')
    return cell + '<div class="ref-foot">' + "".join(links) + "</div>"


def _torch_cell(exp_id: str, row: dict) -> str:
    a = anchor(exp_id, row["id"])
    names = " ".join(_code(n) for n in row.get("spellings") or [])
    return (f'<a class="ref-anchor" href="#{a}" title="这一行的链接">#</a>{_code(row["torch"])}'
            + (f'<div class="ref-names">{names}</div>' if names else ""))


def _pitfall_line(book: Book, exp, row: dict) -> str:
    page = row.get("pitfall")
    if not page:
        return ""
    # Outside search: a query for the pitfall's words is for the pitfall page, not the map.
    return (f'<p class="ref-pit" data-search-exclude="">{PITFALL_LEAD[row["verdict"]]}：'
            f'<a href="{_href(exp.page, page)}">{pitfall_title(book, page)}</a></p>')


def _result_cell(book: Book, exp, row: dict, rows: dict) -> str:
    exp_id = exp.id
    cell = result(book, exp_id, row)
    if row["how"]:
        cell += f'<p class="ref-how">{_breakable(row["how"])}</p>'
    cell += _pitfall_line(book, exp, row)
    if row.get("fix"):
        fix = rows[row["fix"]]
        # Its own id: Material names a code block after its closest id (the row's), and the
        # copy button of a second block under the same id would copy the first.
        cell += (f'<div class="ref-fix" id="fix-{anchor(exp_id, row["id"])}">改法（<a href="#{anchor(exp_id, fix["id"])}">它自己的一行</a>，'
                 f'{result(book, exp_id, fix)}）{_block(code_of(fix))}</div>')
    return cell


def table(book: Book, exp_id: str, topic: str | None = None) -> str:
    """The rows of one experiment (of one topic): PyTorch, burn 0.22.1 and the run's result,
    as one HTML table whose rows carry their anchors and verdicts."""
    exp = manifest(book, exp_id)
    if not exp.rows:
        raise BookError(f"实验 {exp_id} 没有 rows：它不是对照表的实验")
    rows = [r for r in exp.rows if topic is None or r["topic"] == topic]
    if not rows:
        raise BookError(f"实验 {exp_id} 没有 topic 为 {topic!r} 的行；有的是 "
                        f"{sorted({r['topic'] for r in exp.rows})}")
    anchors(book, exp.page)
    by = {r["id"]: r for r in exp.rows}
    lines = ['<table class="ref-table">',
             "<thead><tr><th>PyTorch</th><th>burn 0.22.1</th><th>结果</th></tr></thead><tbody>"]
    for r in rows:
        lines.append(f'<tr id="{anchor(exp_id, r["id"])}" data-verdict="{r["verdict"]}">'
                     f"<td>{_torch_cell(exp_id, r)}</td><td>{_burn_cell(book, exp, r)}</td>"
                     f"<td>{_result_cell(book, exp, r, by)}</td></tr>")
    lines.append("</tbody></table>")
    return "\n".join(lines) + "\n"


def anchors(book: Book, page: str = "reference") -> dict:
    """{anchor: (experiment, row)} over the whole map; BookError when two rows share one."""
    seen = {}
    for exp_id in experiments(book, page):
        for r in manifest(book, exp_id).rows:
            a = anchor(exp_id, r["id"])
            if a in seen:
                raise BookError(f"对照表的锚点 #{a} 重复：{'/'.join(seen[a])} 和 {exp_id}/{r['id']}")
            seen[a] = (exp_id, r["id"])
    return seen


def counts(book: Book, *exp_ids: str) -> dict:
    """How many rows the experiments hold, by verdict: {"same": n, "differs": n, "none": n}."""
    out = dict.fromkeys(VERDICT_TEXT, 0)
    for exp_id in exp_ids:
        exp = manifest(book, exp_id)
        got = outputs.entry(book, exp_id).json("outcome.json")["compare"]["rows"]
        for r in exp.rows:
            if got.get(r["id"]) not in ("same", "differs"):
                raise BookError(f"实验 {exp_id} 的行 {r['id']} 没有结果：先让构建通过")
            out[r["verdict"]] += 1
    return out


def topics(book: Book, exp_id: str) -> list[str]:
    """The topics of an experiment's rows, in table order."""
    return list(dict.fromkeys(r["topic"] for r in manifest(book, exp_id).rows))


def experiments(book: Book, page: str = "reference") -> list[str]:
    """The table-driven experiments of a page, in id order (ref-1-…, ref-2-…)."""
    return sorted(e.id for e in by_id(book).values() if e.rows and e.page == page)


def row_line(book: Book, exp_id: str, row_id: str, verdict: str = "same", page: str = "") -> str:
    """One row of the map as a line of prose, "`torch` → burn 的写法（a link to the row）：result";
    the build stops if the run no longer gives this verdict (a trap that came back, or a fix
    that went away)."""
    exp = manifest(book, exp_id)
    rows = {r["id"]: r for r in exp.rows}
    if row_id not in rows:
        raise BookError(f"实验 {exp_id} 没有行 {row_id!r}")
    r = rows[row_id]
    state = outputs.entry(book, exp_id).json("outcome.json")["compare"]["rows"].get(row_id)
    if r["verdict"] != verdict or state != ROW_WANT[verdict]:
        raise BookError(f"正文说对照表的行 {exp_id}/{row_id} 是 {verdict}，表里写的是 {r['verdict']}，"
                        f"运行的结果是 {state}：改正文或查实验")
    href = posixpath.relpath(MAP_PAGE, posixpath.dirname(page) or ".") + "#" + anchor(exp_id, row_id)
    res = result(book, exp_id, r)
    if r["verdict"] == "differs" and r["how"]:
        res = f"不同：{html.escape(r['how'])}。{res.removeprefix('不同：')}"
    # A Markdown link: both engines turn a .md link into the built page's URL.
    return f'{_code(r["torch"])} → [burn 的写法]({href})：{res}'


# The filter above the map's tables: which rows to show. map.js shows it and does the showing
# (book.css hides the rows); without script it stays hidden and every row shows.
SHOW = (("all", "全部"), ("differs", "≠ 不同"), ("none", "∅ 没有"), ("both", "≠ ∅ 两种"))


def filter_bar(book: Book, *exp_ids: str) -> str:
    """The filter, with how many rows each choice shows (from the runs, as counts() gives)."""
    n = counts(book, *exp_ids)
    shown = {"all": sum(n.values()), "differs": n["differs"], "none": n["none"],
             "both": n["differs"] + n["none"]}
    choices = "".join(
        f'<label class="ref-show-{v}"><input type="radio" name="ref-show" value="{v}"'
        f'{" checked" if v == "all" else ""}>{label}<span class="ref-n">{shown[v]}</span></label>'
        for v, label in SHOW)
    return (f'<div class="ref-filter" role="radiogroup" aria-label="只看哪些行" hidden '
            f'data-search-exclude=""><span class="ref-lead">只看</span>{choices}</div>\n')


def backlinks(book: Book, page: str) -> str:
    """A pitfall page's way back to the map: each row whose `pitfall:` is this page, as a line
    of prose (row_line); the build stops when no row names the page."""
    page = page.removesuffix(".md")
    lines = [row_line(book, exp_id, r["id"], r["verdict"], page=page + ".md")
             for exp_id in experiments(book) for r in manifest(book, exp_id).rows
             if r.get("pitfall") == page]
    if not lines:
        raise BookError(f"对照表里没有一行的 pitfall: 是 {page}：给相关的行加上 pitfall: {page}，"
                        "或者删掉这一页的 reference_backlinks()")
    return "对照表里和这一页有关的行：\n\n" + "\n".join(f"- {x}" for x in lines) + "\n"
