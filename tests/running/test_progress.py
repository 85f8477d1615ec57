"""A long build says what it is doing (book/running/progress.py), in real runner builds of a scratch
workspace: first compiles of a crate's feature set are announced and timed, and running
work gets a line every heartbeat."""
import pytest

from book.running import progress
from book.pipeline.build import build
from scratch import make_workspace, manifest, scratch_book, write

SLOW = 'import json, time\ntime.sleep(1.5)\nprint(json.dumps({"x": 1.0}))\n'


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okjson"))
    write(root / "experiments" / "slow.py", SLOW)
    manifest(root, "slow", "python:\n  script: slow.py\n")
    manifest(root, "r1", "burn:\n  crate: okjson\n  profile: dev\n  features: []\n")
    monkeypatch.setattr(progress, "INTERVAL_S", 0.4)
    return scratch_book(root)


def test_heartbeat_and_first_compile(project):
    lines = []
    assert build(project, log=lines.append) == []
    beats = [l for l in lines if l.startswith("  …")]
    assert any("slow" in l and "运行 PyTorch 脚本" in l for l in beats), lines
    first = [l for l in lines if l.startswith("  编译     ")]
    assert len(first) == 1 and "dev，features []" in first[0] and "r1" in first[0], lines
    assert any(l.startswith("  编译完成 ") and "r1" in l for l in lines), lines
    # The order a reader expects: announced before it is done, done before the summary.
    idx = {k: next(i for i, l in enumerate(lines) if l.startswith(k))
           for k in ("  编译     ", "  编译完成 ", "实验 ")}
    assert idx["  编译     "] < idx["  编译完成 "] < idx["实验 "]


def test_a_compiled_feature_set_is_not_announced_again(project):
    assert build(project, log=lambda s: None) == []
    lines = []
    assert build(project, log=lines.append, force=True) == []
    assert not [l for l in lines if l.startswith(("  编译     ", "  编译完成 "))], lines


def test_nothing_to_run_starts_no_heartbeat(project):
    assert build(project, log=lambda s: None) == []
    lines = []
    assert build(project, log=lines.append) == []
    assert not [l for l in lines if l.startswith("  …")], lines
