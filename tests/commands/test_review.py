"""make diff: build_outputs/ changes against a git ref, sorted the way a reviewer reads them."""
import json
import subprocess

import pytest

from book.commands import review
from book.errors import BookError
from book.paths import Book


def outcome(py="ok", burn="ok", worst=1e-7, ok=True, burn_expect="ok"):
    return json.dumps({
        "python": {"expected": {"kind": "ok"}, "actual": {"status": py}},
        "burn": {"expected": {"kind": burn_expect}, "actual": {"status": burn}},
        "compare": {"expected": "match", "ok": ok, "worst": worst, "tol": 1e-6},
    }, indent=1)


ENTRY = {"outcome.json": outcome(), "burn.json": '{"x": 1.0}\n', "inputs.json": '{"key": "a"}\n',
         "volatile.json": '{"ran_at": "t1"}\n'}


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    for exp_id in ("a", "b", "c", "d", "e", "gone"):
        d = root / "build_outputs" / exp_id
        d.mkdir(parents=True)
        for name, text in ENTRY.items():
            (d / name).write_text(text)
    git(root, "init", "-q")
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "base")
    return Book(root=root)


def put(book, exp_id, name, text):
    d = book.outputs / exp_id
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_text(text)


def test_each_kind_of_change_lands_in_its_category(repo):
    put(repo, "a", "outcome.json", outcome(burn="panic", ok=True))        # burn now panics
    put(repo, "b", "outcome.json", outcome(worst=3e-7))                   # worst moved
    put(repo, "c", "burn.json", '{"x": 1.5}\n')                           # printed value changed
    put(repo, "d", "inputs.json", '{"key": "b"}\n')                       # engine/toolchain key only
    put(repo, "d", "volatile.json", '{"ran_at": "t2"}\n')
    put(repo, "e", "volatile.json", '{"ran_at": "t2"}\n')                 # only a timing
    put(repo, "new", "outcome.json", outcome())
    import shutil
    shutil.rmtree(repo.outputs / "gone")
    found = review.review(repo, "HEAD")
    assert {k: [i for i, _ in v] for k, v in found.items() if v} == {
        "added": ["new"], "removed": ["gone"], "outcome": ["a"], "worst": ["b"], "text": ["c"],
        "inputs": ["d"]}
    assert found["outcome"][0][1] == ["burn：ok → panic"]
    assert found["worst"][0][1] == ["1.000e-07 → 3.000e-07"]
    assert found["text"][0][1] == ["burn.json"]
    text = review.render(found, "HEAD")
    assert "e" not in [ln[2:] for ln in text.splitlines() if ln.startswith("- ")]
    assert "只有计时变了" not in text
    shown = review.review(repo, "HEAD", show_volatile=True)
    assert shown["volatile"] == [("e", ["volatile.json"])]


def test_an_expected_failure_that_changed_is_an_outcome_change(repo):
    put(repo, "a", "outcome.json", outcome(burn="panic", burn_expect="panic"))
    put(repo, "b", "outcome.json", outcome(ok=False, worst=1e-3))
    found = review.review(repo, "HEAD")
    assert found["outcome"] == [("a", ["burn：ok → panic"]), ("b", ["比较：OK → MISMATCH"])]


def test_nothing_changed_says_so(repo):
    put(repo, "e", "volatile.json", '{"ran_at": "t9"}\n')
    text = review.render(review.review(repo, "HEAD"), "HEAD")
    assert "没有变化" in text and "--volatile" in text


def test_unknown_ref_is_named(repo):
    with pytest.raises(BookError, match="no-such-branch"):
        review.review(repo, "no-such-branch")


def test_cli_exit_codes(repo, monkeypatch, capsys):
    monkeypatch.setattr(review, "Book", lambda: repo)
    assert review.main(["HEAD"]) == 0
    assert review.main(["nope"]) == 2
    assert "nope" in capsys.readouterr().err


def test_the_markdown_summary_shows_each_kind_of_change(repo):
    """What a pull request's job summary shows: a count for each category, then each
    experiment under its category with what changed."""
    put(repo, "a", "outcome.json", outcome(burn="panic", ok=True))
    put(repo, "b", "outcome.json", outcome(worst=3e-7))
    put(repo, "c", "burn.json", '{"x": 1.5}\n')
    put(repo, "d", "inputs.json", '{"key": "b"}\n')
    put(repo, "e", "volatile.json", '{"ran_at": "t2"}\n')
    put(repo, "new", "outcome.json", outcome())
    md = review.render_markdown(review.review(repo, "HEAD"), "origin/main")
    lines = md.splitlines()
    assert lines[0] == "### build_outputs/ 与 `origin/main` 相比"
    for cat, n in (("added", 1), ("outcome", 1), ("worst", 1), ("text", 1), ("inputs", 1)):
        assert f"| {review.TITLES[cat]} | {n} |" in lines
        assert f"#### {review.TITLES[cat]}（{n}）" in lines
    assert "- `a`：burn：ok → panic" in lines
    assert "- `b`：1.000e-07 → 3.000e-07" in lines
    assert "- `c`：burn.json" in lines and "- `d`：inputs.json" in lines and "- `new`" in lines
    assert "`e`" not in md  # a timing alone is not a change
    assert "没有变化" in review.render_markdown({k: [] for k in review.ORDER}, "x")


def test_committed_fails_listing_entries_the_commit_did_not_regenerate(repo, monkeypatch, capsys):
    monkeypatch.setattr(review, "Book", lambda: repo)
    put(repo, "e", "volatile.json", '{"ran_at": "t2"}\n')  # a rerun's timings alone: fine
    assert review.main(["--committed"]) == 0
    put(repo, "d", "inputs.json", '{"key": "b"}\n')
    assert review.main(["--committed"]) == 1
    err = capsys.readouterr().err
    assert "- d（只有输入变了（输出逐字节相同））" in err and "make site" in err
