"""book.cache: what reruns after which edit, atomic entries, crash recovery and the build lock."""
import json
import os
import re
import shutil

import pytest

from book.cache import entries, keys, lock, resolve
from book.pipeline.build import build
from book.pipeline.check import check
from book.cache.states import STATE_FILE
from book.commands import runner
from book.experiments.manifest import discover
from book.errors import BookError
from scratch import (SAFETY_S, built_book, generate_lockfile, safety_net, wait_for, log_states, make_workspace, manifest, scratch_book, write,
                      write_crate)

EXPERIMENTS = {
    "p1": "python:\n  script: ok.py\n",
    "p2": "python:\n  script: off.py\n",
    "r1": "burn:\n  crate: okjson\n",  # okjson depends on the path crate helper
    "r2": "burn:\n  crate: okvec\n",
}


@pytest.fixture
def project(tmp_path):
    """A fresh workspace per test: the tests edit its files. Built once, all fresh."""
    book, lines = built_book(tmp_path / "proj", EXPERIMENTS, crates=("helper", "okjson", "okvec"))
    assert log_states(lines) == dict.fromkeys(EXPERIMENTS, "ran")
    return book


def rebuild(book):
    lines = []
    assert build(book, log=lines.append) == []
    states = log_states(lines)
    assert set(states) == set(EXPERIMENTS)
    return {k for k, v in states.items() if v == "ran"}


def exp(book, exp_id):
    (e,) = [e for e in discover(book) if e.id == exp_id]
    return e


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def test_second_build_reruns_nothing(project):
    def entries():  # the cache entries, not the last build's state file
        return {p: p.read_bytes() for p in project.outputs.rglob("*")
                if p.is_file() and p.name != STATE_FILE}
    before = entries()
    assert rebuild(project) == set()
    for e in discover(project):
        assert keys.stale_reason(e, project) is None
    assert entries() == before  # cached entries are not even rewritten
    assert (project.outputs / STATE_FILE).is_file()


def test_missing_entry_is_stale(project):
    shutil.rmtree(project.outputs / "p2")
    assert keys.stale_reason(exp(project, "p2"), project) == "没有缓存"
    assert rebuild(project) == {"p2"}


def test_editing_a_script_reruns_only_its_experiment(project):
    append(project.experiments / "ok.py", "# touched\n")
    reason = keys.stale_reason(exp(project, "p1"), project)
    assert reason is not None and "experiments/ok.py" in reason
    assert rebuild(project) == {"p1"}
    assert rebuild(project) == set()


def test_editing_a_crate_reruns_only_its_experiments(project):
    src = project.crates / "okvec" / "src" / "main.rs"
    append(src, "// touched\n")
    reason = keys.stale_reason(exp(project, "r2"), project)
    assert reason is not None and "crates/okvec/src/main.rs" in reason
    assert rebuild(project) == {"r2"}


def test_editing_a_manifest_reruns_it(project):
    append(project.experiments / "p2.yaml", "about: now with a description\n")
    assert "experiments/p2.yaml" in keys.stale_reason(exp(project, "p2"), project)
    assert rebuild(project) == {"p2"}


def test_python_pins_rerun_python_experiments_only(project):
    write(project.pins, "numpy==2.4.6\n")
    assert "requirements.lock" in keys.stale_reason(exp(project, "p1"), project)
    assert rebuild(project) == {"p1", "p2"}


def test_lockfile_change_of_one_crates_dependency(project):
    helper = project.crates / "helper" / "Cargo.toml"
    helper.write_text(helper.read_text(encoding="utf-8").replace('"0.1.0"', '"0.2.0"'),
                      encoding="utf-8")
    old_lock = project.cargo_lock.read_text(encoding="utf-8")
    generate_lockfile(project.root)
    assert project.cargo_lock.read_text(encoding="utf-8") != old_lock
    assert resolve.locked_deps(project, "okjson") == ["helper 0.2.0 local"]
    assert resolve.locked_deps(project, "okvec") == []

    reason = keys.stale_reason(exp(project, "r1"), project)
    assert reason is not None and "Cargo.lock#okjson" in reason
    assert keys.stale_reason(exp(project, "r2"), project) is None
    assert rebuild(project) == {"r1"}


def test_editing_a_path_dependency_reruns_its_users(project):
    # okjson prints helper::one(); change what helper returns. Cargo.lock does not change
    # (a path crate has no checksum), so only hashing helper's sources can notice.
    lib = project.crates / "helper" / "src" / "lib.rs"
    lib.write_text(lib.read_text(encoding="utf-8").replace("1.0", "2.0"), encoding="utf-8")
    reason = keys.stale_reason(exp(project, "r1"), project)
    assert reason is not None, "r1 would keep serving {\"x\": 1.0} while okjson now prints 2.0"
    assert "crates/helper" in reason


def test_cargo_config_is_an_input_of_burn_experiments(project):
    # rustflags (say target-cpu=native) change what burn computes, e.g. the SIMD sum.
    write(project.root / ".cargo" / "config.toml",
          '[build]\nrustflags = ["-C", "target-cpu=native"]\n')
    reason = keys.stale_reason(exp(project, "r2"), project)
    assert reason is not None and ".cargo/config.toml" in reason
    assert keys.stale_reason(exp(project, "p1"), project) is None


def test_crate_missing_from_cargo_lock(project):
    # A new crate whose lock entry was never generated: say what to run, do not guess.
    write(project.crates / "fresh" / "Cargo.toml",
          '[package]\nname = "fresh"\nversion = "0.1.0"\nedition = "2021"\n')
    write(project.crates / "fresh" / "src" / "main.rs", "fn main() {}\n")
    manifest(project.root, "r3", "burn:\n  crate: fresh\n")
    with pytest.raises(BookError, match="cargo tree -p fresh.*make site"):
        keys.inputs(exp(project, "r3"), project)


# --- atomic entries, recovery, lock: no runs needed --------------------------------------

@pytest.fixture
def bare(tmp_path):
    return scratch_book(tmp_path)


def test_recover_removes_temp_and_restores_swapped_out_entry(bare):
    out = bare.outputs
    write(out / ".tmp-x-123" / "outcome.json", "half")
    write(out / ".old-y" / "outcome.json", "Y")
    write(out / ".old-z" / "outcome.json", "old Z")
    write(out / "z" / "outcome.json", "new Z")
    entries.recover(bare)
    assert sorted(p.name for p in out.iterdir()) == ["y", "z"]
    assert (out / "y" / "outcome.json").read_text(encoding="utf-8") == "Y"
    assert (out / "z" / "outcome.json").read_text(encoding="utf-8") == "new Z"


def test_build_lock_runs_recovery(bare):
    write(bare.outputs / ".tmp-x-1" / "a", "half")
    write(bare.outputs / ".old-y" / "a", "Y")
    with lock.build_lock(bare):
        assert not (bare.outputs / ".tmp-x-1").exists()
        assert (bare.outputs / "y" / "a").is_file()


def test_second_build_while_locked(bare):
    write(bare.experiments / "ok.py", "print('{}')\n")
    manifest(bare.root, "p", "python:\n  script: ok.py\n")
    with lock.build_lock(bare):
        with pytest.raises(BookError) as err:
            build(bare, log=lambda s: None)
        assert ".lock" in str(err.value)
        assert not (bare.outputs / "p").exists()
    # Released on exit: the next build gets the lock.
    with lock.build_lock(bare):
        pass


def test_wait_blocks_until_the_lock_is_released(bare):
    import threading
    lines, done = [], threading.Event()
    with lock.build_lock(bare):
        t = threading.Thread(target=lambda: (build(bare, log=lines.append, wait=True),
                                             done.set()))
        t.start()
        wait_for(lambda: any("等它结束" in ln for ln in lines), "the second build says it waits")
        assert not done.is_set()  # still waiting while the lock is held
    t.join(timeout=SAFETY_S)
    assert done.is_set(), safety_net("the second build, once the lock is free")


def test_write_entry_replaces_the_whole_entry(bare):
    entries.write_entry(bare, "e", {"a.txt": "1\n", "b.txt": "2\n"})
    entries.write_entry(bare, "e", {"a.txt": "3\n"})
    d = bare.outputs / "e"
    assert sorted(p.name for p in d.iterdir()) == ["a.txt", "hashes.json"]
    assert (d / "a.txt").read_text(encoding="utf-8") == "3\n"
    assert sorted(p.name for p in bare.outputs.iterdir()) == ["e"]  # no .tmp-* or .old-* left


def test_write_entry_to_another_destination(bare):
    dest = bare.outputs / ".failed" / "e"
    entries.write_entry(bare, "e", {"a.txt": "x"}, dest)
    assert (dest / "a.txt").read_text(encoding="utf-8") == "x"
    assert entries.verify_entry(dest) == [f"缺少 {entries.VOLATILE_FILE}"]  # sealed, but no run wrote it
    assert not (bare.outputs / "e").exists()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["e"]


def test_inputs_key_ignores_mtime_and_lists_the_inputs(project):
    e = exp(project, "p1")
    k1 = keys.inputs(e, project)["key"]
    os.utime(project.experiments / "ok.py", (0, 0))  # mtime alone is not an input
    assert keys.inputs(e, project)["key"] == k1
    assert re.fullmatch(r"[0-9a-f]{64}", k1)
    stored = keys.stored_inputs(project, "p1")
    assert stored["key"] == k1
    # p1 compares nothing: the comparator is not one of its inputs.
    assert set(stored["files"]) == {"experiments/p1.yaml", "experiments/ok.py", "requirements.lock"}


def test_exclusive_experiments_run_alone_after_the_others(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper",))
    manifest(root, "a-timing", "exclusive: true\npython:\n  script: ok.py\n")
    manifest(root, "b-plain", "python:\n  script: ok.py\n")
    manifest(root, "c-plain", "python:\n  script: off.py\n")
    lines = []
    assert build(scratch_book(root), log=lines.append) == []
    ran = [ln.split()[1] for ln in lines if ln.strip().startswith("ran")]
    assert ran[-1] == "a-timing" and set(ran[:2]) == {"b-plain", "c-plain"}
    assert "独占" in [ln for ln in lines if "a-timing" in ln][0]


def test_a_crate_folder_without_cargo_toml_is_named(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okjson"))
    manifest(root, "r1", "burn:\n  crate: okjson\n")
    (root / "crates" / "half-written").mkdir()
    with pytest.raises(BookError, match="half-written"):
        build(scratch_book(root), log=lambda s: None)


def test_needs_builds_the_crate_and_follows_its_sources(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec"))
    manifest(root, "measure", "needs: [okvec]\npython:\n  script: ok.py\n")
    book = scratch_book(root)
    assert build(book, log=lambda s: None) == []
    assert (book.target / "release" / "okvec").is_file()  # built although no burn side
    append(root / "crates" / "okvec" / "src" / "main.rs", "// edited\n")
    assert "crates/okvec/src/main.rs" in keys.stale_reason(exp(book, "measure"), book)


def test_needs_names_a_missing_crate(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper",))
    path = manifest(root, "measure", "needs: [ghost]\npython:\n  script: ok.py\n")
    with pytest.raises(BookError, match="ghost") as err:
        discover(scratch_book(root))
    assert str(path) in str(err.value)


def test_another_crates_optional_dependency_does_not_touch_this_key(tmp_path):
    # Cargo.lock lists, per package, the union of optional deps that ANY member turns on
    # (as burn lists burn-store once one crate enables "store"). The key must not see it.
    root = make_workspace(tmp_path / "proj", crates=("okjson", "helper"))
    write_crate(root, "extra", "pub fn two() -> u8 { 2 }\n", lib=True)
    toml = root / "crates" / "helper" / "Cargo.toml"
    toml.write_text(toml.read_text(encoding="utf-8")
                    + 'extra = { path = "../extra", optional = true }\n', encoding="utf-8")
    generate_lockfile(root)
    book = scratch_book(root)
    manifest(root, "r1", "burn:\n  crate: okjson\n")
    before = keys.inputs(exp(book, "r1"), book)["key"]
    write_crate(root, "wants-extra", "fn main() {}\n",
                deps='helper = { path = "../helper", features = ["extra"] }\n')
    generate_lockfile(root)
    assert "extra" in (root / "Cargo.lock").read_text(encoding="utf-8").split('name = "helper"')[1][:200]
    assert keys.inputs(exp(book, "r1"), book)["key"] == before


def test_check_names_stale_and_missing_entries_without_running(project):
    assert check(project, log=lambda s: None) == []
    before = {p: p.read_bytes() for p in project.outputs.rglob("*") if p.is_file()}
    append(project.root / "experiments" / "ok.py", "# edited\n")
    shutil.rmtree(project.outputs / "r2")
    problems = check(project, log=lambda s: None)
    assert len(problems) == 2
    assert "p1" in problems[0] and "过期" in problems[0] and "experiments/ok.py" in problems[0]
    assert "r2" in problems[1] and "没有缓存" in problems[1]
    after = {p: p.read_bytes() for p in project.outputs.rglob("*") if p.is_file()}
    assert after == {p: b for p, b in before.items() if "r2" not in p.parts}  # nothing ran


def test_check_cli_exit_code(project, monkeypatch, capsys):
    monkeypatch.setattr(runner, "Book", lambda: project)
    assert runner.main(["check"]) == 0
    append(project.root / "experiments" / "off.py", "# edited\n")
    assert runner.main(["check"]) == 1
    assert "p2" in capsys.readouterr().err


# ----------------------------------------------------------------- only the comparator changed

COMPARING = {
    "c1": ("python:\n  script: ok.py\nburn:\n  crate: okjson\n"
           "compare:\n  tol: 1.0e-6\n  why: \"same number\"\n"),
    "p1": "python:\n  script: ok.py\n",  # compares nothing: the comparator is not its input
}


@pytest.fixture
def comparing(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper", "okjson"))
    for exp_id, body in COMPARING.items():
        manifest(root, exp_id, body)
    book = scratch_book(root)
    assert build(book, log=[].append) == []
    return book


def states_after_build(book):
    lines = []
    problems = build(book, log=lines.append)
    return log_states(lines), problems, lines


def test_editing_the_comparator_recompares_without_running_the_sides(comparing):
    book = comparing
    sides = {n: (book.outputs / "c1" / n).read_bytes() for n in ("python.json", "burn.json", "volatile.json")}
    assert "experiments/compare.py" not in keys.inputs(exp(book, "p1"), book)["files"]
    # A comparator that words its verdict differently: the comparison is computed again.
    src = book.compare_script.read_text(encoding="utf-8")
    book.compare_script.write_text(src.replace('verdict = "OK" if report["ok"] else "MISMATCH"',
                                               'verdict = "FINE" if report["ok"] else "MISMATCH"'), "utf-8")
    states, problems, lines = states_after_build(book)
    assert problems == [] and states == {"c1": "compared", "p1": "cached"}, lines
    assert (book.outputs / "c1" / "compare.txt").read_text("utf-8").rstrip().endswith("FINE")
    for name, before in sides.items():  # not run: same outputs, same run time
        assert (book.outputs / "c1" / name).read_bytes() == before, name
    assert entries.verify_entry(book.outputs / "c1") == []
    assert check(book, log=[].append) == []
    assert states_after_build(book)[0] == {"c1": "cached", "p1": "cached"}


def test_a_comparator_that_breaks_a_contract_fails_the_recomparison(comparing):
    book = comparing
    src = book.compare_script.read_text(encoding="utf-8")
    # Every float now differs by far more than the tolerance.
    book.compare_script.write_text(src.replace("d = 0.0 if (math.isnan(p)", "d = 1.0 if (math.isnan(p)"),
                                   "utf-8")
    states, problems, _ = states_after_build(book)
    assert states["c1"] == "FAILED"
    assert len(problems) == 1 and "实验 c1" in problems[0] and "MISMATCH" in problems[0], problems
    assert (book.outputs / ".failed" / "c1" / "compare.txt").is_file()
    assert keys.stale_reason(exp(book, "c1"), book) is not None  # the committed entry stays old


def test_comparator_and_script_changed_reruns_the_sides(comparing):
    book = comparing
    append(book.compare_script, "# touched\n")
    append(book.experiments / "ok.py", "# touched\n")
    states, problems, _ = states_after_build(book)
    assert problems == [] and states == {"c1": "ran", "p1": "ran"}


def test_a_damaged_entry_is_rerun_even_when_only_the_comparator_changed(comparing):
    book = comparing
    append(book.compare_script, "# touched\n")
    append(book.outputs / "c1" / "burn.json", " ")
    states, problems, _ = states_after_build(book)
    assert problems == [] and states["c1"] == "ran"


def cargo_spy(tmp_path, monkeypatch):
    """A `cargo` first on PATH that logs its arguments and runs the real one."""
    real = shutil.which("cargo")
    spy = tmp_path / "spy-bin"
    log = tmp_path / "cargo.log"
    write(spy / "cargo", f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (spy / "cargo").chmod(0o755)
    monkeypatch.setenv("PATH", f"{spy}:{os.environ['PATH']}")
    return lambda: [l for l in log.read_text().splitlines() if l.startswith("tree")] if log.exists() else []


def test_resolve_memo_asks_cargo_once_per_crate(project, tmp_path, monkeypatch):
    trees = cargo_spy(tmp_path, monkeypatch)
    memo = project.root / resolve.RESOLVE_FILE
    assert memo.is_file()  # the fixture's first build wrote it
    resolve._RESOLVE.clear()
    # A fresh clone: the committed memo answers, cargo is not asked.
    for e in ("r1", "r2"):
        assert keys.stale_reason(exp(project, e), project) is None
    assert trees() == []


def test_a_new_crate_costs_only_its_own_resolve(project, tmp_path, monkeypatch):
    trees = cargo_spy(tmp_path, monkeypatch)
    write(project.crates / "fresh" / "Cargo.toml",
          '[package]\nname = "fresh"\nversion = "0.1.0"\nedition = "2021"\n')
    write(project.crates / "fresh" / "src" / "main.rs", "fn main() {}\n")
    generate_lockfile(project.root)  # rewrites Cargo.lock
    assert resolve.locked_deps(project, "fresh") == []
    assert keys.stale_reason(exp(project, "r1"), project) is None
    assert keys.stale_reason(exp(project, "r2"), project) is None
    assert trees() == [t for t in trees() if "-p fresh" in t] and len(trees()) == 1


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"okjson": {"key": "k", "deps": 5}}', ""])
def test_a_damaged_resolve_memo_is_asked_again(project, tmp_path, monkeypatch, damage):
    trees = cargo_spy(tmp_path, monkeypatch)
    memo = project.root / resolve.RESOLVE_FILE
    if damage.startswith('{"okjson"'):  # the right key, garbage where the answer goes
        key = json.loads(memo.read_text(encoding="utf-8"))["okjson"]["key"]
        damage = damage.replace('"k"', json.dumps(key))
    memo.write_text(damage, encoding="utf-8")
    resolve._RESOLVE.clear()
    assert keys.stale_reason(exp(project, "r1"), project) is None
    assert trees()  # cargo answered instead of the damaged file
    assert json.loads(memo.read_text(encoding="utf-8"))["okjson"]["deps"] == ["helper 0.1.0 local"]


def test_a_python_only_experiment_with_needs_records_a_new_crate_in_cargo_lock(tmp_path):
    root = make_workspace(tmp_path / "proj", crates=("helper",))
    generate_lockfile(root)
    write_crate(root, "okvec2", "fn main() { println!(\"{{}}\"); }\n")  # not in Cargo.lock yet
    manifest(root, "measure", "needs: [okvec2]\npython:\n  script: ok.py\n")
    book = scratch_book(root)
    assert build(book, log=lambda s: None) == []
    assert 'name = "okvec2"' in (root / "Cargo.lock").read_text(encoding="utf-8")


def test_what_a_script_reads_besides_itself_is_an_input(tmp_path):
    """A sibling module the script imports, and the data of a crate it opens by path, are in
    its key (as they are in its download package): editing either makes the entry stale."""
    root = make_workspace(tmp_path / "proj", crates=("helper", "okvec"))
    write(root / "experiments" / "shared_mod.py", "VALUE = 1\n")
    write(root / "crates" / "okvec" / "data" / "x.txt", "1\n")
    write(root / "experiments" / "reads.py",
          "import json, sys\nfrom pathlib import Path\n"
          "sys.path.insert(0, str(Path(__file__).parent))  # python -I leaves it out\n"
          "import shared_mod\n"
          "ROOT = Path(__file__).resolve().parents[1]\n"
          "d = (ROOT / 'crates' / 'okvec' / 'data' / 'x.txt').read_text()\n"
          "print(json.dumps({'v': shared_mod.VALUE, 'd': d}))\n")
    manifest(root, "reads", "python:\n  script: reads.py\n")
    book = scratch_book(root)
    assert build(book, log=lambda s: None) == []
    assert keys.stale_reason(exp(book, "reads"), book) is None
    append(root / "experiments" / "shared_mod.py", "# edited\n")
    assert "experiments/shared_mod.py" in keys.stale_reason(exp(book, "reads"), book)
    assert build(book, log=lambda s: None) == []
    append(root / "crates" / "okvec" / "data" / "x.txt", "2\n")
    assert "crates/okvec/data/x.txt" in keys.stale_reason(exp(book, "reads"), book)


@pytest.mark.parametrize("damage", ["{not json", "[1, 2]", '{"x": 5}', ""])
def test_damaged_resolve_keys_are_worked_out_again(project, damage):
    """target/.book-resolve-keys.json (the lock walks of earlier runs): truncated or garbage,
    it is ignored and rewritten; the keys are the ones a run without it computes."""
    disk = project.target / ".book-resolve-keys.json"
    resolve._RESOLVE_KEYS.clear()
    disk.unlink(missing_ok=True)
    want = keys.inputs(exp(project, "r1"), project)["key"]
    disk.write_text(damage, encoding="utf-8")
    resolve._RESOLVE_KEYS.clear()
    assert keys.inputs(exp(project, "r1"), project)["key"] == want
    written = json.loads(disk.read_text(encoding="utf-8"))
    assert isinstance(written, dict) and written and all(len(v) == 64 for v in written.values())
