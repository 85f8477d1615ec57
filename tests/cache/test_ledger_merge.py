"""Merging the shards' findings into the ledger: idempotent, order-independent, refusing
findings that disagree and findings for inputs that are gone."""
import json
import random
import subprocess
import sys

import pytest

from book.cache import ledger
from book.cache.ledger_merge import merge, read_findings
from book.errors import BookError
from book.paths import Book
from scratch import REPO


def finding(i, key, status="held", cpu="GenuineIntel AVX-512", date="2026-12-04"):
    return {"id": i, "key": key, "commit": "c0ffee", "cpu": cpu, "date": date, "status": status}


KEYS = {"a": "ka", "b": "kb", "c": "kc"}


@pytest.fixture
def book(tmp_path):
    (tmp_path / "build_outputs").mkdir()
    return Book(root=tmp_path)


def test_merging_twice_or_in_any_order_gives_one_ledger(book):
    found = [finding("a", "ka"), finding("b", "kb", cpu="AuthenticAMD AVX-512"),
             finding("c", "kc", status="failed"), finding("b", "kb", date="2026-12-03")]
    added, _ = merge(book, found, KEYS)
    ledger.append(book, added)
    once = ledger.path(book).read_text(encoding="utf-8")
    assert [(r["id"], r["cpu"]) for r in ledger.read(book)] == [
        ("b", "GenuineIntel AVX-512"), ("a", "GenuineIntel AVX-512"), ("b", "AuthenticAMD AVX-512")]
    # Again, shuffled: nothing new.
    for seed in range(3):
        random.Random(seed).shuffle(found)
        again, _ = merge(book, found, KEYS)
        assert again == []
    # A fresh ledger from the shuffled findings: the same bytes.
    other = Book(root=book.root.parent / "other")
    (other.root / "build_outputs").mkdir(parents=True)
    ledger.append(other, merge(other, found, KEYS)[0])
    assert ledger.path(other).read_text(encoding="utf-8") == once


def test_findings_that_disagree_are_refused_named(book):
    with pytest.raises(BookError, match="a：在 GenuineIntel AVX-512 上，有的机器复现了，有的没有"):
        merge(book, [finding("a", "ka"), finding("a", "ka", status="failed")], KEYS)
    # Two classes may differ (declared cpu: fields are another matter): that is no conflict.
    merge(book, [finding("a", "ka"), finding("a", "ka", status="failed", cpu="AuthenticAMD AVX-512")], KEYS)
    assert ledger.read(book) == []


def test_a_finding_for_inputs_that_are_gone_is_refused(book):
    with pytest.raises(BookError, match="a：记录的键 kold… 不是条目现在的键 ka…"):
        merge(book, [finding("a", "kold"), finding("b", "kb")], KEYS)
    assert ledger.read(book) == []  # nothing half-merged


def test_an_experiment_every_shard_skipped_is_reported_unrun(book):
    added, unrun = merge(book, [finding("a", "ka", status="skipped"), finding("b", "kb")], KEYS)
    assert unrun == ["a"] and [r["id"] for r in added] == ["b"]


def test_the_command_merges_files_and_refuses_a_bad_line(book, tmp_path):
    good = tmp_path / "s1.jsonl"
    good.write_text(json.dumps(finding("a", "ka")) + "\n", encoding="utf-8")
    bad = tmp_path / "s2.jsonl"
    bad.write_text('{"id": "a"}\n', encoding="utf-8")
    with pytest.raises(BookError, match="s2.jsonl 第 1 行不是一条分片的记录"):
        read_findings(bad)
    p = subprocess.run([sys.executable, "-m", "book.commands.ledger_merge", str(bad)], cwd=REPO,
                       capture_output=True, text=True)
    assert p.returncode == 2 and "s2.jsonl 第 1 行" in p.stderr
    assert read_findings(good)[0]["status"] == "held"
