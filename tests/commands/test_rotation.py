"""The rotating reproduction sample: besides test_e2e's fixed experiments, make test reruns
this commit's window of the rotation (book/commands/reproduce.py sample) and holds each
against its committed entry as make reproduce does. A consistent forgery (a number and its
hash edited together) in the sample fails here, naming the experiment and the file. The
ledger is read, never written."""
import json
import shutil

import pytest

from book.cache import entries, ledger
from book.commands import reproduce
from book.experiments.manifest import discover
from book.paths import Book, sha
from book.pipeline.build import build
from scratch import E2E_IDS as FIXED, REPO

BOOK = Book(REPO)
EXPS = {e.id: e for e in discover(BOOK)}
LEDGER_BEFORE = ledger.path(BOOK).read_bytes() if ledger.path(BOOK).is_file() else None
# The variant of burn the suite compiles anyway (test_e2e's fixed experiments'): the sample
# adds none.
SUITE = reproduce.suite_signatures(BOOK, FIXED)


def this_sample() -> list[tuple[str, str]]:
    return reproduce.sample(BOOK, reproduce.position(BOOK), FIXED)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """This commit's sample, rerun into a scratch cache: both sides, or the PyTorch side alone."""
    out = tmp_path_factory.mktemp("rotation")
    picks = this_sample()
    both = [i for i, how in picks if how == "both"]
    lines = []
    problems = build(Book(outputs_dir=out), only=both, force=True, log=lines.append) if both else []
    assert problems == [], "\n".join(lines + problems)
    for i, how in picks:
        if how == "python":
            reproduce.rerun_python(BOOK, EXPS[i], out)
    return out, picks


def test_the_sample_keeps_its_committed_entries(fresh):
    out, picks = fresh
    assert picks, "nothing to reproduce"
    problems = []
    for i, how in picks:
        problems += reproduce.differences(EXPS[i], BOOK, BOOK.outputs / i, out / i,
                                          only="python." if how == "python" else "")
    assert problems == [], "\n".join(problems)


def test_a_consistent_forgery_in_the_sample_fails(fresh, tmp_path):
    """Forge each sampled entry in a scratch copy: a number and the hash in hashes.json, so that
    the entry verifies; the comparison with the rerun names the experiment and the file."""
    out, picks = fresh
    for i, how in picks:
        forged = tmp_path / i
        shutil.copytree(BOOK.outputs / i, forged)
        side = forged_file(forged, how)
        text = (forged / side).read_text(encoding="utf-8")
        edited = forge(text)
        assert edited != text
        (forged / side).write_text(edited, encoding="utf-8")
        hashes = json.loads((forged / entries.HASH_FILE).read_text(encoding="utf-8"))
        hashes[side] = sha(edited.encode("utf-8"))
        (forged / entries.HASH_FILE).write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        assert entries.verify_entry(forged) == [], "the forgery must be consistent"
        found = reproduce.differences(EXPS[i], BOOK, forged, out / i, only="python." if how == "python" else "")
        assert any(i in p and side in p for p in found), (i, side, found)


def forged_file(d, how: str) -> str:
    """The side's output the forger edits: its JSON, else its printed text."""
    order = ["python.json", "python.txt", "python.stderr.txt"] if how == "python" else \
        ["burn.json", "python.json", "burn.txt", "burn.diagnostics.txt", "burn.stderr.txt"]
    return next(n for n in order if (d / n).is_file())


def forge(text: str) -> str:
    """The first digit of the text, changed (a number in a JSON output, or in a message)."""
    for n, ch in enumerate(text):
        if ch.isdigit():
            return text[:n] + ("1" if ch != "1" else "2") + text[n + 1:]
    return text + "forged\n"


def test_consecutive_commits_reach_every_eligible_experiment():
    cands = reproduce.eligible(BOOK, FIXED)
    rounds = -(-len(cands) // reproduce.SAMPLE_SIZE)
    here = reproduce.majority_class(BOOK, [i for i, _ in cands])
    reached = set()
    for pos in range(1000, 1000 + rounds):
        reached |= set(reproduce.sample(BOOK, pos, FIXED, here=here))
    assert reached == set(cands)
    assert len(cands) > 100  # PyTorch sides of every other feature set count


def test_the_suite_compiles_one_variant_of_burn():
    """The fixed experiments' crates share one build signature: a fresh clone compiles burn
    once for the whole suite (the archive tests' crates are theirs)."""
    assert len(SUITE) == 1, SUITE


def test_the_sample_adds_no_burn_variant():
    for i, how in this_sample():
        e = EXPS[i]
        if how == "both" and e.burn:
            assert reproduce.build_signature(BOOK, e) in SUITE, i
        assert not e.requires and not e.exclusive and not e.needs, i


def resolved(crate: str, root=REPO, locked: bool = True) -> set[str]:
    """Every package cargo builds for this crate, with the features it resolves for it (the
    crate's own line aside): equal sets compile the same variants."""
    import subprocess
    p = subprocess.run(["cargo", "tree", "-p", crate, "-e", "normal,build,features", "--prefix", "none",
                        "-f", "{p} {f}", "--offline"] + (["--locked"] if locked else []),
                       cwd=root, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return {ln.strip() for ln in p.stdout.splitlines()[1:] if ln.strip() and " feature " not in ln}


def test_the_signature_is_what_cargo_resolves(tmp_path):
    """A crate in the sample builds exactly the packages and features the suite's crates do
    (cargo's own answer, read from `cargo tree`). A crate with burn's features but no
    serde_json of its own, as six were, resolves serde_json's features otherwise and would
    compile burn a second time: shown in a scratch workspace, where its signature differs too."""
    fixed = [EXPS[i].burn["crate"] for i in FIXED if EXPS[i].burn]
    want = resolved(fixed[0])
    assert all(resolved(c) == want for c in fixed[1:])
    both = [i for i, how in reproduce.eligible(BOOK, FIXED) if how == "both" and EXPS[i].burn]
    for i in both[::10]:
        assert resolved(EXPS[i].burn["crate"]) == want, i

    e = EXPS[FIXED[0]]
    ws = tmp_path / "ws"
    shutil.copytree(BOOK.crates / e.burn["crate"], ws / "crates" / "same")
    shutil.copy(REPO / "Cargo.toml", ws / "Cargo.toml")
    shutil.copy(REPO / "Cargo.lock", ws / "Cargo.lock")
    bare = ws / "crates" / "bare"
    shutil.copytree(ws / "crates" / "same", bare)
    for d, name in ((ws / "crates" / "same", "same"), (bare, "bare")):
        toml = d / "Cargo.toml"
        text = toml.read_text(encoding="utf-8").replace(f'name = "{e.burn["crate"]}"', f'name = "{name}"')
        toml.write_text(text.replace("serde_json.workspace = true\n", "") if name == "bare" else text,
                        encoding="utf-8")
    assert "serde_json" not in (bare / "Cargo.toml").read_text(encoding="utf-8")
    assert resolved("same", ws, locked=False) == want
    assert resolved("bare", ws, locked=False) != want
    scratch = Book(ws, outputs_dir=tmp_path / "out")
    import dataclasses
    sig = lambda crate: reproduce.build_signature(scratch, dataclasses.replace(e, burn=dict(e.burn, crate=crate)))
    assert sig("same") in SUITE and sig("bare") not in SUITE


def test_on_another_cpu_class_cpu_fields_and_the_unreproduced_come_first(tmp_path):
    here = "AuthenticAMD AVX2"
    picks = reproduce.sample(BOOK, 0, FIXED, here=here)
    keys = {i: json.loads((BOOK.outputs / i / "inputs.json").read_text("utf-8"))["key"] for i, _ in picks}
    done = ledger.current(BOOK, keys)
    assert all(EXPS[i].cpu or here not in done.get(i, {}) for i, _ in picks), picks
    # On the class that made the entries, the plain rotation.
    made = reproduce.majority_class(BOOK, list(EXPS))
    cands = reproduce.eligible(BOOK, FIXED)
    assert reproduce.sample(BOOK, 0, FIXED, here=made) == cands[:reproduce.SAMPLE_SIZE]


def test_make_test_never_writes_the_ledger(fresh):
    # The sample ran (the fixture); the ledger is byte for byte what it was (CI cannot commit).
    now = ledger.path(BOOK).read_bytes() if ledger.path(BOOK).is_file() else None
    assert now == LEDGER_BEFORE


def test_contributing_states_the_rotation_as_it_is():
    import re
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    cands = reproduce.eligible(BOOK, FIXED)
    both = sum(1 for _, how in cands if how == "both")
    want = {"共": len(cands), "两侧都重跑": both, "只重跑 PyTorch": len(cands) - both,
            "连续": -(-len(cands) // reproduce.SAMPLE_SIZE), "取": reproduce.SAMPLE_SIZE}
    got = {"共": r"共 (\d+) 个；", "两侧都重跑": r"（(\d+) 个）两侧都重跑", "只重跑 PyTorch": r"（(\d+) 个）只重跑 PyTorch",
           "连续": r"连续 (\d+) 个提交覆盖", "取": r"开始取 (\d+) 个"}
    for k, pat in got.items():
        m = re.search(pat, text)
        assert m and int(m.group(1)) == want[k], f"CONTRIBUTING 的「复现」一节：{k} 应为 {want[k]}，写的是 {m and m.group(1)}"
