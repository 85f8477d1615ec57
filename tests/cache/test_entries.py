"""Every cached byte is checked: check() names each damaged file, build() reruns the entry."""
import json
import subprocess
import sys

import pytest

from book.cache import entries
from book.pipeline.build import build
from book.pipeline.check import check
from scratch import REPO, built_book, log_states, make_workspace, manifest, scratch_book

EXPERIMENTS = {
    "p1": "python:\n  script: ok.py\n",
    "p2": "python:\n  script: vec.py\nburn:\n  crate: okvec\ncompare:\n  tol: 0\n  why: same\n",
    "r1": "burn:\n  crate: okjson\n",
}


@pytest.fixture
def project(tmp_path):
    return built_book(tmp_path / "proj", EXPERIMENTS, crates=("helper", "okjson", "okvec"))[0]


def check_cli(book):
    p = subprocess.run([sys.executable, "-m", "book.commands.runner", "check", "--root", str(book.root)],
                       cwd=REPO, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def test_fresh_entries_verify(project):
    for e in ("p1", "p2", "r1"):
        d = project.outputs / e
        assert entries.verify_entry(d) == []
        hashes = json.loads((d / entries.HASH_FILE).read_text())
        assert set(hashes) == {p.name for p in d.iterdir()} - {entries.HASH_FILE, entries.VOLATILE_FILE}
    assert check_cli(project)[0] == 0


def test_check_reports_every_damage_at_once(project):
    out = project.outputs
    # A plausible hand edit: the JSON stays valid, one number changes.
    burn = out / "r1" / "burn.json"
    burn.write_text(burn.read_text().replace("1.0", "1.5"))
    (out / "p2" / "compare.json").write_text((out / "p2" / "compare.json").read_text()[:40])
    (out / "p2" / "python.json").unlink()
    (out / "p1" / "outcome.json").write_text('{"python": ')
    (out / "p1" / "notes.txt").write_text("mine\n")
    vol = out / "r1" / "volatile.json"
    vol.write_text(vol.read_text().replace('"cores"', '"Cores"'))
    code, text = check_cli(project)
    assert code == 1
    assert "Traceback" not in text
    for exp_id, what in [("r1", "burn.json 和记录的 sha256 不符"),
                         ("p2", "compare.json 和记录的 sha256 不符（被改动或截断，而且不是合法的 JSON）"),
                         ("p2", "缺少 python.json"),
                         ("p1", "outcome.json 和记录的 sha256 不符"),
                         ("p1", "多出文件 notes.txt"),
                         ("r1", "volatile.json 和它记录的 sha256 不符")]:
        assert any(f"实验 {exp_id}" in ln and what in ln for ln in text.splitlines()), (exp_id, what, text)


def test_missing_hash_file_and_outcome(project):
    (project.outputs / "p1" / entries.HASH_FILE).unlink()
    (project.outputs / "r1" / "outcome.json").unlink()
    problems = check(project, log=lambda s: None)
    assert any("p1" in p and "缺少 hashes.json" in p for p in problems)
    assert any("r1" in p and "缺少 outcome.json" in p for p in problems)


def test_build_reruns_a_damaged_entry_and_says_why(project):
    (project.outputs / "r1" / "outcome.json").unlink()
    (project.outputs / "r1" / "burn.json").unlink()
    lines = []
    assert build(project, log=lines.append) == []
    states = log_states(lines)
    assert states == {"p1": "cached", "p2": "cached", "r1": "ran"}
    (line,) = [ln for ln in lines if " r1 " in ln]
    assert "缓存损坏" in line and "缺少 outcome.json" in line
    assert entries.verify_entry(project.outputs / "r1") == []
    assert check(project, log=lambda s: None) == []


def test_check_names_entries_made_on_another_cpu_class(tmp_path, monkeypatch):
    from book import hardware
    root = make_workspace(tmp_path / "proj", crates=("helper",))
    manifest(root, "c1", "python:\n  script: ok.py\ncpu: [python.x]\npins: false\n")
    manifest(root, "c2", "python:\n  script: off.py\n")
    book = scratch_book(root)
    assert build(book, log=lambda s: None) == []
    prov = json.loads((book.outputs / "c1" / "provenance.json").read_text())
    assert prov["cpu"]["simd"] == hardware.cpu()["simd"] and "pins" not in prov["cpu"]
    assert prov["cpu"]["vendor"] == hardware.cpu()["vendor"]
    pinned = json.loads((book.outputs / "c2" / "provenance.json").read_text())["cpu"]
    assert pinned["pins"] == hardware.CPU_PINS and "simd" not in pinned
    monkeypatch.setenv("BOOK_CPU_LEVEL", "SOME-OTHER-LEVEL")
    hardware.cpu.cache_clear()
    try:
        notes = []
        assert check(book, log=notes.append) == []  # not stale, nothing rerun
        (note,) = notes
        assert "c1" in note and prov["cpu"]["simd"] in note and "SOME-OTHER-LEVEL" in note
    finally:
        hardware.cpu.cache_clear()
