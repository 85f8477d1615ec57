"""book.commands.reproduce: byte for byte, except declared cpu: fields on another CPU class."""
import json

import pytest

from book.commands import reproduce
from book.experiments.manifest import Experiment
from book.paths import Book
from scratch import REPO

BOOK = Book(REPO)


def entry(d, simd, burn, stderr="warn\n", ok=True):
    d.mkdir(parents=True)
    files = {
        "burn.json": burn,
        "python.json": {"sum": 0.25, "n": 3},
        "provenance.json": {"burn": "0.22.1", "cpu": {"arch": "x86_64", "vendor": "GenuineIntel", "simd": simd,
                                                      "torch_capability": simd.replace("-", "")}},
        "outcome.json": {"burn": {"actual": {"status": "ok"}}, "python": {"actual": {"status": "ok"}},
                         "compare": {"ok": ok}},
        "compare.json": {"worst": burn["sum"] - 0.25},
        "volatile.json": {"ran_at": simd},
    }
    for name, v in files.items():
        (d / name).write_text(json.dumps(v))
    (d / "burn.stderr.txt").write_text(stderr)
    return d


def exp(cpu):
    return Experiment(id="s", manifest=REPO / "x.yaml", page=None, about="", timeout=1,
                      python={"script": "x.py"}, burn={"crate": "x"}, mutation=None, cpu=cpu,
                      compare={"tol": 1e-4, "tols": {}, "fields": None, "why": "", "expect": "match"})


BASE = {"sum": 0.2500, "n": 3, "fnv": 5}


@pytest.mark.parametrize("burn, cpu, simd, stderr, ok, want", [
    # Same class: bytes, even for declared fields.
    ({"sum": 0.25001, "n": 3, "fnv": 5}, ["burn.sum"], "AVX-512", "warn\n", True, "burn.json"),
    # Another class: declared fields within tolerance hold...
    ({"sum": 0.25003, "n": 3, "fnv": 5}, ["burn.sum"], "AVX2", "warn\n", True, None),
    # ...outside it do not,
    ({"sum": 0.2502, "n": 3, "fnv": 5}, ["burn.sum"], "AVX2", "warn\n", True, "超出容差"),
    # nor does any undeclared field, nor a text, nor a verdict.
    ({"sum": 0.25003, "n": 4, "fnv": 5}, ["burn.sum"], "AVX2", "warn\n", True, "cpu: 以外的字段变了：n"),
    ({"sum": 0.25003, "n": 3, "fnv": 5}, ["burn.sum"], "AVX2", "other\n", True, "burn.stderr.txt"),
    ({"sum": 0.25003, "n": 3, "fnv": 5}, ["burn.sum"], "AVX2", "warn\n", False, "比较的结论变了"),
    # A declared hash of the bits may differ outright; an undeclared one may not.
    ({"sum": 0.25003, "n": 3, "fnv": 7}, ["burn.sum", "burn.fnv"], "AVX2", "warn\n", True, None),
    ({"sum": 0.25003, "n": 3, "fnv": 7}, ["burn.sum"], "AVX2", "warn\n", True, "fnv"),
    # Without cpu: the class does not matter: bytes.
    ({"sum": 0.25003, "n": 3, "fnv": 5}, [], "AVX2", "warn\n", True, "burn.json"),
])
def test_differences(tmp_path, burn, cpu, simd, stderr, ok, want):
    old = entry(tmp_path / "old", "AVX-512", BASE)
    new = entry(tmp_path / "new", simd, burn, stderr, ok)
    got = reproduce.differences(exp(cpu), BOOK, old, new)
    if want is None:
        assert got == []
    else:
        assert len(got) >= 1 and any(want in g for g in got), got


def test_identical_entries_hold(tmp_path):
    old = entry(tmp_path / "old", "AVX-512", BASE)
    new = entry(tmp_path / "new", "AVX-512", BASE)
    (new / "volatile.json").write_text("{}")  # never compared
    assert reproduce.differences(exp([]), BOOK, old, new) == []


@pytest.mark.parametrize("cpu_tol, want", [
    # No compare: section and no cpu_tol: any move of a declared float is too much (tolerance 0),
    (None, "超出容差"),
    # cpu_tol measured wide enough holds,
    (1e-4, None),
    # and one too narrow names the field and the tolerance.
    (1e-6, "容差 1e-06"),
])
def test_cpu_tol_without_compare(tmp_path, cpu_tol, want):
    old = entry(tmp_path / "old", "AVX-512", BASE)
    new = entry(tmp_path / "new", "AVX2", {"sum": 0.25003, "n": 3, "fnv": 5})
    e = exp(["burn.sum"])
    e.compare, e.cpu_tol = None, cpu_tol
    got = reproduce.differences(e, BOOK, old, new)
    if want is None:
        assert got == []
    else:
        assert len(got) == 1 and want in got[0] and "burn.json" in got[0], got
