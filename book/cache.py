"""The content-hash cache in build_outputs/: keys, atomic entries and the build lock."""
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tomllib
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from . import hardware, normalize
from .discover import Experiment
from .errors import BookError
from .paths import Book, write_atomic

# Bump when the engine changes what it writes into an entry: every entry goes stale.
ENGINE_VERSION = "7"
KEY_FILE = "inputs.json"
# sha256 of every other file of the entry; volatile.json carries its own (it changes each run).
HASH_FILE = "hashes.json"
VOLATILE_FILE = "volatile.json"
SELF_HASH = "sha256"
SKIP_DIRS = {"target", "__pycache__", ".git"}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=None)
def toolchain(python: str) -> dict:
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return "missing"
    return {
        "rustc": out(["rustc", "-V"]).removeprefix("rustc "),
        "cargo": out(["cargo", "-V"]).removeprefix("cargo "),
        "python": out([python, "-c", "import platform; print(platform.python_version())"]),
    }


def _files(path: Path):
    if path.is_file():
        yield path
        return
    for p in sorted(path.rglob("*")):
        if p.is_file() and not SKIP_DIRS & set(p.relative_to(path).parts):
            yield p


TREE_LINE_RE = re.compile(r"^(\S+) v(\S+)(?: \(([^)]*)\))?")


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
            try:
                _RESOLVE_KEYS.update(json.loads(disk.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                pass
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
    if isinstance(memo.get(crate), dict) and memo[crate].get("key") == key:
        return list(memo[crate]["deps"])
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


def inputs(exp: Experiment, book: Book) -> dict:
    """Every input of an experiment, each with its content hash."""
    # The comparator is an input only of experiments that compare.
    paths = [exp.manifest] + ([book.compare_script] if exp.compare else [])
    if exp.python:
        paths.append(exp.script)
    if exp.burn:
        paths += [exp.crate_dir(book), book.root / "Cargo.toml"]
        # Settings that change what cargo builds, when the project has them.
        paths += [p for p in (book.root / ".cargo" / "config.toml", book.root / "rust-toolchain.toml",
                              book.root / "rust-toolchain") if p.is_file()]
        # Path dependencies have no checksum in Cargo.lock: hash their sources instead.
        local_deps = [d.split(" ")[0] for d in locked_deps(book, exp.burn["crate"])
                      if d.endswith(" local")]
        local = local_crates(book) if local_deps else {}
        paths += [local[name] for name in local_deps if name in local]
    if exp.python:
        paths.append(book.pins)
    # Crates whose binaries the experiment runs: their sources and their Cargo.lock slices.
    paths += [book.crates / c for c in exp.needs]
    # What the script reads besides itself (a sibling module it imports, a crate's data/):
    # the same files its download package takes.
    from . import archive  # archive imports this module
    paths += [f for f in archive.script_files(book, exp)[1:]]
    paths += [book.crates / c for c in archive.crates_of(book, exp)
              if c not in exp.needs and c != (exp.burn or {}).get("crate")]
    files = {}
    for path in paths:
        for f in _files(path):
            files[f.relative_to(book.root).as_posix()] = sha(f.read_bytes())
    for crate in ([exp.burn["crate"]] if exp.burn else []) + exp.needs:
        files["Cargo.lock#" + crate] = sha("\n".join(locked_deps(book, crate)).encode())
    tools = dict(toolchain(book.python), engine=ENGINE_VERSION)
    if not exp.burn and not exp.needs:
        tools.pop("rustc"), tools.pop("cargo")
    if exp.python and exp.pins:
        tools["cpu_pins"] = hardware.CPU_PINS
    key = sha(json.dumps([files, tools], sort_keys=True).encode())
    return {"key": key, "files": files, "toolchain": tools}


def entry_dir(book: Book, exp_id: str) -> Path:
    return book.outputs / exp_id


def stored_inputs(book: Book, exp_id: str) -> dict | None:
    try:
        return json.loads((entry_dir(book, exp_id) / KEY_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def stale_reason(exp: Experiment, book: Book, current: dict | None = None,
                 verify: bool = True) -> str | None:
    """None when the cached entry is fresh; otherwise why it is not (verify=False: the
    caller has checked the entry's bytes already)."""
    current = current or inputs(exp, book)
    stored = stored_inputs(book, exp.id)
    if stored is None:
        return "没有缓存"
    if stored.get("key") == current["key"]:
        damage = verify_entry(entry_dir(book, exp.id)) if verify else []
        return "缓存损坏：" + "；".join(damage) if damage else None
    old, new = stored.get("files", {}), current["files"]
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    if changed:
        return "输入变了：" + ", ".join(changed[:5]) + (" …" if len(changed) > 5 else "")
    tools = [k for k in current["toolchain"] if stored.get("toolchain", {}).get(k) != current["toolchain"][k]]
    return "工具链变了：" + ", ".join(tools) if tools else "缓存键变了"


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


@contextmanager
def build_lock(book: Book, wait: bool = False, log=print):
    book.outputs.mkdir(parents=True, exist_ok=True)
    fh = open(book.outputs / ".lock", "w")
    try:
        fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if not wait:
            fh.close()
            raise BookError("另一个构建正在写 build_outputs/（锁文件 build_outputs/.lock）；"
                            "等它结束再运行，或加 --wait") from None
        log("另一个构建正在写 build_outputs/，等它结束……")
        fcntl.flock(fh, fcntl.LOCK_EX)
    try:
        recover(book)
        yield
    finally:
        fcntl.flock(fh, fcntl.LOCK_UN)
        fh.close()
