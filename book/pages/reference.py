"""Render the torch → burn map: the rows of table-driven experiments (manifests with `rows:`),
each with its verdict from the run. Only reads build_outputs/ and the manifests."""
import html

from .. import sources
from ..checking.contract import ROW_WANT
from ..errors import BookError
from ..experiments.manifest import by_id
from ..paths import Book
from . import outputs
from .programs import manifest

VERDICT_TEXT = {"same": "相同", "differs": "不同", "none": "burn 0.22.1 没有"}


def _code(s: str) -> str:
    # A table cell: no "|" may split the row, no Markdown inside the code.
    return "<code>" + html.escape(s).replace("|", "&#124;") + "</code>"


def _num(v) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    return html.escape(repr(v)).replace("|", "&#124;")


def _leaves(report: dict, row_id: str) -> list[dict]:
    name = f"rows.{row_id}"
    return [f for f in report["fields"] if f["field"] == name or f["field"].startswith(name + ".")]


def result(book: Book, exp_id: str, row: dict) -> str:
    """The result cell of one row, from compare.json: the largest difference against the row's
    tolerance; for a row that differs, where and by how much."""
    e = outputs.entry(book, exp_id)
    state = e.json("outcome.json")["compare"]["rows"][row["id"]]
    report = e.json("compare.json")
    leaves = _leaves(report, row["id"])
    tol = leaves[0].get("tol", report["tol"]) if leaves else report["tol"]
    worst = max(leaves, key=lambda f: f["max_diff"]) if leaves else None
    # A leaf named "shape" is the row's shape: said in words, not counted among the values.
    values = [f for f in leaves if not f["field"].endswith(".shape")]
    shaped = len(values) < len(leaves)
    n = sum(f["n"] for f in values)
    exact = all(f.get("kind") in ("int", "bool", "str") for f in values)
    if state == "same":
        amount = ("逐个相等" if exact or worst["max_diff"] == 0 else
                  f"最大差 {worst['max_diff']:.1e}（容差 {tol:g}）")
        head = "相同" if row["verdict"] == "same" else "burn 0.22.1 没有；左边是最接近的写法，和 PyTorch 相同"
        return f"{head}：{'形状相同，' if shaped else ''}{n} 个值{amount}"
    if state == "differs":
        bad = next((f for f in leaves if f["error"]), None) or worst
        if bad["error"]:
            where = f"<code>{html.escape(bad['field'])}</code>：{html.escape(bad['error'])}"
        else:
            where = (f"<code>{html.escape(bad['field'])}</code>[{bad['at']}]：PyTorch {_num(bad['a'])}，"
                     f"burn {_num(bad['b'])}，差 {bad['max_diff']:.2e}（容差 {tol:g}）")
        return f"不同：{html.escape(row['how'])}。{where}".replace("|", "&#124;")
    raise BookError(f"实验 {exp_id} 的行 {row['id']} 的输出不完整（{state}）：先让构建通过")


def _burn_cell(book: Book, row: dict) -> str:
    code = _code(row["burn"])
    if row["src"]:
        s = sources.link(book, row["src"][0], row["src"][1])
        return f'<a href="{s["url"]}" title="{html.escape(s["repo_path"])} L{s["start"]}–L{s["end"]}">{code}</a>'
    return code


def table(book: Book, exp_id: str, topic: str | None = None) -> str:
    """The rows of one experiment (of one topic): PyTorch, burn 0.22.1 and the run's result."""
    exp = manifest(book, exp_id)
    if not exp.rows:
        raise BookError(f"实验 {exp_id} 没有 rows：它不是对照表的实验")
    rows = [r for r in exp.rows if topic is None or r["topic"] == topic]
    if not rows:
        raise BookError(f"实验 {exp_id} 没有 topic 为 {topic!r} 的行；有的是 "
                        f"{sorted({r['topic'] for r in exp.rows})}")
    lines = ["| PyTorch | burn 0.22.1 | 结果 |", "|---|---|---|"]
    for r in rows:
        lines.append(f"| {_code(r['torch'])} | {_burn_cell(book, r)} | {result(book, exp_id, r)} |")
    # The wrapper lets book.css give the code columns room (code breaks only where it must).
    return '<div class="ref-table" markdown>\n\n' + "\n".join(lines) + "\n\n</div>\n"


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


def row_line(book: Book, exp_id: str, row_id: str, verdict: str = "same") -> str:
    """One row of the map as a line of prose, "`torch` → `burn`：result"; the build stops if the
    run no longer gives this verdict (a trap that came back, or a fix that went away)."""
    exp = manifest(book, exp_id)
    rows = {r["id"]: r for r in exp.rows}
    if row_id not in rows:
        raise BookError(f"实验 {exp_id} 没有行 {row_id!r}")
    r = rows[row_id]
    state = outputs.entry(book, exp_id).json("outcome.json")["compare"]["rows"].get(row_id)
    if r["verdict"] != verdict or state != ROW_WANT[verdict]:
        raise BookError(f"正文说对照表的行 {exp_id}/{row_id} 是 {verdict}，表里写的是 {r['verdict']}，"
                        f"运行的结果是 {state}：改正文或查实验")
    return f"{_code(r['torch'])} → {_code(r['burn'])}：{result(book, exp_id, r)}"

