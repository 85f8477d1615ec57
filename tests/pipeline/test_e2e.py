"""Rerun real experiments into a scratch cache: each must keep the committed entry's promises.

Byte for byte wherever the manifest promises it (every experiment without cpu:, and any on
the CPU class that made its entry); flex-matmul's cpu: fields within tolerance elsewhere.
"""
import tomllib

import pytest

from book.commands import reproduce
from book.pipeline.build import build
from book.experiments.manifest import discover
from book.paths import Book
from scratch import E2E_IDS, REPO

# flex-matmul's page is about the CPU (cpu: fields); the others promise bytes on any machine.
IDS = E2E_IDS
BOOK = Book(REPO)
EXPS = {e.id: e for e in discover(BOOK)}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    out = tmp_path_factory.mktemp("outputs")
    lines = []
    problems = build(Book(outputs_dir=out), only=IDS, force=True, log=lines.append)
    assert problems == [], "\n".join(lines + problems)
    return out


@pytest.mark.parametrize("exp_id", IDS)
def test_rerun_keeps_the_committed_entry(fresh, exp_id):
    new_dir, old_dir = fresh / exp_id, REPO / "build_outputs" / exp_id
    assert "outcome.json" in {p.name for p in new_dir.iterdir()}
    assert reproduce.differences(EXPS[exp_id], BOOK, old_dir, new_dir) == []


def test_pinned_experiments_are_compared_byte_for_byte(fresh):
    # No cpu: declared: the rule is bytes on every machine, volatile.json aside.
    for exp_id in IDS[:3]:
        assert not EXPS[exp_id].cpu
        new_dir, old_dir = fresh / exp_id, REPO / "build_outputs" / exp_id
        for p in new_dir.iterdir():
            if p.name != "volatile.json":
                assert p.read_bytes() == (old_dir / p.name).read_bytes(), (exp_id, p.name)


def test_nothing_was_kept_aside(fresh):
    assert not (fresh / ".failed").exists()


def test_every_simd_twin_is_the_same_program():
    # crates/<x>-simd exists to show what burn's default features change: same source only.
    twins = sorted(p for p in (REPO / "crates").glob("*-simd") if (REPO / "crates" / p.name[:-5]).is_dir())
    assert twins, "no <x>-simd crates found"
    for twin in twins:
        base = REPO / "crates" / twin.name[:-len("-simd")]
        assert (twin / "src" / "main.rs").read_bytes() == (base / "src" / "main.rs").read_bytes(), twin.name


def test_sum_order_crates_differ_only_in_features():
    a = (REPO / "crates" / "sum-order" / "src" / "main.rs").read_bytes()
    b = (REPO / "crates" / "sum-order-simd" / "src" / "main.rs").read_bytes()
    assert a == b
    ta, tb = (tomllib.loads((REPO / "crates" / c / "Cargo.toml").read_text(encoding="utf-8"))
              for c in ("sum-order", "sum-order-simd"))
    assert {k: v for k, v in ta["package"].items() if k != "name"} == \
        {k: v for k, v in tb["package"].items() if k != "name"}
    fa, fb = ta["dependencies"]["burn"].pop("features"), tb["dependencies"]["burn"].pop("features")
    assert ta["dependencies"] == tb["dependencies"]
    assert set(fb) - set(fa) == {"default"} and set(fa) <= set(fb)
