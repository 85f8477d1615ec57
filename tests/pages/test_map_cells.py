"""The burn cell of every row of the torch → burn map is the code that ran, shown complete, and
it compiles as a reader copies it: each cell, taken from the rendered table, is pasted alone
(its use lines and its code, nothing else of the crate) into a scratch copy of the row's crate
and built with the row's features in the book's target dir."""
import html
import os
import re
import shutil

import pytest

from book.commands import reproduce
from book.experiments import regions
from book.experiments.manifest import discover
from book.pages import reference
from book.paths import Book
from scratch import E2E_IDS, REPO, run_bounded

BOOK = Book(REPO)
EXPS = {e.id: e for e in discover(BOOK)}
MAP = reference.experiments(BOOK)
ROW_RE = re.compile(r'<tr id="([^"]+)"[^>]*><td>.*?</td><td>(?:<details[^>]*><summary>.*?</summary>)?'
                    r'<pre class="ref-code"><code>(.*?)</code></pre>')
CJK_RE = re.compile(r"[\u3400-\u9fff]")


def shown(exp_id: str) -> dict:
    """{row id: the burn cell's text as the page shows it}, read back from the rendered table."""
    out = {}
    prefix = reference.anchor(exp_id, "")
    for topic in reference.topics(BOOK, exp_id):
        for line in reference.table(BOOK, exp_id, topic).splitlines():
            m = ROW_RE.match(line)
            if m:
                out[m.group(1).removeprefix(prefix)] = html.unescape(m.group(2))
    return out


@pytest.mark.parametrize("exp_id", MAP)
def test_every_cell_is_its_module_shown_whole(exp_id):
    exp = EXPS[exp_id]
    mods = regions.row_modules(BOOK.crates / exp.burn["crate"] / "src")
    cells = shown(exp_id)
    assert sorted(cells) == sorted(r["id"] for r in exp.rows)
    for rid, text in cells.items():
        assert text == mods[rid], f"{exp_id}/{rid}：页面上的代码和 crate 里的 mod {rid} 不同"
        assert text.startswith("use "), f"{exp_id}/{rid}：格子不以 use 行开头"
        code = "\n".join(line.split("//")[0] for line in text.splitlines())
        assert "…" not in code and "(..)" not in code, f"{exp_id}/{rid}：格子里有省略"
        assert not CJK_RE.search(code), f"{exp_id}/{rid}：格子里有注释以外的中文（散文放进 how）"


def test_every_row_has_a_unique_anchor():
    anchors = reference.anchors(BOOK)
    assert len(anchors) == sum(len(EXPS[e].rows) for e in MAP) >= 490


def scratch_crate(ws, exp_id: str, cells: dict) -> str:
    """A copy of the row's crate whose main.rs is the cells alone, one module each."""
    exp = EXPS[exp_id]
    name = f"cells-{exp_id}"
    d = ws / "crates" / name
    (d / "src").mkdir(parents=True)
    toml = (BOOK.crates / exp.burn["crate"] / "Cargo.toml").read_text(encoding="utf-8")
    (d / "Cargo.toml").write_text(toml.replace(f'name = "{exp.burn["crate"]}"', f'name = "{name}"'),
                                  encoding="utf-8")
    body = ["#![allow(dead_code, unused_imports, unused_variables, unused_mut)]"]
    for rid, text in cells.items():
        body.append(f"mod row_{rid} {{\n" + "".join(f"    {l}\n" if l else "\n" for l in text.splitlines())
                    + "}")
    body.append("fn main() {}\n")
    (d / "src" / "main.rs").write_text("\n".join(body), encoding="utf-8")
    return name


def workspace(tmp_path):
    ws = tmp_path / "ws"
    (ws / "crates").mkdir(parents=True)
    shutil.copy(REPO / "Cargo.toml", ws / "Cargo.toml")
    shutil.copy(REPO / "Cargo.lock", ws / "Cargo.lock")
    return ws


def build(ws, name: str):
    env = dict(os.environ, CARGO_TARGET_DIR=str(BOOK.target), CARGO_TERM_COLOR="never")
    return run_bounded(["cargo", "build", "--release", "--offline", "-p", name], cwd=ws, env=env,
                       capture_output=True, text=True)


# The suite compiles burn once, with the fixed experiments' features (test_rotation.py): the
# cells of every map experiment built with that very variant are built here at no extra
# compile. The others (dataset, store, linalg features) hold by construction: regions.py
# refuses super::, crate:: and crate-wide macros, so a module sees nothing of its crate.
SUITE = reproduce.suite_signatures(BOOK, E2E_IDS, EXPS)
CHEAP = [e for e in MAP if reproduce.build_signature(BOOK, EXPS[e]) in SUITE]


def test_most_of_the_map_is_built_cheaply():
    rows = sum(len(EXPS[e].rows) for e in CHEAP)
    assert rows * 2 > sum(len(EXPS[e].rows) for e in MAP), CHEAP


@pytest.mark.parametrize("exp_id", CHEAP)
def test_the_cells_compile_pasted_alone(tmp_path, exp_id):
    ws = workspace(tmp_path)
    p = build(ws, scratch_crate(ws, exp_id, shown(exp_id)))
    assert p.returncode == 0, f"{exp_id}：单独粘贴的格子编译不过：\n{p.stderr[-4000:]}"


def test_a_cell_without_its_use_lines_does_not_compile(tmp_path):
    """The build above can fail: the first cell of the tensor rows with its use lines dropped."""
    exp_id = CHEAP[0]
    cells = shown(exp_id)
    rid = next(iter(cells))
    cells = {rid: regions.split_uses(cells[rid])[1]}
    ws = workspace(tmp_path)
    p = build(ws, scratch_crate(ws, exp_id, cells))
    assert p.returncode != 0 and "cannot find type `Tensor` in this scope" in p.stderr, p.stderr[-2000:]
