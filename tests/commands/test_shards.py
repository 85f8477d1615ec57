"""A reproduction matrix: the shards of `make reproduce SHARD=k/N` cover every experiment once,
and N shard processes, each in its own copy of a scratch book, merged, give what one
`make reproduce` of the same set gives. A shard given hardware its machine lacks skips."""
import json
import shutil
import subprocess
import sys

import pytest

from book import hardware
from book.errors import BookError
from book.experiments.manifest import discover
from book.paths import Book
from book.pipeline import shards
from scratch import REPO, built_book

PY = "python:\n  script: {s}\n"
EXPS = {
    "s-ok": PY.format(s="ok.py"),
    "s-vec": PY.format(s="vec.py"),
    "s-off": PY.format(s="off.py"),
    "s-pair": PY.format(s="vec.py") + "burn:\n  crate: okvec\ncompare:\n  tol: 0\n  why: \"测试\"\n",
    "s-gpu": PY.format(s="ok.py") + "requires: [cuda]\n",
}


def test_the_books_shards_cover_every_experiment_once():
    book = Book(REPO)
    exps = discover(book)
    groups = sorted({shards.hardware_group(e) for e in exps if e.requires})
    for n in (1, 2, 3, 5):
        parts = [shards.select(book, exps, f"{k}/{n}", None) for k in range(1, n + 1)]
        parts += [shards.select(book, exps, None, g) for g in groups]
        flat = [i for p in parts for i in p]
        assert sorted(flat) == sorted(e.id for e in exps), n
        assert parts[:n] == [shards.select(book, exps, f"{k}/{n}", None) for k in range(1, n + 1)]
        # Balanced by the recorded times: no part longer than the shortest plus the longest item.
        secs = {e.id: shards.recorded_seconds(book, e.id) for e in exps}
        loads = [sum(secs[i] for i in p) for p in parts[:n]]
        assert max(loads) <= min(loads) + max(secs.values()) + 1e-9


@pytest.mark.parametrize("shard, hw, words", [("0/2", None, "SHARD 要写成 k/N"), ("3/2", None, "k/N"),
                                              ("x", None, "k/N"), (None, "tpu", "没有实验需要它")])
def test_a_bad_shard_or_label_is_refused(shard, hw, words):
    book = Book(REPO)
    with pytest.raises(BookError, match=words):
        shards.select(book, discover(book), shard, hw)


def _copy(src, dst):
    shutil.copytree(src, dst, symlinks=True)
    # The shard runs this book's code, from its own copy: Book's root is where book/ is.
    shutil.copytree(REPO / "book", dst / "book", ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def _reproduce(root, *args):
    return subprocess.run([sys.executable, "-m", "book.commands.reproduce", *args], cwd=root,
                          capture_output=True, text=True)


def test_shards_merged_give_what_one_run_gives(tmp_path):
    src = tmp_path / "book"
    built_book(src, EXPS, crates=("okvec",))
    # One entry broken in the commit: it fails in every run alike.
    (src / "build_outputs" / "s-off" / "python.json").write_text('{\n "x": 9.0\n}\n', encoding="utf-8")
    whole = _copy(src, tmp_path / "whole")
    p = _reproduce(whole, "--records", str(tmp_path / "whole.jsonl"))
    assert p.returncode == 1, p.stderr
    runs = []
    for k in (1, 2):
        d = _copy(src, tmp_path / f"shard{k}")
        runs.append(_reproduce(d, "--shard", f"{k}/2", "--records", str(tmp_path / f"s{k}.jsonl")))
    gpu = _copy(src, tmp_path / "gpu")
    runs.append(_reproduce(gpu, "--hardware", "cuda", "--records", str(tmp_path / "gpu.jsonl")))
    target = _copy(src, tmp_path / "merged")
    files = [str(tmp_path / n) for n in ("s1.jsonl", "s2.jsonl", "gpu.jsonl")]
    m = subprocess.run([sys.executable, "-m", "book.commands.ledger_merge", *files], cwd=target,
                       capture_output=True, text=True)
    assert m.returncode == 0, m.stderr

    def read(path):
        return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]

    strip = lambda recs: sorted((r["id"], r["key"], r["cpu"]) for r in recs)  # noqa: E731
    merged = read(target / "build_outputs" / "reproductions.jsonl")
    one = read(whole / "build_outputs" / "reproductions.jsonl")
    assert strip(merged) == strip(one) and {r["id"] for r in one} == {"s-ok", "s-vec", "s-pair"}
    statuses = lambda recs: sorted((r["id"], r["status"]) for r in recs)  # noqa: E731
    shard_found = [f for n in files for f in read(tmp_path / n.rsplit("/", 1)[-1]) if f["status"] != "skipped"]
    assert statuses(shard_found) == statuses(read(tmp_path / "whole.jsonl"))
    assert ("s-off", "failed") in statuses(shard_found)
    # The hardware shard on a machine without cuda: skipped, said so, never in the ledger.
    if not hardware.available("cuda"):
        assert [(f["id"], f["status"]) for f in read(tmp_path / "gpu.jsonl")] == [("s-gpu", "skipped")]
        assert "跳过 s-gpu：这台机器没有 cuda" in runs[2].stdout and runs[2].returncode == 0
        assert "没有一台机器能跑 s-gpu" in m.stdout
        assert "s-gpu" not in {r["id"] for r in merged}
