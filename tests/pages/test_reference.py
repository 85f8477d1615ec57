"""Table-driven experiments (`rows:`, the torch → burn map): each row's verdict holds both ways
on real runs, the manifest's rows are checked, and the table renders from the outputs."""
import json

import pytest

from book.pages import reference
from book.pipeline.build import run_and_compare
from book.experiments.manifest import load
from book.errors import BookError
from scratch import make_workspace, manifest, scratch_book, write, write_crate

# The burn side of every test: three rows. The PyTorch scripts below agree or not with it.
BURN_ROWS = {"a": {"v": [1.0, 2.0], "shape": [2]}, "b": {"v": [0.5]}, "c": {"v": [3]}}
RUST = ('fn main() {\n    println!("{}", r#"' + json.dumps({"rows": BURN_ROWS}) + '"#);\n}\n')


def script(rows: dict) -> str:
    return f"import json\nprint(json.dumps({{'rows': {rows!r}}}))\n"


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = make_workspace(tmp_path_factory.mktemp("rows"), crates=("helper",), script_dirs=("experiments", "adhoc"))
    write_crate(root, "rowcrate", RUST)
    from scratch import generate_lockfile
    generate_lockfile(root)
    return root


ROWS = """rows:
  - {id: a, topic: 形状, torch: "x.reshape(2)", burn: "x.reshape([2])", tol: 0}
  - {id: b, topic: 形状, torch: "x.half()", burn: "x.cast(F16)", verdict: differs, how: "舍入方式不同"}
  - {id: c, topic: 归约, torch: "x.argmax()", burn: "x.argmax(0)"}
"""


def run_rows(ws, tmp_path, exp_id, py_rows: dict, rows: str = ROWS, where: str = "adhoc"):
    write(ws / where / f"{exp_id}.py", script(py_rows))
    body = (f"page: reference\npython:\n  script: {exp_id}.py\nburn:\n  crate: rowcrate\n"
            "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n" + rows)
    path = manifest(ws, exp_id, body, where=where)
    book = scratch_book(ws, tmp_path / "out")
    exp = load(path, book)
    result = run_and_compare(exp, book)
    from book.checking import contract
    return exp, result, contract.check(exp, result["outcome"])


AGREE = {"a": {"v": [1.0, 2.0], "shape": [2]}, "b": {"v": [0.75]}, "c": {"v": [3]}}


def test_every_verdict_holds(ws, tmp_path):
    exp, result, problems = run_rows(ws, tmp_path, "rows-ok", AGREE)
    assert problems == []
    assert result["outcome"]["compare"]["rows"] == {"a": "same", "b": "differs", "c": "same"}
    assert exp.compare["fields"] == ["rows.a", "rows.b", "rows.c"]
    assert exp.compare["tols"] == {"rows.a": 0.0}


def test_a_row_that_stops_differing_breaks_the_build(ws, tmp_path):
    same_b = dict(AGREE, b={"v": [0.5]})
    _, _, problems = run_rows(ws, tmp_path, "rows-b-same", same_b)
    assert len(problems) == 1 and "行 b（x.half()）" in problems[0] and "不再不同" in problems[0], problems


def test_a_same_row_that_differs_names_the_row(ws, tmp_path):
    _, _, problems = run_rows(ws, tmp_path, "rows-c-off", dict(AGREE, c={"v": [4]}))
    assert len(problems) == 1 and "行 c（x.argmax()）" in problems[0] and "实际对不上" in problems[0], problems


def test_a_missing_row_and_an_undeclared_row(ws, tmp_path):
    rows = {k: v for k, v in AGREE.items() if k != "a"}
    rows["extra"] = {"v": [1.0]}
    _, _, problems = run_rows(ws, tmp_path, "rows-gaps", rows)
    assert any("行 a" in p and "没有输出 rows.a" in p for p in problems), problems
    assert any("python 侧输出了表里没有的行 ['extra']" in p for p in problems), problems
    assert len(problems) == 2, problems


def test_the_table_renders_from_the_outputs(ws, tmp_path):
    # Under experiments/: the renderer finds manifests there.
    exp, result, problems = run_rows(ws, tmp_path, "rows-page", AGREE, where="experiments")
    assert problems == []
    from book.cache import entries
    book = scratch_book(ws, tmp_path / "out")
    entries.write_entry(book, exp.id, result["files"])
    text = reference.table(book, exp.id, "形状")
    lines = text.strip().splitlines()
    assert lines[0] == "<div class=\"ref-table\" markdown>" and lines[-1] == "</div>"
    lines = lines[2:-2]
    assert lines[0] == "| PyTorch | burn 0.22.1 | 结果 |" and len(lines) == 4
    assert "相同：形状相同，2 个值逐个相等" in lines[2]
    # The numbers of a row that differs come from the run, after the manifest's words.
    assert "不同：舍入方式不同。<code>rows.b.v</code>[0]：PyTorch 0.75，burn 0.5" in lines[3]
    assert reference.counts(book, exp.id) == {"same": 2, "differs": 1, "none": 0}
    assert reference.topics(book, exp.id) == ["形状", "归约"]
    with pytest.raises(BookError, match="没有 topic 为 '激活'"):
        reference.table(book, exp.id, "激活")
    # Prose that names a row: it renders the row, and stops the build when the verdict moved.
    assert reference.row_line(book, exp.id, "a").startswith("<code>x.reshape(2)</code> → ")
    assert "不同：舍入方式不同" in reference.row_line(book, exp.id, "b", "differs")
    with pytest.raises(BookError, match="表里写的是 differs"):
        reference.row_line(book, exp.id, "b")
    with pytest.raises(BookError, match="没有行 'z'"):
        reference.row_line(book, exp.id, "z")


@pytest.mark.parametrize("rows, words", [
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y", verdict: differs}\n', "how 写明"),
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y"}\n  - {id: a, topic: t, torch: "x", burn: "y"}\n',
     "重复"),
    ('rows:\n  - {id: A-1, topic: t, torch: "x", burn: "y"}\n', "小写字母"),
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y", verdict: maybe}\n', "verdict 只能是"),
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y", colour: red}\n', "不认识的键"),
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y", src: "base.rs"}\n', "src 必须是"),
    ('rows: []\n', "非空的列表"),
    ('rows:\n  - {id: a, topic: t, torch: "x", burn: "y"}\nmutation:\n  field: rows.a.v\n',
     "不用 mutation"),
])
def test_bad_rows_are_refused_with_the_reason(ws, tmp_path, rows, words):
    body = ("python:\n  script: ok.py\nburn:\n  crate: rowcrate\n"
            "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n" + rows)
    path = manifest(ws, "rows-bad", body, where="adhoc")
    with pytest.raises(BookError, match=words):
        load(path, scratch_book(ws))


def test_rows_take_no_fields_of_their_own(ws, tmp_path):
    body = ("python:\n  script: ok.py\nburn:\n  crate: rowcrate\n"
            "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n  fields: [x]\n" + ROWS)
    path = manifest(ws, "rows-fields", body, where="adhoc")
    with pytest.raises(BookError, match="不写 compare.fields"):
        load(path, scratch_book(ws))
