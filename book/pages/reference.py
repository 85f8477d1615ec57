"""Render the torch → burn map: the rows of table-driven experiments (manifests with `rows:`),
each with the burn code that ran (its module in the crate), every PyTorch spelling it stands
for, a stable anchor, and the run's result. Only reads build_outputs/ and the manifests."""
import html
import posixpath

from .. import sources
from ..checking.contract import ROW_WANT
from ..errors import BookError
from ..experiments.manifest import by_id
from ..paths import Book
from . import outputs
from .programs import manifest
from .row_result import result

VERDICT_TEXT = {"same": "相同", "differs": "不同", "none": "burn 0.22.1 没有"}
MAP_PAGE = "reference.md"
# A hand-written replacement longer than this is shown collapsed.
LONG_LINES = 14


def _code(s: str) -> str:
    return "<code>" + html.escape(s) + "</code>"


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


def _burn_cell(book: Book, row: dict) -> str:
    code = code_of(row)
    n = code.count("\n")
    cell = _block(code)
    if row["verdict"] == "none" and n > LONG_LINES:
        cell = f'<details class="ref-long"><summary>手写的实现（{n} 行）</summary>{cell}</details>'
    if row["src"]:
        s = sources.link(book, row["src"][0], row["src"][1])
        cell += (f'<a class="ref-src" href="{s["url"]}" title="{html.escape(s["repo_path"])} '
                 f'L{s["start"]}–L{s["end"]}">源码：{html.escape(row["src"][1])}</a>')
    return cell


def _torch_cell(exp_id: str, row: dict) -> str:
    a = anchor(exp_id, row["id"])
    names = " ".join(_code(n) for n in row.get("spellings") or [])
    return (f'<a class="ref-anchor" href="#{a}" title="这一行的链接">#</a>{_code(row["torch"])}'
            + (f'<div class="ref-names">{names}</div>' if names else ""))


def _result_cell(book: Book, exp_id: str, row: dict, rows: dict) -> str:
    cell = result(book, exp_id, row)
    if row["how"]:
        cell += f'<p class="ref-how">{html.escape(row["how"])}</p>'
    if row.get("fix"):
        fix = rows[row["fix"]]
        cell += (f'<div class="ref-fix">改法（<a href="#{anchor(exp_id, fix["id"])}">它自己的一行</a>，'
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
                     f"<td>{_torch_cell(exp_id, r)}</td><td>{_burn_cell(book, r)}</td>"
                     f"<td>{_result_cell(book, exp_id, r, by)}</td></tr>")
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
