"""Cargo's answer to "what does this crate build with", memoised: the lock graph, each crate's
resolve key, and `cargo tree`'s answers in build_outputs/.resolve.json (committed, so a fresh
clone asks cargo nothing)."""
import json
import re
import subprocess
import tomllib
from pathlib import Path

from ..errors import BookError
from ..paths import Book, sha, write_atomic

TREE_LINE_RE = re.compile(r"^(\S+) v(\S+)(?: \(([^)]*)\))?")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")
# cargo tree's answers, keyed on what they are a function of (see locked_deps). Committed: a
# fresh clone then asks cargo nothing, and a new crate costs one `cargo tree` of its own.
RESOLVE_FILE = Path("build_outputs") / ".resolve.json"
_LOCK_GRAPHS: dict = {}
_RESOLVE: dict = {}
_RESOLVE_KEYS: dict = {}


def lock_graph(lock_text: str) -> tuple[dict, dict]:
    """Cargo.lock as (package → its entry, package → the packages its dependency lines name),
    packages as (name, version): every edge any feature could add. Once per lock text."""
    digest = sha(lock_text.encode())
    if digest not in _LOCK_GRAPHS:
        pkgs = tomllib.loads(lock_text).get("package", [])
        by_name: dict[str, list] = {}
        for p in pkgs:
            by_name.setdefault(p["name"], []).append(p)

        def find(dep: str):  # "name", "name version" or "name version (source)"
            parts = dep.split(" ")
            return [(p["name"], p["version"]) for p in by_name.get(parts[0], [])
                    if len(parts) == 1 or p["version"] == parts[1]][:1]
        info = {(p["name"], p["version"]): p for p in pkgs}
        edges = {k: [e for d in p.get("dependencies", []) for e in find(d)] for k, p in info.items()}
        _LOCK_GRAPHS.clear()
        _LOCK_GRAPHS[digest] = (info, edges)
    return _LOCK_GRAPHS[digest]


def reachable(lock_text: str, package: str) -> list[tuple[str, str]]:
    """The lock's packages reachable from a local package over every edge, sorted."""
    info, edges = lock_graph(lock_text)
    todo = [k for k, p in info.items() if k[0] == package and "source" not in p]
    seen = set()
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.add(k)
            todo += edges[k]
    return sorted(seen)


def resolve_key(book: Book, crate: str, lock_text: str) -> str:
    """What `cargo tree -p crate` depends on: the workspace and crate manifests, and the lock
    entries the crate can reach (versions, checksums, dependency lines; the registry's copy
    of each is fixed by its checksum). A crate added elsewhere leaves it unchanged."""
    toml = book.crates / crate / "Cargo.toml"
    text = toml.read_text("utf-8") if toml.is_file() else ""
    root_text = (book.root / "Cargo.toml").read_text("utf-8")
    memo_key = sha("\0".join([crate, sha(lock_text.encode()), root_text, text]).encode())
    if memo_key not in _RESOLVE_KEYS:
        # Walking the lock for every crate is most of a no-op build's time: the answers of
        # earlier runs are kept on disk, under a key of their three inputs.
        disk = book.target / ".book-resolve-keys.json"
        if not _RESOLVE_KEYS:
            _RESOLVE_KEYS.update(_read_keys(disk))
        if memo_key not in _RESOLVE_KEYS:
            name = tomllib.loads(text).get("package", {}).get("name", crate) if text else crate
            info, _ = lock_graph(lock_text)
            reach = [[n, v, info[(n, v)].get("checksum", "local"), info[(n, v)].get("dependencies", [])]
                     for n, v in reachable(lock_text, name)]
            _RESOLVE_KEYS[memo_key] = sha(json.dumps([root_text, text, reach]).encode())
            try:
                write_atomic(disk, json.dumps(_RESOLVE_KEYS))
            except OSError:
                pass
    return _RESOLVE_KEYS[memo_key]


def _read_keys(disk: Path) -> dict:
    """The remembered resolve keys, or {} when the file is missing, truncated or not ours:
    a damaged memo is worked out again, never trusted."""
    try:
        data = json.loads(disk.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str) and SHA_RE.match(v)}


def _resolve_memo(book: Book) -> dict:
    path = book.root / RESOLVE_FILE
    st = path.stat() if path.is_file() else None
    stamp = (st.st_size, st.st_mtime_ns) if st else None
    hit = _RESOLVE.get(book.root)
    if hit is None or hit[0] != stamp:
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if st else {}
        except ValueError:
            data = {}  # damaged: asked again, and written whole
        _RESOLVE[book.root] = (stamp, data if isinstance(data, dict) else {})
    return _RESOLVE[book.root][1]


def _save_resolve(book: Book, memo: dict) -> None:
    path = book.root / RESOLVE_FILE
    write_atomic(path, json.dumps(dict(sorted(memo.items())), indent=1, sort_keys=True) + "\n")
    st = path.stat()
    _RESOLVE[book.root] = ((st.st_size, st.st_mtime_ns), memo)


def locked_deps(book: Book, crate: str) -> list[str]:
    """The packages this crate really builds with, transitively: "name version checksum".

    Cargo.lock alone is not enough: it lists, for each package, the union of the optional
    dependencies that any workspace member turns on. `cargo tree -p` resolves features for
    this crate alone. Keying on its answer means another experiment's crate (which rewrites
    Cargo.lock) never makes this one stale. Answers are memoised in RESOLVE_FILE under
    resolve_key, which is exactly what the answer is a function of.
    """
    lock_text = book.cargo_lock.read_text(encoding="utf-8")
    key = resolve_key(book, crate, lock_text)
    memo = _resolve_memo(book)
    hit = memo.get(crate)
    if (isinstance(hit, dict) and hit.get("key") == key and isinstance(hit.get("deps"), list)
            and all(isinstance(d, str) for d in hit["deps"])):
        return list(hit["deps"])
    p = subprocess.run(["cargo", "tree", "-p", crate, "--prefix", "none", "-e", "normal,build",
                        "--locked", "--offline"], cwd=book.root, capture_output=True, text=True)
    if p.returncode != 0:
        raise BookError(f"cargo tree -p {crate} 失败（Cargo.lock 过期？先运行 make site）：{p.stderr.strip()}")
    info, _ = lock_graph(lock_text)
    seen = set()
    for line in p.stdout.splitlines()[1:]:  # the first line is the crate itself
        m = TREE_LINE_RE.match(line.strip())
        if m:
            pkg = info.get((m.group(1), m.group(2)), {})
            seen.add(f"{m.group(1)} {m.group(2)} {pkg.get('checksum', 'local')}")
    deps = sorted(seen)
    memo = dict(_resolve_memo(book))
    memo[crate] = {"key": key, "deps": deps}
    # Crates that are gone drop out, so the file follows the workspace.
    memo = {c: v for c, v in memo.items() if (book.crates / c / "Cargo.toml").is_file()}
    _save_resolve(book, memo)
    return deps


_LOCAL_CRATES: dict = {}


def local_crates(book: Book) -> dict[str, Path]:
    """Package name → directory, for the crates of this workspace. Asked once per
    experiment: memoised on the manifests' paths, sizes and mtimes."""
    tomls = sorted(book.crates.glob("*/Cargo.toml"))
    stamp = tuple((t, st.st_size, st.st_mtime_ns) for t in tomls for st in [t.stat()])
    hit = _LOCAL_CRATES.get(book.root)
    if hit and hit[0] == stamp:
        return dict(hit[1])
    out = {}
    for toml in tomls:
        name = tomllib.loads(toml.read_text(encoding="utf-8")).get("package", {}).get("name")
        if name:
            out[name] = toml.parent
    _LOCAL_CRATES[book.root] = (stamp, out)
    return dict(out)


def lock_has_members(book: Book) -> bool:
    """Whether Cargo.lock already records every crate of the workspace (no update needed)."""
    if not book.cargo_lock.is_file():
        return False
    lock = tomllib.loads(book.cargo_lock.read_text(encoding="utf-8"))
    names = {p["name"] for p in lock.get("package", []) if "source" not in p}
    return set(local_crates(book)) <= names
