"""The execution report: every experiment, its outcome both ways, and the last build's state."""
import json

from book.pages import report
from book.pipeline.build import build
from book.cache.states import STATE_FILE
from scratch import make_workspace, manifest, scratch_book


def test_report_lists_every_experiment_with_its_state(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec", "panics"))
    manifest(root, "good", "page: p1\npython:\n  script: vec.py\nburn:\n  crate: okvec\n"
                           "compare:\n  tol: 0\n  why: exact\n")
    manifest(root, "boom", "page: p1\nburn:\n  crate: panics\n  expect: {panic: boom}\n")
    manifest(root, "needs-gpu", "page: p2\nrequires: [cuda]\npython:\n  script: ok.py\n")
    book = scratch_book(root)
    monkeypatch.setenv("BOOK_HARDWARE", "")
    assert build(book, log=lambda s: None) == []
    states = json.loads((book.outputs / STATE_FILE).read_text())["experiments"]
    assert states == {"good": {"state": "ran", "reason": "没有缓存"},
                      "boom": {"state": "ran", "reason": "没有缓存"},
                      "needs-gpu": {"state": "skipped", "reason": "本机没有 cuda；没有缓存"}}
    text = report.execution_report(book)
    assert "全书 **3** 个实验" in text and "契约不成立的：**0** 个" in text
    assert "| `boom` | [p1](../p1/index.md) | ✓ panic | 重跑 | <details>" in text
    assert "burn：✓ panic，信息含 &#x27;boom&#x27;" in text
    assert "| `good` |" in text and "✓ ok / ok / 对上" in text
    assert text.count("\n| `") == 3  # one table, one row per experiment
    assert "✓ 期望 match：OK 0.00e+00 / 0" in text
    assert "从未运行（需要NVIDIA GPU（CUDA））" in text
    # A second build: everything cached, and the report says so.
    assert build(book, log=lambda s: None) == []
    text = report.execution_report(book)
    assert text.count("| 缓存 |") == 2 and "重跑" not in text.split("\n", 3)[2]


def test_report_shows_a_broken_contract(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec"))
    manifest(root, "good", "python:\n  script: vec.py\nburn:\n  crate: okvec\n"
                           "compare:\n  tol: 0\n  why: exact\n")
    book = scratch_book(root)
    assert build(book, log=lambda s: None) == []
    # The manifest now promises a mismatch that the stored outcome does not show.
    out = book.outputs / "good" / "outcome.json"
    o = json.loads(out.read_text())
    o["compare"]["expected"] = "mismatch"
    out.write_text(json.dumps(o))
    text = report.execution_report(book)
    assert "契约不成立的：**1** 个" in text and "✗ 期望 mismatch：OK" in text
    assert "| `good` | （没有页面） | ✗ 契约不成立 ok / ok / 对上 |" in text


def test_the_ledger_counts_only_reproductions_of_the_entry_as_it_is(tmp_path, monkeypatch):
    """make reproduce's records reach the report and the totals; one of older inputs, or of an
    experiment whose inputs changed since, is not counted; a damaged line stops with its number."""
    import pytest
    from book.cache import ledger
    from book.commands import reproduce
    from book.errors import BookError
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec"))
    manifest(root, "good", "python:\n  script: vec.py\nburn:\n  crate: okvec\n"
                           "compare:\n  tol: 0\n  why: exact\n")
    manifest(root, "plain", "python:\n  script: ok.py\n")
    manifest(root, "needs-gpu", "requires: [cuda]\npython:\n  script: ok.py\n")
    book = scratch_book(root)
    monkeypatch.setenv("BOOK_HARDWARE", "")
    assert build(book, log=lambda s: None) == []
    assert "还没有哪个实验的当前输入被重跑核对过" in report.reproduction_totals(book)
    results = reproduce.rerun(book, ["good", "plain"], log=lambda s: None)
    assert results == {"good": [], "plain": []}
    recs = reproduce.record(book, ["good"])
    # A record of older inputs, on a class this machine cannot be (whatever it is).
    elsewhere = "OtherVendor SSE9"
    ledger.append(book, recs + [dict(recs[0], cpu=elsewhere, key="0" * 64)])
    here = recs[0]["cpu"]
    assert here != elsewhere
    text = report.reproduction_totals(book)
    assert "全书 3 个实验：2 个在任何一台机器上都能重跑，1 个需要特定的硬件（NVIDIA GPU（CUDA））" in text
    assert f"在 {here} 上 1 个。" in text and elsewhere not in text  # the old key does not count
    full = report.execution_report(book)
    assert f"复现：{recs[0]['date']} 在 {here} 上" in full
    assert "复现：还没有" in full  # plain: reproduced, but never recorded
    # The experiment changes: its reproduction no longer vouches for it.
    (root / "experiments" / "vec.py").write_text('import json\nprint(json.dumps({"v": [1.0, 2.0]}))\n# edited\n')
    assert build(book, log=lambda s: None) == []
    assert "还没有哪个实验的当前输入被重跑核对过" in report.reproduction_totals(book)
    ledger.path(book).write_text(ledger.path(book).read_text() + '{"id": "good"\n')
    with pytest.raises(BookError, match="第 3 行"):
        ledger.read(book)
