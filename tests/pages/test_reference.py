"""Table-driven experiments (`rows:`, the torch → burn map): each row's verdict holds both ways
on real runs, the manifest's rows are checked, and the table renders from the outputs."""
import json
import re

import pytest

from book.pages import reference
from book.pipeline.build import run_and_compare
from book.experiments.manifest import load
from book.errors import BookError
from scratch import make_workspace, manifest, scratch_book, write, write_crate

# The burn side of every test: three rows, each its own module (the code the table shows), and a
# main that prints their outputs. The PyTorch scripts below agree or not with it.
BURN_ROWS = {"a": {"v": [1.0, 2.0], "shape": [2]}, "b": {"v": [0.5]}, "c": {"v": [3]}}
MODS = {rid: f"mod {rid} {{\n    use std::fmt::Debug;\n\n    pub fn run() -> usize {{\n        {i}\n    }}\n}}\n"
        for i, rid in enumerate("abc")}
RUST = ("".join(MODS.values()) + 'fn main() {\n    let _ = (a::run(), b::run(), c::run());\n'
        '    println!("{}", r#"' + json.dumps({"rows": BURN_ROWS}) + '"#);\n}\n')


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
  - {id: a, topic: 形状, torch: "x.reshape(2)", spellings: [Tensor.reshape, torch.reshape], tol: 0}
  - {id: b, topic: 形状, torch: "x.half()", spellings: [Tensor.half], verdict: differs, how: "舍入方式不同", fix: a}
  - {id: c, topic: 归约, torch: "x.argmax()", spellings: [Tensor.argmax, torch.argmax]}
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
    assert lines[0] == '<table class="ref-table">' and lines[-1] == "</tbody></table>"
    rows = lines[2:-1]
    assert len(rows) == 2 and rows[0].startswith('<tr id="page-a" data-verdict="same">')
    # The burn cell is the row's module, whole and escaped; the spellings sit under the torch code.
    assert '<pre class="ref-code"><code>use std::fmt::Debug;&#10;&#10;pub fn run() -&gt; usize {' in rows[0]
    assert "<code>Tensor.reshape</code> <code>torch.reshape</code>" in rows[0]
    assert "相同：形状相同，输出 2 个值，逐个相等" in rows[0]
    # The numbers of a row that differs come from the run; the manifest's words and the fix follow.
    assert "不同：输出第 0 个：PyTorch 0.75，burn 0.5，差 2.50e-01（容差 1e-06）" in rows[1]
    assert '<p class="ref-how">舍入方式不同</p>' in rows[1]
    assert '改法（<a href="#page-a">它自己的一行</a>，相同：' in rows[1]
    assert "rows.b" not in text and "differ" not in text.replace("data-verdict=\"differs\"", "")
    assert reference.counts(book, exp.id) == {"same": 2, "differs": 1, "none": 0}
    assert reference.topics(book, exp.id) == ["形状", "归约"]
    with pytest.raises(BookError, match="没有 topic 为 '激活'"):
        reference.table(book, exp.id, "激活")
    # Prose that names a row: it renders the row, and stops the build when the verdict moved.
    assert reference.row_line(book, exp.id, "a", page="10-pitfalls/x.md").startswith(
        "<code>x.reshape(2)</code> → [burn 的写法](../reference.md#page-a)：相同")
    assert "不同：舍入方式不同" in reference.row_line(book, exp.id, "b", "differs")
    with pytest.raises(BookError, match="表里写的是 differs"):
        reference.row_line(book, exp.id, "b")
    with pytest.raises(BookError, match="没有行 'z'"):
        reference.row_line(book, exp.id, "z")


A = "{id: a, topic: t, torch: \"x\", spellings: [Tensor.x]"
B = "{id: b, topic: t, torch: \"x\", spellings: [Tensor.x]"
C = "{id: c, topic: t, torch: \"x\", spellings: [Tensor.x]"


@pytest.mark.parametrize("rows, words", [
    (f"rows:\n  - {A}, verdict: differs}}\n  - {B}}}\n  - {C}}}\n", "how 写明"),
    (f"rows:\n  - {A}}}\n  - {A}}}\n", "重复"),
    ('rows:\n  - {id: A-1, topic: t, torch: "x", spellings: [Tensor.x]}\n', "小写字母"),
    (f"rows:\n  - {A}, verdict: maybe}}\n  - {B}}}\n  - {C}}}\n", "verdict 只能是"),
    (f"rows:\n  - {A}, colour: red}}\n  - {B}}}\n  - {C}}}\n", "不认识的键"),
    (f"rows:\n  - {A}, src: \"base.rs\"}}\n  - {B}}}\n  - {C}}}\n", "src 必须是"),
    ('rows: []\n', "非空的列表"),
    (f"rows:\n  - {A}}}\n  - {B}}}\n  - {C}}}\nmutation:\n  field: rows.a.v\n", "不用 mutation"),
    # The burn code is the crate's module, never retyped in the manifest.
    (f"rows:\n  - {A}, burn: \"y\"}}\n  - {B}}}\n  - {C}}}\n", "不再写 burn"),
    # Every row has a module and every module a row.
    (f"rows:\n  - {A}}}\n  - {B}}}\n", "没有行的模块 ['c']"),
    (f"rows:\n  - {A}}}\n  - {B}}}\n  - {C}}}\n  - {{id: d, topic: t, torch: \"x\", spellings: [Tensor.x]}}\n",
     "没有模块的行 ['d']"),
    ('rows:\n  - {id: a, topic: t, torch: "x"}\n  - ' + B + "}\n  - " + C + "}\n", "缺 spellings"),
    (f"rows:\n  - {{id: a, topic: t, torch: \"x\", spellings: [x.reshape]}}\n  - {B}}}\n  - {C}}}\n",
     "spellings 必须是"),
    # A difference comes with a fix that runs; the fix is a row that matches.
    (f"rows:\n  - {A}, verdict: differs, how: \"不同\"}}\n  - {B}}}\n  - {C}}}\n", "要用 fix:"),
    (f"rows:\n  - {A}, verdict: differs, how: \"不同\", fix: b}}\n  - {B}, verdict: differs, how: \"不同\", fix: c}}\n"
     f"  - {C}}}\n", "fix: 'b' 要指向"),
    (f"rows:\n  - {A}, verdict: none, how: \"见上一行\"}}\n  - {B}}}\n  - {C}}}\n", "上一行"),
])
def test_bad_rows_are_refused_with_the_reason(ws, tmp_path, rows, words):
    body = ("python:\n  script: ok.py\nburn:\n  crate: rowcrate\n"
            "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n" + rows)
    path = manifest(ws, "rows-bad", body, where="adhoc")
    with pytest.raises(BookError, match=re.escape(words)):
        load(path, scratch_book(ws))


def test_a_src_burn_lacks_stops_the_load_before_any_run(ws, monkeypatch):
    # The scratch workspace has no burn in its Cargo.lock: look in the book's own burn 0.22.1.
    from book.experiments import rows as mf
    from book.paths import Book
    from book import sources
    from scratch import REPO
    version, link = sources.burn_version, sources.link
    monkeypatch.setattr(mf.sources, "burn_version", lambda lock: version(Book(REPO).cargo_lock))
    monkeypatch.setattr(mf.sources, "link", lambda book, path, sym: link(Book(REPO), path, sym))
    good = f"rows:\n  - {A}, src: [burn-tensor/src/tensor/api/base.rs, unsqueeze]}}\n  - {B}}}\n  - {C}}}\n"
    body = "python:\n  script: ok.py\nburn:\n  crate: rowcrate\ncompare:\n  tol: 1.0e-6\n  why: \"测试\"\n"
    load(manifest(ws, "rows-src", body + good, where="adhoc"), scratch_book(ws))
    bad = good.replace("unsqueeze", "no_such_symbol_here")
    with pytest.raises(BookError, match=re.escape("rows-src.yaml：行 a：src ['burn-tensor/src/tensor/api/base.rs', "
                                                  "'no_such_symbol_here']：burn 0.22.1 的 burn-tensor/src/tensor/api/base.rs 里找不到符号")):
        load(manifest(ws, "rows-src", body + bad, where="adhoc"), scratch_book(ws))


def test_rows_take_no_fields_of_their_own(ws, tmp_path):
    body = ("python:\n  script: ok.py\nburn:\n  crate: rowcrate\n"
            "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n  fields: [x]\n" + ROWS)
    path = manifest(ws, "rows-fields", body, where="adhoc")
    with pytest.raises(BookError, match="不写 compare.fields"):
        load(path, scratch_book(ws))


@pytest.mark.parametrize("rust, words", [
    (RUST.replace("    use std::fmt::Debug;\n", "", 1), "mod a 没有 use 行"),
    (RUST.replace("        0\n", "        super::b::run()\n", 1), "mod a 用了 super:: 或 crate::"),
    ("macro_rules! m { () => {} }\n" + RUST, "行模块之外有 'macro_rules!'"),
    (RUST.replace("mod a {\n    use", "mod a {\nuse", 1), "缩进 4 个空格"),
])
def test_a_module_that_would_not_compile_alone_is_refused(ws, tmp_path, rust, words):
    """What a module could take from its crate without saying so stops discovery, named."""
    root = make_workspace(tmp_path / "m", crates=("helper",), script_dirs=("adhoc",))
    write_crate(root, "rowcrate", rust)
    write(root / "adhoc" / "ok.py", "print(1)\n")
    path = manifest(root, "rows-mod", "python:\n  script: ok.py\nburn:\n  crate: rowcrate\n"
                    "compare:\n  tol: 1.0e-6\n  why: \"测试\"\n" + ROWS, where="adhoc")
    with pytest.raises(BookError, match=re.escape(words)):
        load(path, scratch_book(root))


# --------------------------------------------------------------------------- the map as a reader uses it

PIT_ROWS = ROWS.replace("tol: 0}", "tol: 0, pitfall: 10-pitfalls/p}").replace(
    "fix: a}", "fix: a, pitfall: 10-pitfalls/p}")
PIT_PAGE = "---\nkind: pitfall\n---\n\n# `x.half()` 的坑：舍入\n\n## PyTorch 的写法\n"


def test_rows_link_their_pitfall_page_their_program_and_back(ws, tmp_path):
    write(ws / "docs" / "10-pitfalls" / "p.md", PIT_PAGE)
    write(ws / "docs" / "10-pitfalls" / "q.md", PIT_PAGE)
    exp, result, problems = run_rows(ws, tmp_path, "rows-pit", AGREE, rows=PIT_ROWS, where="experiments")
    assert problems == []
    from book.cache import entries
    book = scratch_book(ws, tmp_path / "out")
    entries.write_entry(book, exp.id, result["files"])
    a, b = reference.table(book, exp.id, "形状").strip().splitlines()[2:-1]
    title = '<a href="../10-pitfalls/p/"><code>x.half()</code> 的坑：舍入</a></p>'
    # A 「相同」 row with a pitfall says that its call has a trap elsewhere; a 「不同」 row names
    # the page that explains the difference.
    assert f'<p class="ref-pit" data-search-exclude="">这一行相同，但相关的写法有坑：{title}' in a
    assert f'<p class="ref-pit" data-search-exclude="">讲这个差别的坑：{title}' in b
    for row in (a, b):
        assert ('<span class="ref-progs" data-search-exclude=""><a class="ref-prog" href="../downloads/rows-pit.tar.gz">完整程序</a>'
                '<a class="ref-dl" href="../downloads/rows-pit.tar.gz" download>下载 rows-pit.tar.gz</a>') in row
    # The 改法 block has an id of its own: Material names a code block after its closest id.
    assert '<div class="ref-fix" id="fix-pit-b">' in b
    assert reference.pitfall_pages(book, exp.id) == ["10-pitfalls/p"]
    # The page links back to every row that names it, as a line of prose each.
    back = reference.backlinks(book, "10-pitfalls/p.md").splitlines()
    assert back[0] == "对照表里和这一页有关的行：" and len(back) == 4
    assert back[2].startswith("- <code>x.reshape(2)</code> → [burn 的写法](../reference.md#pit-a)：相同")
    assert back[3].startswith("- <code>x.half()</code> → [burn 的写法](../reference.md#pit-b)：不同：舍入方式不同")
    with pytest.raises(BookError, match="没有一行的 pitfall: 是 10-pitfalls/q"):
        reference.backlinks(book, "10-pitfalls/q.md")
    # The filter says how many rows each choice shows, from the run.
    bar = reference.filter_bar(book, exp.id)
    shown = dict(re.findall(r'value="(\w+)"[^>]*>[^<]*<span class="ref-n">(\d+)</span>', bar))
    assert shown == {"all": "3", "differs": "1", "none": "0", "both": "1"}
    assert bar.count(" hidden ") == 1 and 'value="all" checked' in bar
    # A title the map cannot show (a macro in it) stops the build, named.
    write(ws / "docs" / "10-pitfalls" / "p.md", PIT_PAGE.replace("舍入", "{{ value('x', 'y') }}"))
    with pytest.raises(BookError, match="一级标题里有宏"):
        reference.table(book, exp.id, "形状")


@pytest.mark.parametrize("value, words", [
    ("10-pitfalls/p.md", "不带 .md"),
    ("10-pitfalls/gone", "页面不存在：docs/10-pitfalls/gone.md"),
    ("guide", "不是坑页"),
    ("[10-pitfalls/p]", "pitfall 要写 docs 下的页面"),
])
def test_a_pitfall_that_is_not_a_pitfall_page_is_refused(ws, value, words):
    write(ws / "docs" / "10-pitfalls" / "p.md", PIT_PAGE)
    write(ws / "docs" / "guide.md", "---\nkind: content\n---\n\n# 指南\n")
    body = ("python:\n  script: ok.py\nburn:\n  crate: rowcrate\ncompare:\n  tol: 1.0e-6\n  why: \"测试\"\n"
            + ROWS.replace("tol: 0}", f"tol: 0, pitfall: {value}}}"))
    path = manifest(ws, "rows-badpit", body, where="adhoc")
    with pytest.raises(BookError, match=re.escape(words)):
        load(path, scratch_book(ws))


def test_code_breaks_only_between_tokens():
    """The text stays what it was; the pieces are whole names, calls, quoted strings."""
    import html as html_mod
    cases = {
        "opt.load_state_dict(torch.load('ckpt.pt')['optimizer'])  # 多余的键 < 2":
            ["opt.load_state_dict(", "torch.load(", "'ckpt.pt')[", "'optimizer'])"],
        "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts":
            ["torch.optim", ".lr_scheduler", ".CosineAnnealingWarmRestarts"],
        "Adam(p, lr=1e-3)": ["lr=1e-3)"],  # a hyphen inside: one piece, never broken after the -
    }
    for text, pieces in cases.items():
        out = reference._breakable(text)
        assert html_mod.unescape(re.sub(r"<[^>]+>", "", out)) == text
        assert [html_mod.unescape(p) for p in re.findall(r'<span class="tk">(.*?)</span>', out)] == pieces
    assert reference._breakable("x.sum(dim=1)") == "x.sum(dim=1)"  # short: left alone


def test_the_map_links_downloads_where_the_site_puts_them():
    from book.site.downloads import package
    assert reference.DOWNLOADS == package.DIR
    assert reference._href("reference", "downloads/ref-3-nn.tar.gz") == "../downloads/ref-3-nn.tar.gz"
    assert reference._href("reference", "10-pitfalls/batchnorm") == "../10-pitfalls/batchnorm/"


def test_every_pitfall_page_a_row_names_links_back():
    """Over the real book, from the sources: a page named by a row's pitfall: calls
    reference_backlinks() (which lists those rows), and no other page calls it."""
    from book.paths import Book
    from book.pages.programs import manifest as exp_manifest
    from scratch import REPO
    book = Book(REPO)
    named = {r["pitfall"] for e in reference.experiments(book) for r in exp_manifest(book, e).rows
             if r.get("pitfall")}
    calling = {p.relative_to(REPO / "docs").with_suffix("").as_posix()
               for p in (REPO / "docs").rglob("*.md") if "reference_backlinks()" in p.read_text("utf-8")}
    assert named == calling
    assert len(named) >= 15
