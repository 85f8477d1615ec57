"""The port-cnn experiment (docs/port.md) is the port generator's own output: crates/port-cnn's
src/model.rs and src/main.rs are what `make port` writes for tests/scan/fixtures/cnn_classifier.py
with SITE_URL unset, experiments/port/cnn_classifier.py is that script, and crates/port-cnn/data/
holds what the generated check.py writes (experiments/port/make_port_data.py makes all of them).
A change to the generator (docs/assets/port.js, book/port/) that is not carried into the
experiment fails here, with the command that regenerates it."""
import difflib
import importlib.util
import shutil

import pytest

from book.commands import port as cmd
from book.paths import Book
from book.port import rules as port_rules
from scratch import REPO

MAKER = REPO / "experiments" / "port" / "make_port_data.py"
REGENERATE = (".venv/bin/python experiments/port/make_port_data.py && "
              ".venv/bin/python -m book.commands.runner build port-cnn")


def _maker():
    spec = importlib.util.spec_from_file_location("make_port_data", MAKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def maker():
    return _maker()


@pytest.fixture(scope="module")
def rules() -> dict:
    # What `make port` builds with SITE_URL unset.
    return port_rules.build(Book(REPO), cmd.DEFAULT_SITE)


@pytest.fixture(scope="module")
def expected(maker, rules) -> dict:
    return maker.everything(Book(REPO), rules)


def stale(root, want: dict) -> list[str]:
    """What under root is not what the generator writes: one entry a file, with a diff for text."""
    out = []
    for rel, data in sorted(want.items()):
        path = root / rel
        have = path.read_bytes() if path.is_file() else None
        if have == data:
            continue
        if have is None:
            out.append(f"{rel}：没有这个文件")
        elif rel.endswith((".rs", ".py")):
            diff = difflib.unified_diff(have.decode("utf-8").splitlines(), data.decode("utf-8").splitlines(),
                                        f"{rel}（提交的）", f"{rel}（生成器现在写的）", n=1, lineterm="")
            out.append("\n".join(list(diff)[:40]))
        else:
            out.append(f"{rel}：和生成的 check.py 现在写出的字节不同")
    return out


def message(problems: list[str]) -> str:
    return ("port-cnn 实验不是移植生成器现在写出的（生成器改了，实验没有跟着重新生成）：\n\n"
            + "\n\n".join(problems)
            + f"\n\n重新生成并重跑实验：{REGENERATE}\n然后把这些文件、build_outputs/port-cnn/ 一起提交。")


def test_the_experiment_is_what_the_generator_writes_now(expected):
    assert sorted(expected) == sorted(["crates/port-cnn/src/model.rs", "crates/port-cnn/src/main.rs",
                                       "experiments/port/cnn_classifier.py",
                                       "crates/port-cnn/data/weights.pt", "crates/port-cnn/data/input.json"])
    problems = stale(REPO, expected)
    assert problems == [], message(problems)


def test_the_script_is_the_scan_fixture(expected):
    fixture = (REPO / "tests" / "scan" / "fixtures" / "cnn_classifier.py").read_bytes()
    assert expected["experiments/port/cnn_classifier.py"] == fixture


def _regenerated_copy(tmp_path, expected):
    """A copy of the experiment's files as the generator writes them now."""
    for rel in ("crates/port-cnn", "experiments/port"):
        shutil.copytree(REPO / rel, tmp_path / rel)
    for rel, data in expected.items():
        (tmp_path / rel).write_bytes(data)
    assert stale(tmp_path, expected) == []
    return tmp_path


def test_a_generator_change_not_regenerated_fails_and_says_how(maker, rules, expected, tmp_path, monkeypatch):
    # A real change to a copy of the generator: every struct derives Clone as well.
    js = cmd.GENERATOR.read_text(encoding="utf-8")
    old = "'#[derive(Module, Debug)]'"
    assert js.count(old) == 1, "the generator no longer writes its derive line this way: pick another change"
    changed = tmp_path / "port.js"
    changed.write_text(js.replace(old, "'#[derive(Module, Debug, Clone)]'"), encoding="utf-8")
    monkeypatch.setattr(cmd, "GENERATOR", changed)
    files = maker.generated(Book(REPO), rules)
    want = {here: files[there].encode("utf-8") for there, here in maker.TAKEN.items()}
    assert want["crates/port-cnn/src/model.rs"] != expected["crates/port-cnn/src/model.rs"]

    committed = _regenerated_copy(tmp_path / "repo", expected)
    problems = stale(committed, want)
    assert len(problems) == 1 and "crates/port-cnn/src/model.rs" in problems[0], problems
    assert "+#[derive(Module, Debug, Clone)]" in problems[0]
    text = message(problems)
    assert REGENERATE in text and "make_port_data.py" in text
    # Regenerating (writing what the changed generator writes) makes it hold again.
    for rel, data in want.items():
        (committed / rel).write_bytes(data)
    assert stale(committed, want) == []


def test_a_hand_edited_crate_fails_too(expected, tmp_path):
    committed = _regenerated_copy(tmp_path, expected)
    model = committed / "crates" / "port-cnn" / "src" / "model.rs"
    model.write_text(model.read_text(encoding="utf-8").replace("pub fc: Linear,", "pub fc: Linear, // mine"),
                     encoding="utf-8")
    data = committed / "crates" / "port-cnn" / "data" / "input.json"
    data.write_bytes(data.read_bytes().replace(b"[2, 3, 32, 32]", b"[2, 3, 32, 32] "))
    problems = stale(committed, expected)
    assert [p.splitlines()[0].split("：")[0].split("（")[0].removeprefix("--- ") for p in problems] == [
        "crates/port-cnn/data/input.json", "crates/port-cnn/src/model.rs"], problems
