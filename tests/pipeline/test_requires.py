"""Experiments that need hardware (`requires:`): skipped where it is missing, never silently."""
import json

import pytest

from book.pages import blocks
from book.pipeline import build as pipeline
from book.pipeline.check import check
from book.experiments.manifest import discover
from book.errors import BookError
from scratch import log_states, make_workspace, manifest, scratch_book


@pytest.fixture
def proj(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec"))
    manifest(root, "gpu-read", "requires: [vulkan]\npython:\n  script: vec.py\n"
                               "burn:\n  crate: okvec\ncompare:\n  tol: 0\n  why: exact\n")
    manifest(root, "plain", "python:\n  script: ok.py\n")
    return scratch_book(root)


def build(book):
    lines = []
    problems = pipeline.build(book, log=lines.append)
    return problems, lines


def test_unknown_requirement_is_rejected(proj):
    manifest(proj.root, "bad", "requires: [tpu]\npython:\n  script: ok.py\n")
    with pytest.raises(BookError, match="requires"):
        discover(proj)


def test_without_the_hardware_it_is_skipped_and_said(proj, monkeypatch):
    monkeypatch.setenv("BOOK_HARDWARE", "")
    problems, lines = build(proj)
    assert problems == []
    assert log_states(lines) == {"plain": "ran"}
    (skip,) = [ln for ln in lines if "gpu-read" in ln]
    assert "skipped" in skip and "vulkan" in skip and "还没有任何输出" in skip
    assert not (proj.outputs / "gpu-read").exists()
    # make check names it but does not fail for it.
    notes = []
    assert check(proj, log=notes.append) == []
    assert any("gpu-read" in n and "没有在有它的机器上跑过" in n for n in notes)
    # The page gets a notice instead of a crash, and only for such experiments.
    assert "还没有输出" in blocks.side_output(proj, "gpu-read", "burn")
    assert "还没有输出" in blocks.compare_table(proj, "gpu-read")
    assert blocks.has_output(proj, "gpu-read") is False


def test_with_the_hardware_it_runs_and_records_the_driver(proj, monkeypatch):
    monkeypatch.setenv("BOOK_HARDWARE", "vulkan")
    problems, lines = build(proj)
    assert problems == [] and log_states(lines)["gpu-read"] == "ran"
    prov = json.loads((proj.outputs / "gpu-read" / "provenance.json").read_text())
    assert "vulkan" in prov["hardware"]
    note = blocks.requires_note(proj, "gpu-read")
    assert "需要 Vulkan 驱动" in note and "输出是最新的运行" in note
    # Elsewhere the cached output stays, is marked stale-but-kept, and the page says so.
    monkeypatch.setenv("BOOK_HARDWARE", "")
    (proj.root / "experiments" / "vec.py").write_text(
        'import json\nprint(json.dumps({"v": [1.0, 3.0]}))\n')
    problems, lines = build(proj)
    assert problems == []
    assert "沿用缓存" in [ln for ln in lines if "gpu-read" in ln][0]
    assert "沿用的是缓存的输出" in blocks.requires_note(proj, "gpu-read")
    notes = []
    assert check(proj, log=notes.append) == []
    assert any("gpu-read" in n and "输入变了" in n for n in notes)


def test_a_missing_output_without_requires_still_fails(proj, monkeypatch):
    with pytest.raises(BookError, match="没有实验 'plain' 的输出|plain"):
        blocks.side_output(proj, "plain", "python")
    with pytest.raises(BookError, match="requires_note"):
        blocks.requires_note(proj, "plain")


def test_kept_output_still_has_to_keep_its_contract(proj, monkeypatch):
    monkeypatch.setenv("BOOK_HARDWARE", "vulkan")
    assert build(proj)[0] == []
    # Someone declares a different expectation on a machine that cannot rerun it.
    monkeypatch.setenv("BOOK_HARDWARE", "")
    path = proj.root / "experiments" / "gpu-read.yaml"
    path.write_text(path.read_text().replace("why: exact\n", "why: exact\n  expect: mismatch\n"))
    problems = check(proj, log=lambda s: None)
    assert problems and "gpu-read" in problems[0]
