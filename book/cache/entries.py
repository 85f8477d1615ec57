"""An entry of build_outputs/: written whole or not at all, every file sealed with its sha256
(hashes.json; volatile.json carries its own), verified byte by byte, and what an interrupted
build left behind undone."""
import json
import os
import shutil
from pathlib import Path

from ..paths import Book, sha
from ..running import normalize

# sha256 of every other file of the entry; volatile.json carries its own (it changes each run).
HASH_FILE = "hashes.json"
VOLATILE_FILE = "volatile.json"
SELF_HASH = "sha256"


def entry_dir(book: Book, exp_id: str) -> Path:
    return book.outputs / exp_id


def recover(book: Book):
    """Undo what an interrupted build left: half-written temp dirs and swapped-out entries."""
    for parent in (book.outputs, book.outputs / ".failed"):
        if parent.is_dir():
            _recover_dir(parent)


def _recover_dir(parent: Path):
    for p in parent.iterdir():
        if p.name.startswith(".tmp-"):
            shutil.rmtree(p, ignore_errors=True)
        elif p.name.startswith(".old-"):
            live = parent / p.name[len(".old-"):]
            if live.exists():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.rename(live)


def seal(files: dict[str, str]) -> dict[str, str]:
    """The entry's files plus their hashes: hashes.json, and volatile.json's own field."""
    files = dict(files)
    if VOLATILE_FILE in files:
        vol = json.loads(files[VOLATILE_FILE])
        vol.pop(SELF_HASH, None)
        vol[SELF_HASH] = sha(normalize.dump_json(vol).encode())
        files[VOLATILE_FILE] = normalize.dump_json(vol)
    hashes = {n: sha(c.encode("utf-8")) for n, c in sorted(files.items()) if n != VOLATILE_FILE}
    files[HASH_FILE] = normalize.dump_json(hashes)
    return files


def verify_entry(d: Path) -> list[str]:
    """Every problem with a stored entry's bytes: edited, truncated, missing, extra, unparsable."""
    if not d.is_dir():
        return ["目录不存在"]
    problems = []
    try:
        hashes = json.loads((d / HASH_FILE).read_text(encoding="utf-8"))
        if not isinstance(hashes, dict):
            raise ValueError
    except OSError:
        return [f"缺少 {HASH_FILE}（无法核对任何文件）"]
    except ValueError:
        return [f"{HASH_FILE} 不是合法的 JSON（无法核对任何文件）"]
    present = {p.name for p in d.iterdir()}
    for name in sorted(hashes):
        if name not in present:
            problems.append(f"缺少 {name}")
            continue
        data = (d / name).read_bytes()
        if sha(data) != hashes[name]:
            broken = name.endswith(".json") and not _parses(data)
            problems.append(f"{name} 和记录的 sha256 不符（被改动或截断"
                            + ("，而且不是合法的 JSON" if broken else "") + "）")
    if VOLATILE_FILE not in present:
        problems.append(f"缺少 {VOLATILE_FILE}")
    else:
        problems += _verify_volatile(d / VOLATILE_FILE)
    for name in sorted(present - set(hashes) - {HASH_FILE, VOLATILE_FILE}):
        problems.append(f"多出文件 {name}（不是这次运行写的）")
    return problems


def _parses(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8"))
        return True
    except (UnicodeDecodeError, ValueError):
        return False


def _verify_volatile(p: Path) -> list[str]:
    try:
        vol = json.loads(p.read_text(encoding="utf-8"))
        if not isinstance(vol, dict):
            raise ValueError
    except (UnicodeDecodeError, ValueError):
        return [f"{VOLATILE_FILE} 不是合法的 JSON"]
    want = vol.pop(SELF_HASH, None)
    if want is None:
        return [f"{VOLATILE_FILE} 没有自己的 {SELF_HASH} 字段"]
    if sha(normalize.dump_json(vol).encode()) != want:
        return [f"{VOLATILE_FILE} 和它记录的 sha256 不符（被改动）"]
    return []


def write_entry(book: Book, exp_id: str, files: dict[str, str], dest: Path | None = None):
    """Write all files of an entry (sealed with their hashes) to a temp dir, then swap it in."""
    files = seal(files)
    dest = dest or entry_dir(book, exp_id)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.parent / f".tmp-{exp_id}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for name, content in files.items():
        (tmp / name).write_text(content, encoding="utf-8")
    # Sync so that a crash after the rename cannot leave empty files behind.
    for f in tmp.iterdir():
        with open(f, "rb") as fh:
            os.fsync(fh.fileno())
    old = dest.parent / f".old-{dest.name}"
    if dest.exists():
        shutil.rmtree(old, ignore_errors=True)
        dest.rename(old)
    tmp.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
