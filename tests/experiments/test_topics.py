"""A map experiment laid out by topic: its rows in <manifest>/<topic>.yaml, their modules in the
crate's src/<topic>.rs, their PyTorch functions in <script>/<topic>.py. Each part out of its
topic's file stops the load, named; display text alone leaves the cache key as it was."""
import json
import re
import shutil

import pytest
import yaml

from book.cache import keys
from book.errors import BookError
from book.experiments import files as experiment_files
from book.experiments import regions
from book.experiments import rows as table
from book.experiments.manifest import discover, load, manifests
from book.paths import Book
from scratch import REPO, make_workspace, scratch_book, write, write_crate

OUT = {"a": {"v": [1.0]}, "b": {"v": [2.0]}, "c": {"v": [3]}}


def mod(rid: str, n: int) -> str:
    return f"mod {rid} {{\n    use std::fmt::Debug;\n\n    pub fn run() -> usize {{\n        {n}\n    }}\n}}\n"


MAIN = ("use std::fmt::Write;\n\nmod shape;\nmod reduce;\n\nfn main() {\n    let mut s = String::new();\n"
        "    let _ = write!(s, \"\");\n    shape::rows();\n    reduce::rows();\n"
        '    println!("{}", r#"' + json.dumps({"rows": OUT}) + '"#);\n}\n')
SHAPE_RS = "pub fn rows() {\n    let _ = (a::run(), b::run());\n}\n\n" + mod("a", 0) + "\n" + mod("b", 1)
REDUCE_RS = "pub fn rows() {\n    let _ = c::run();\n}\n\n" + mod("c", 2)
HARNESS = "import json\n\nROWS = {}\n\n\ndef row(fn):\n    ROWS[fn.__name__] = fn\n    return fn\n"
SHAPE_PY = "from harness import *\n\n\n@row\ndef a():\n    return {'v': [1.0]}\n\n\n@row\ndef b():\n    return {'v': [2.0]}\n"
REDUCE_PY = "from harness import *\n\n\n@row\ndef c():\n    return {'v': [3]}\n"
MAIN_PY = "import json\n\nimport harness\nimport shape, reduce\n\nprint(json.dumps({'rows': {k: f() for k, f in harness.ROWS.items()}}))\n"
HEAD = ("id: t-ok\npage: reference\npython:\n  script: tpkg\nburn:\n  crate: topiccrate\n"
        "compare:\n  tol: 1.0e-6\n  why: \"测试\"\ntopics: [shape, reduce]\n")
SHAPE_YAML = """topic: 形状
rows:
  - id: a
    torch: "x.reshape(2)"
    spellings: [Tensor.reshape]
    tol: 0
    how: "相同"
  - id: b
    torch: "x.view(2)"
    spellings: [Tensor.view]
"""
REDUCE_YAML = """topic: 归约
rows:
  - id: c
    torch: "x.argmax()"
    spellings: [Tensor.argmax]
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = make_workspace(tmp_path_factory.mktemp("topics"), crates=("helper",), script_dirs=("experiments",))
    write_crate(root, "topiccrate", MAIN)
    write(root / "crates" / "topiccrate" / "src" / "shape.rs", SHAPE_RS)
    write(root / "crates" / "topiccrate" / "src" / "reduce.rs", REDUCE_RS)
    for name, text in {"__main__": MAIN_PY, "harness": HARNESS, "shape": SHAPE_PY, "reduce": REDUCE_PY}.items():
        write(root / "experiments" / "tpkg" / f"{name}.py", text)
    write(root / "experiments" / "t-ok.yaml", HEAD)
    write(root / "experiments" / "t-ok" / "shape.yaml", SHAPE_YAML)
    write(root / "experiments" / "t-ok" / "reduce.yaml", REDUCE_YAML)
    from scratch import generate_lockfile
    generate_lockfile(root)
    return root


@pytest.fixture
def copy(ws, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ws, root, ignore=shutil.ignore_patterns("target"))
    regions.reset()
    experiment_files.reset()
    return root


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_rows_come_from_their_topic_files_in_order(ws):
    exp = load(ws / "experiments" / "t-ok.yaml", scratch_book(ws))
    assert [(r["id"], r["topic"], r["file"]) for r in exp.rows] == [
        ("a", "形状", "shape"), ("b", "形状", "shape"), ("c", "归约", "reduce")]
    assert exp.rows[2]["code"].startswith("use std::fmt::Debug;")
    assert [p.name for p in exp.row_files] == ["shape.yaml", "reduce.yaml"]
    # A topic file is not a manifest of its own, and the package goes whole into the download.
    assert ws / "experiments" / "t-ok" / "shape.yaml" not in manifests(scratch_book(ws))
    assert [e.id for e in discover(scratch_book(ws)) if e.id.startswith("t-")] == ["t-ok"]
    names = [p.name for p in experiment_files.script_files(scratch_book(ws), exp)]
    assert names[0] == "__main__.py" and sorted(names[1:]) == ["harness.py", "reduce.py", "shape.py"]


def _misplace_module(root):
    edit(root / "crates/topiccrate/src/shape.rs", mod("b", 1), "")
    edit(root / "crates/topiccrate/src/reduce.rs", mod("c", 2), mod("c", 2) + "\n" + mod("b", 1))


def _misplace_function(root):
    edit(root / "experiments/tpkg/shape.py", "\n\n@row\ndef b():\n    return {'v': [2.0]}\n", "\n")
    edit(root / "experiments/tpkg/reduce.py", "return {'v': [3]}\n", "return {'v': [3]}\n\n\n@row\ndef b():\n    return {'v': [2.0]}\n")


@pytest.mark.parametrize("breaks, words", [
    (_misplace_module, "行模块要写在它的主题的文件里：b（在 reduce.rs，应在 shape.rs）"),
    (_misplace_function, "行的函数要写在它的主题的模块里：b（在 reduce.py，应在 shape.py）"),
    (lambda r: write(r / "experiments/t-ok/extra.yaml", REDUCE_YAML), "topics 没有列出的行文件 ['extra.yaml']"),
    (lambda r: (r / "experiments/t-ok/reduce.yaml").unlink(), "没有行文件"),
    (lambda r: edit(r / "experiments/t-ok.yaml", "topics: [shape, reduce]", "topics: [shape, random]"), "标准库"),
    (lambda r: edit(r / "experiments/t-ok/reduce.yaml", "  - id: c\n", "  - id: c\n    topic: 归约\n"), "topic 写在文件头"),
    (lambda r: edit(r / "experiments/t-ok.yaml", "topics:", "rows: [{id: a}]\ntopics:"), "rows 和 topics 只写一个"),
    (lambda r: edit(r / "experiments/t-ok/reduce.yaml", "id: c", "id: a"), "reduce.yaml：rows 第 1 项：id 'a' 重复（shape.yaml 里已有）"),
    (lambda r: edit(r / "experiments/t-ok.yaml", "script: tpkg", "script: tpkg/shape.py"), "python.script 是一个包"),
    (lambda r: (r / "experiments/tpkg/reduce.py").unlink(), "主题 reduce 没有 PyTorch 一侧的模块 tpkg/reduce.py"),
])
def test_a_part_out_of_its_topic_stops_the_load_named(copy, breaks, words):
    breaks(copy)
    with pytest.raises(BookError, match=re.escape(words)):
        load(copy / "experiments" / "t-ok.yaml", scratch_book(copy))


def test_a_src_typo_names_the_topic_file_and_the_row_before_any_run(copy, monkeypatch):
    # The scratch workspace has no burn in its Cargo.lock: look in the book's own burn 0.22.1.
    from book import sources
    version, link = sources.burn_version, sources.link
    monkeypatch.setattr(table.sources, "burn_version", lambda lock: version(Book(REPO).cargo_lock))
    monkeypatch.setattr(table.sources, "link", lambda book, path, sym: link(Book(REPO), path, sym))
    edit(copy / "experiments/t-ok/reduce.yaml", "    spellings: [Tensor.argmax]\n",
         "    spellings: [Tensor.argmax]\n    src: [burn-tensor/src/tensor/api/base.rs, no_such_symbol_here]\n")
    with pytest.raises(BookError, match=re.escape("t-ok/reduce.yaml：行 c：src")):
        load(copy / "experiments" / "t-ok.yaml", scratch_book(copy))


def _key(root):
    book = scratch_book(root)
    return keys.inputs(load(root / "experiments" / "t-ok.yaml", book), book)["key"]


@pytest.mark.parametrize("path, old, new, reruns", [
    ("experiments/t-ok/shape.yaml", 'how: "相同"', 'how: "两边相同，逐位"', False),
    ("experiments/t-ok/shape.yaml", "spellings: [Tensor.view]", "spellings: [Tensor.view, torch.view]", False),
    ("experiments/t-ok/shape.yaml", "topic: 形状", "topic: 形状与视图", False),
    ("experiments/t-ok/shape.yaml", "    tol: 0\n", "    tol: 0\n    pitfall: 10-pitfalls/p\n", False),
    ("experiments/t-ok.yaml", "id: t-ok\n", "id: t-ok\nabout: \"说明改了\"\n", False),
    ("experiments/t-ok/shape.yaml", "tol: 0", "tol: 1.0e-3", True),
    ("experiments/t-ok/shape.yaml", 'torch: "x.view(2)"', 'torch: "x.view(-1)"', True),
    ("experiments/t-ok/reduce.yaml", "spellings: [Tensor.argmax]", "spellings: [Tensor.argmax]\n    verdict: none", True),
    ("experiments/t-ok.yaml", "tol: 1.0e-6", "tol: 1.0e-5", True),
    ("experiments/tpkg/reduce.py", "[3]", "[4]", True),
    ("crates/topiccrate/src/reduce.rs", "        2\n", "        3\n", True),
])
def test_display_text_reruns_nothing_and_what_a_run_reads_does(copy, path, old, new, reruns):
    if "pitfall" in new:
        write(copy / "docs" / "10-pitfalls" / "p.md", "---\nkind: pitfall\n---\n\n# 坑\n")
    before = _key(copy)
    edit(copy / path, old, new)
    regions.reset()
    experiment_files.reset()
    assert (_key(copy) != before) == reruns


def test_the_books_map_is_laid_out_by_topic_one_key_a_line():
    """Every map experiment of the book has topics, and each row is a block mapping: a review
    diff of a one-word change is one short line."""
    book = Book(REPO)
    maps = [e for e in discover(book) if e.rows]
    assert len(maps) >= 8
    for e in maps:
        assert e.topics, f"{e.id}：对照表要按主题分文件（topics:）"
        for f in e.row_files:
            node = yaml.compose(f.read_text(encoding="utf-8"))
            rows = dict((k.value, v) for k, v in node.value)["rows"]
            flow = [i for i, r in enumerate(rows.value) if r.flow_style]
            assert not flow, f"{f.relative_to(REPO)}：第 {flow} 项写成了一行的 {{…}}，要一个键一行"
