"""What a long build is doing, for the author watching it: which burn feature sets compile for
the first time (and for which experiments), a line every half minute while work runs, and
how long each first compile took.

running/sides.py marks what each experiment is doing (`doing`); the runner starts a `Heartbeat` around
its batches. First compiles are known from markers in target/.book-features/: one per
(profile, feature set) that has built once in this target dir.
"""
import hashlib
import json
import os
import threading
import time

from ..paths import Book

INTERVAL_S = float(os.environ.get("BOOK_HEARTBEAT_S", "30"))
_ACTIVE: dict[str, tuple[str, float]] = {}  # experiment id → (what it is doing, since)
_LOCK = threading.Lock()
LOG = [print]  # the runner's log function while it builds


def say(msg: str) -> None:
    LOG[0](msg)


def doing(exp_id: str, what: str | None) -> None:
    with _LOCK:
        if what is None:
            _ACTIVE.pop(exp_id, None)
        else:
            _ACTIVE[exp_id] = (what, time.monotonic())


def feature_key(exp) -> tuple[str, tuple[str, ...]]:
    return exp.burn["profile"], tuple(sorted(exp.burn["features"]))


def _marker(book: Book, key) -> "os.PathLike":
    digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]
    return book.target / ".book-features" / digest


def compiled_before(book: Book, exp) -> bool:
    return _marker(book, feature_key(exp)).is_file()


def mark_compiled(book: Book, exp) -> None:
    m = _marker(book, feature_key(exp))
    m.parent.mkdir(parents=True, exist_ok=True)
    m.write_text(json.dumps(feature_key(exp)), encoding="utf-8")


def describe(key) -> str:
    profile, feats = key
    return f"{profile}，features [{', '.join(feats)}]"


def announce(book: Book, exps, log) -> None:
    """Before a batch: the feature sets that compile burn from scratch here, and for whom."""
    groups: dict = {}
    for e in exps:
        if e.burn and not compiled_before(book, e):
            groups.setdefault(feature_key(e), []).append(e.id)
    for key, ids in groups.items():
        log(f"  编译     burn（{describe(key)}）：这个 target 目录里没有它编译过的记录，"
            f"第一次编译要几分钟；用到它的实验：{', '.join(ids)}")


def _clock(s: float) -> str:
    s = int(s)
    return f"{s // 60} 分 {s % 60:02d} 秒" if s >= 60 else f"{s} 秒"


class Heartbeat:
    """Every INTERVAL_S seconds, one line per running experiment: what and for how long."""

    def __init__(self, log, interval: float | None = None):
        self.log, self.interval = log, INTERVAL_S if interval is None else interval
        self.stop = threading.Event()
        self.t0 = time.monotonic()
        self.thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def _beat(self):
        while not self.stop.wait(self.interval):
            with _LOCK:
                active = sorted(_ACTIVE.items())
            now = time.monotonic()
            for exp_id, (what, since) in active:
                self.log(f"  …        {exp_id:28} {what}，已 {_clock(now - since)}"
                         f"（构建已进行 {_clock(now - self.t0)}）")
