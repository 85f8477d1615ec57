"""make drift: version pins, the per-experiment comparison, source links and the report page."""
import json

import pytest

from book.experiments.manifest import discover
from book.commands import drift
from book.pages import drift_report
from book import sources
from book.errors import BookError
from book.paths import Book
from scratch import make_workspace, manifest, scratch_book, write

ROOT_TOML = '''[workspace.dependencies]
burn = { version = "=0.22.1", default-features = false }
burn-store = { version = "=0.22.1", default-features = false }
burn-onnx = "=0.22.0"
'''


def test_pin_versions_moves_burn_and_its_companions():
    out = drift.pin_versions(ROOT_TOML, "0.23.0-pre.1", "0.23.0-pre.1")
    assert out.count('"=0.23.0-pre.1"') == 3 and "0.22" not in out
    kept = drift.pin_versions(ROOT_TOML, "0.22.0", None)
    assert 'burn-onnx = "=0.22.0"' in kept and 'burn = { version = "=0.22.0"' in kept


def test_pin_versions_names_a_missing_pin():
    with pytest.raises(BookError, match="burn-store"):
        drift.pin_versions('burn = "=0.22.1"\n', "0.23.0", None)


def test_cli_needs_a_version(capsys):
    assert drift.main([]) == 2
    assert "BURN" in capsys.readouterr().err


def outcome(burn_status="panic", burn_expect="panic", worst=None, ok=True):
    o = {"burn": {"expected": {"kind": burn_expect, **({"value": "boom"} if burn_expect == "panic" else {})},
                  "actual": {"status": burn_status, **({"panic": "boom"} if burn_status == "panic" else {})}}}
    if worst is not None:
        o["python"] = {"expected": {"kind": "ok"}, "actual": {"status": "ok"}}
        o["burn"] = {"expected": {"kind": "ok"}, "actual": {"status": "ok"}}
        o["compare"] = {"expected": "match", "ok": ok, "worst": worst, "tol": 1e-6, "worst_field": "v"}
    return o


@pytest.fixture
def exps(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec", "panics"))
    manifest(root, "boom", "page: 10-pitfalls/x\nburn:\n  crate: panics\n  expect: {panic: boom}\n")
    manifest(root, "pair", "page: 01\npython:\n  script: vec.py\nburn:\n  crate: okvec\n"
                           "compare:\n  tol: 1.0e-6\n  why: f32\n")
    book = scratch_book(root)
    return {e.id: e for e in discover(book)}


def test_an_expected_failure_that_vanished(exps):
    rec = drift.compare_experiment(exps["boom"], outcome(), outcome(burn_status="ok"))
    assert rec["holds"] is False
    assert rec["expected_failures"] == [{"side": "burn", "kind": "vanished",
                                         "expected": "panic，信息含 'boom'", "actual": "正常结束"}]
    assert rec["changes"] == ["burn：panic → ok"]


def test_an_expected_failure_that_changed(exps):
    new = outcome()
    new["burn"]["actual"] = {"status": "compile_error", "codes": ["E0599"]}
    rec = drift.compare_experiment(exps["boom"], outcome(), new)
    assert rec["expected_failures"][0]["kind"] == "changed"
    assert rec["changes"] == ["burn：panic → compile_error E0599"]


def test_a_comparison_that_moved_and_one_that_did_not_run(exps):
    rec = drift.compare_experiment(exps["pair"], outcome(worst=1e-8), outcome(worst=4e-7))
    assert rec["holds"] is True and rec["changes"] == ["最大误差 1.000e-08 → 4.000e-07"]
    rec = drift.compare_experiment(exps["pair"], outcome(worst=1e-8), outcome(worst=2e-3, ok=False))
    assert rec["holds"] is False and "比较 OK → MISMATCH" in rec["changes"]
    rec = drift.compare_experiment(exps["pair"], outcome(worst=1e-8), None)
    assert rec["holds"] is None and rec["changes"]


def fake_crate(home, version, body):
    d = home / "registry" / "src" / "index.example" / f"burn-foo-{version}"
    write(d / "src" / "lib.rs", body)
    write(d / ".cargo_vcs_info.json", json.dumps({"path_in_vcs": "crates/burn-foo"}))


def test_source_links_same_moved_missing(tmp_path, monkeypatch):
    home = tmp_path / "cargo"
    fake_crate(home, "1.0.0", "pub fn stay() {}\npub fn shift() {}\npub fn gone() {}\n")
    fake_crate(home, "2.0.0", "pub fn stay() {}\n\n\npub fn shift() {}\n")
    monkeypatch.setenv("CARGO_HOME", str(home))
    sources.resolve.cache_clear()
    docs = tmp_path / "docs"
    write(docs / "a.md", '{{ src("burn-foo/src/lib.rs", "stay") }} {{ src("burn-foo/src/lib.rs", "shift") }}\n')
    write(docs / "b" / "c.md", '{{ src("burn-foo/src/lib.rs", "gone", "text") }}\n')
    links = drift.source_links(docs, "1.0.0", "2.0.0")
    sources.resolve.cache_clear()
    assert [(x["symbol"], x["state"]) for x in links] == [
        ("stay", "same"), ("shift", "moved"), ("gone", "missing")]
    assert links[1]["before"] == [2, 2] and links[1]["after"] == [4, 4]
    assert "gone" in links[2]["after_error"]


REPORT = {
    "label": "burn-9.0.0", "from": {"burn": "0.22.1", "torch": "2.15.0"},
    "to": {"burn": "9.0.0", "burn-onnx": None, "torch": "（不变）"}, "minutes": 1.5,
    "contract_problems": 1,
    "experiments": [
        {"id": "boom", "page": "10-pitfalls/x", "holds": False, "changes": ["burn：panic → ok"],
         "expected_failures": [{"side": "burn", "kind": "vanished", "expected": "panic", "actual": "正常结束"}]},
        {"id": "pair", "page": "01", "holds": True, "changes": [],
         "compare": {"expected": "match", "ok": True, "tol": 1e-6, "worst": 1e-8, "worst_before": 1e-8}},
    ],
    "pitfalls": {"10-pitfalls/x": False},
    "links": [{"page": "a.md", "path": "burn-foo/src/lib.rs", "symbol": "f<T> | g", "state": "moved",
               "before": [1, 2], "after": [3, 4]}],
}


def test_report_renders_headline_and_tables(tmp_path):
    book = Book(root=tmp_path)
    write(tmp_path / "drift" / "burn-9.0.0.json", json.dumps(REPORT))
    head = drift_report.headline(REPORT)
    assert "0.22.1 → 9.0.0" in head and "坑仍然复现 0/1" in head and "消失 1 个" in head
    page = drift_report.drift_report(book, "burn-9.0.0")
    assert "| `boom` | burn | 消失了 |" in page
    assert "<code>f&lt;T&gt; &#124; g</code>" in page  # escaped, not split by a "|"; not in backticks,
    # where Markdown would show the entities literally
    assert "L1–L2 | L3–L4" in page


def test_missing_report_is_named(tmp_path):
    (tmp_path / "drift").mkdir()
    with pytest.raises(BookError, match="make drift"):
        drift_report.drift_report(Book(root=tmp_path), "burn-0.0.1")


def test_a_changed_output_text_is_reported(exps):
    rec = drift.compare_experiment(exps["pair"], outcome(worst=1e-8), outcome(worst=1e-8),
                                   {"burn.json": '{"v": [1.0]}'}, {"burn.json": '{"v": [1.5]}'})
    assert rec["holds"] is True and rec["changes"] == ["burn.json 变了"]


def test_page_state_tells_not_run_from_changed():
    assert drift.page_state([{"holds": True}, {"holds": True}]) is True
    assert drift.page_state([{"holds": True}, {"holds": None}]) is None
    assert drift.page_state([{"holds": None}, {"holds": False}]) is False
    r = dict(REPORT, pitfalls={"10-pitfalls/x": False, "10-pitfalls/y": None, "10-pitfalls/z": True})
    assert "坑仍然复现 1/3（1 个没跑）" in drift_report.headline(r)
