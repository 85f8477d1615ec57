"""The crates `make port` writes for the scan fixtures, as book/commands/port_check.py builds and
checks them: one fixture a commit here, by the rotation's position (`make port-check` runs all
seven); a crate that does not build and a model that gives other numbers each fail the check.
Compiles burn's store feature set once (shared with cap-cnn and port-cnn)."""
import pytest

from book.commands import port_check, reproduce
from book.paths import Book
from scratch import REPO

NAMES = port_check.fixtures()
WHOLE = ["cnn_classifier", "gan", "gpt_lm", "rnn_lm", "vae"]


@pytest.fixture(scope="module")
def book():
    return Book(REPO)


@pytest.fixture(scope="module")
def rules(book):
    from book.commands import port as cmd
    return cmd.rules(book)


def test_this_commits_fixture_builds_and_gives_the_script_numbers(book, rules, tmp_path):
    name = NAMES[reproduce.position(book) % len(NAMES)]
    r = port_check.check_one(book, rules, name, tmp_path)
    print(port_check.line(r))
    assert r["built"], r["log"]
    assert r["whole"] == (name in WHOLE), name
    assert r["ok"], r["log"]
    if r["whole"]:
        assert r["worst"] is not None and r["worst"] < 1e-4, r["log"]


def test_a_crate_that_does_not_build_or_differs_fails_the_check(book, rules, tmp_path):
    out = tmp_path / "cnn"
    port_check.generate(book, rules, "cnn_classifier", out)
    model = out / "src" / "model.rs"
    good = model.read_text(encoding="utf-8")
    assert "Relu::new().forward(" in good
    # Still compiles, computes otherwise: the first relu dropped.
    model.write_text(good.replace("Relu::new().forward(", "(", 1), encoding="utf-8")
    r = port_check.verify(book, out, "cnn")
    assert r["built"] and r["whole"] and not r["ok"], r["log"]
    assert r["worst"] is not None and r["worst"] > 1e-4 and "MISMATCH" in r["log"]
    assert "不一致" in port_check.line(r)
    model.write_text(good.replace("pub struct", "pub strukt", 1), encoding="utf-8")
    r = port_check.verify(book, out, "cnn")
    assert not r["built"] and not r["ok"] and "error" in r["log"]
    assert "没有构建成功" in port_check.line(r)


def test_port_check_names_only_fixtures():
    assert port_check.main(["no_such_script"]) == 2
