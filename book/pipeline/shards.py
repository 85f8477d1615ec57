"""Which experiments one machine of a reproduction matrix reruns: `SHARD=k/N` takes the k-th
of N parts of the experiments that need no hardware, balanced by the run times their entries
recorded; `HARDWARE=<label>` takes the experiments whose first required label (sorted) is that
one. Every experiment falls in exactly one part: in one shard, or in one hardware group. The
same inputs give the same parts on every machine, so the shards need not talk to each other."""
import json
import re

from ..errors import BookError
from ..experiments.manifest import Experiment
from ..paths import Book

SHARD_RE = re.compile(r"^([1-9][0-9]*)/([1-9][0-9]*)$")
# An entry without recorded times (never built here) counts as this many seconds.
UNKNOWN_SECONDS = 30.0


def parse_shard(text: str) -> tuple[int, int]:
    m = SHARD_RE.match(text or "")
    if not m or int(m.group(1)) > int(m.group(2)):
        raise BookError(f"SHARD 要写成 k/N（1 ≤ k ≤ N），得到 {text!r}")
    return int(m.group(1)), int(m.group(2))


def _numbers(v) -> float:
    if isinstance(v, bool):
        return 0.0
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, dict):
        return sum(_numbers(x) for x in v.values())
    return 0.0


def recorded_seconds(book: Book, exp_id: str) -> float:
    """The seconds its committed entry took (volatile.json's "seconds": build and run, both sides)."""
    try:
        vol = json.loads((book.outputs / exp_id / "volatile.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return UNKNOWN_SECONDS
    s = _numbers(vol.get("seconds"))
    return s if s > 0 else UNKNOWN_SECONDS


def hardware_group(exp: Experiment) -> str | None:
    """The label whose machines rerun it: its first required label, sorted; None for none."""
    return sorted(exp.requires)[0] if exp.requires else None


def partition(exps: list[Experiment], n: int, seconds: dict[str, float]) -> list[list[str]]:
    """N parts of the experiments that need no hardware: longest first, each into the part with
    the least time so far (the lowest-numbered on a tie); each part sorted by id."""
    parts: list[list[str]] = [[] for _ in range(n)]
    load = [0.0] * n
    free = [e for e in exps if not e.requires]
    for e in sorted(free, key=lambda e: (-seconds.get(e.id, UNKNOWN_SECONDS), e.id)):
        k = min(range(n), key=lambda i: (load[i], i))
        parts[k].append(e.id)
        load[k] += seconds.get(e.id, UNKNOWN_SECONDS)
    return [sorted(p) for p in parts]


def select(book: Book, exps: list[Experiment], shard: str | None, hardware: str | None) -> list[str]:
    """The ids one machine reruns: its shard's part, and the hardware group it was given."""
    ids: list[str] = []
    if shard:
        k, n = parse_shard(shard)
        seconds = {e.id: recorded_seconds(book, e.id) for e in exps}
        ids += partition(exps, n, seconds)[k - 1]
    if hardware:
        known = sorted({lbl for e in exps for lbl in e.requires})
        if hardware not in known:
            raise BookError(f"HARDWARE={hardware}：没有实验需要它；实验需要的硬件是 {known}")
        ids += sorted(e.id for e in exps if hardware_group(e) == hardware)
    return ids
