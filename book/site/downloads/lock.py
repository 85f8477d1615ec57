"""The Cargo.lock of a standalone crate: cut by cargo's offline resolver from the workspace's
(so no version moves), checked against it, and memoised in target/.book-archive/."""
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

from ...cache import resolve
from ...paths import SKIP_DIRS, Book, read_sealed, write_sealed
from . import fail as _fail
from .manifest import package_name, standalone_toml


def _lock_packages(text: str) -> dict:
    return {(p["name"], p["version"]): p for p in tomllib.loads(text).get("package", [])}


def _reachable(lock_text: str, name: str) -> list:
    """The workspace lock's entries reachable from a member (over every edge any feature adds),
    as (name, version, checksum) triples: the key of the crate's lock slice."""
    info, _ = resolve.lock_graph(lock_text)
    return [[n, v, info[(n, v)].get("checksum", "local")] for n, v in resolve.reachable(lock_text, name)]


def lock_slice(book: Book, crate: str, exp_id: str) -> str:
    """The Cargo.lock cargo writes for the standalone crate, seeded with the workspace's
    (so no version moves): only the packages this crate resolves to. cargo's offline
    resolver is the only judge of that (features and targets decide it); memoised."""
    toml_text = standalone_toml(book, crate, exp_id)
    lock_text = book.cargo_lock.read_text(encoding="utf-8")
    # Keyed on the part of the workspace lock this crate can reach: a crate added elsewhere
    # (which rewrites Cargo.lock) does not send every crate back to cargo.
    reach = json.dumps(_reachable(lock_text, package_name(book, crate)), sort_keys=True)
    key = hashlib.sha256((reach + "\0" + toml_text).encode()).hexdigest()[:20]
    memo = book.target / ".book-archive" / crate
    hit = read_sealed(memo, key, ".lock")
    if hit is not None:
        return hit.decode("utf-8")
    src = book.crates / crate
    with tempfile.TemporaryDirectory(prefix="book-lock-") as d:
        work = Path(d) / crate
        shutil.copytree(src, work, ignore=shutil.ignore_patterns(*SKIP_DIRS))
        (work / "Cargo.toml").write_text(toml_text, encoding="utf-8")
        (work / "Cargo.lock").write_text(lock_text, encoding="utf-8")
        env = dict(os.environ, CARGO_TARGET_DIR=str(Path(d) / "target"), CARGO_TERM_COLOR="never")
        p = subprocess.run(["cargo", "metadata", "--offline", "--format-version", "1"],
                           cwd=work, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            _fail(exp_id, f"cargo 没能给独立的 crates/{crate} 切出 Cargo.lock（先运行 make site 下载依赖）：\n"
                          + p.stderr.strip())
        sliced = (work / "Cargo.lock").read_text(encoding="utf-8")
    ws_pkgs = _lock_packages(lock_text)
    for (name, version), pkg in _lock_packages(sliced).items():
        theirs = ws_pkgs.get((name, version))
        if "source" not in pkg and name != package_name(book, crate):
            _fail(exp_id, f"独立的 crates/{crate} 用到了本地包 {name}，下载包里没有它")
        if "source" in pkg and (theirs is None or theirs.get("checksum") != pkg.get("checksum")
                                or theirs.get("source") != pkg.get("source")):
            _fail(exp_id, f"切出的 Cargo.lock 里有 {name} {version}，和工作区的 Cargo.lock 不一致："
                          "cargo 挪动了锁定的版本（先运行 make site）")
    write_sealed(memo, key, ".lock", sliced.encode("utf-8"), stale=memo.glob("*.lock"))
    return sliced
