"""Links into burn's source at the resolved tag, with line numbers read from cargo's copy."""
import json
import os
import re
import tomllib
from functools import lru_cache
from pathlib import Path

from .errors import BookError
from .paths import Book

REPO = "https://github.com/tracel-ai/burn"
# Crates of burn's family published from repositories of their own: linked at the commit
# their package was made from (.cargo_vcs_info.json), at the version Cargo.lock resolved.
COMPANIONS = {"burn-onnx": "https://github.com/tracel-ai/burn-onnx"}
ITEM_KINDS = r"(?:fn|struct|enum|trait|type|const|static|mod|union|macro_rules!)"


@lru_cache(maxsize=None)
def burn_version(cargo_lock: Path) -> str:
    """The burn version cargo resolved: the one setting the version line and links follow."""
    lock = tomllib.loads(Path(cargo_lock).read_text(encoding="utf-8"))
    versions = {p["version"] for p in lock.get("package", []) if p["name"] == "burn"}
    if len(versions) != 1:
        raise BookError(f"Cargo.lock 里 burn 的版本应当恰好一个，得到 {sorted(versions)}")
    return versions.pop()


def registry_roots() -> list[Path]:
    home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    src = home / "registry" / "src"
    return sorted(src.iterdir()) if src.is_dir() else []


def crate_dir(crate: str, version: str) -> Path:
    for root in registry_roots():
        d = root / f"{crate}-{version}"
        if d.is_dir():
            return d
    raise BookError(f"找不到 {crate} {version} 的源码（cargo 的 registry/src 里没有 "
                    f"{crate}-{version}）；先运行 make site 或 cargo fetch")


def feature_closure(requested: list[str], version: str) -> list[str]:
    """The features of the burn crate that `requested` turns on, read from its Cargo.toml.

    Only burn's own features and optional deps named bare count ("x/y", "x?/y" and "dep:x"
    configure other crates); cargo reports exactly this set for a build of burn.
    """
    table = tomllib.loads((crate_dir("burn", version) / "Cargo.toml").read_text("utf-8"))
    feats = table.get("features", {})
    seen, todo = set(), list(requested)
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo += [x for x in feats.get(f, []) if "/" not in x and not x.startswith("dep:")]
    return sorted(seen)


def path_in_vcs(d: Path) -> str:
    info = d / ".cargo_vcs_info.json"
    try:
        return json.loads(info.read_text(encoding="utf-8"))["path_in_vcs"]
    except (OSError, ValueError, KeyError):
        raise BookError(f"{d} 没有 .cargo_vcs_info.json，无法对应到仓库里的路径") from None


def _item_end(lines: list[str], start: int) -> int:
    """The line (0-based) where the item that starts at `start` ends, by brace depth."""
    depth, opened = 0, False
    for i in range(start, len(lines)):
        code = re.sub(r'"(?:\\.|[^"\\])*"|//.*$', "", lines[i])
        for ch in code:
            if ch == "{":
                depth, opened = depth + 1, True
            elif ch == "}":
                depth -= 1
                if opened and depth == 0:
                    return i
        if not opened and code.rstrip().endswith(";"):
            return i
    return start


def _with_attrs(lines: list[str], start: int) -> int:
    """Include the doc comments and attributes right above an item."""
    while start > 0 and lines[start - 1].strip().startswith(("///", "#[")):
        start -= 1
    return start


def find_symbol(lines: list[str], symbol: str, is_toml: bool) -> tuple[int, int] | None:
    """1-based inclusive line range of the symbol, or None."""
    if is_toml:
        # "features.simd": the key simd under [features]; "[features]": the table header.
        if symbol.startswith("["):
            pat = re.compile(rf"^\s*{re.escape(symbol)}\s*$")
        else:
            table, _, key = symbol.rpartition(".")
            pat = re.compile(rf"^\s*{re.escape(key)}\s*=")
        section = None
        for i, line in enumerate(lines):
            m = re.match(r"^\s*\[([^\]]+)\]", line)
            if m:
                section = m.group(1).strip()
            if pat.match(line) and (symbol.startswith("[") or not table or section == table):
                end = i
                if "[" in line and "]" not in line.split("=", 1)[-1]:
                    while end + 1 < len(lines) and "]" not in lines[end]:
                        end += 1
                return i + 1, end + 1
        return None
    if " " in symbol:
        # A literal line such as "impl Optimizer for Sgd" or "impl core::ops::Sub<Self> for".
        for i, line in enumerate(lines):
            if symbol in line:
                return _with_attrs(lines, i) + 1, _item_end(lines, i) + 1
        return None
    outer, _, inner = symbol.rpartition("::")
    lo, hi = 0, len(lines) - 1
    if outer:
        # Type::method: the method inside the first impl (or trait) block of Type.
        pat = re.compile(rf"^\s*(?:unsafe\s+)?(?:impl\b.*\b|trait\s+){re.escape(outer)}\b.*")
        found = None
        for i, line in enumerate(lines):
            if pat.match(line):
                j = _item_end(lines, i)
                if any(re.match(rf"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe)\s+)*fn\s+{re.escape(inner)}\b", lines[k])
                       for k in range(i, j + 1)):
                    found = (i, j)
                    break
        if not found:
            return None
        lo, hi = found
    if " " in inner:
        # A literal line such as "impl Optimizer for Sgd".
        for i in range(lo, hi + 1):
            if inner in lines[i]:
                return _with_attrs(lines, i) + 1, _item_end(lines, i) + 1
        return None
    pat = re.compile(rf"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern\s+\"C\")\s+)*"
                     rf"{ITEM_KINDS}\s*{re.escape(inner)}\b")
    for i in range(lo, hi + 1):
        if pat.match(lines[i]):
            return _with_attrs(lines, i) + 1, _item_end(lines, i) + 1
    return None


@lru_cache(maxsize=None)
def locked_version(cargo_lock: Path, crate: str) -> str:
    lock = tomllib.loads(Path(cargo_lock).read_text(encoding="utf-8"))
    versions = {p["version"] for p in lock.get("package", []) if p["name"] == crate}
    if len(versions) != 1:
        raise BookError(f"Cargo.lock 里 {crate} 的版本应当恰好一个，得到 {sorted(versions)}")
    return versions.pop()


def vcs_commit(d: Path) -> str:
    try:
        return json.loads((d / ".cargo_vcs_info.json").read_text(encoding="utf-8"))["git"]["sha1"]
    except (OSError, ValueError, KeyError):
        raise BookError(f"{d} 的 .cargo_vcs_info.json 里没有提交号，无法链接") from None


@lru_cache(maxsize=None)
def resolve(path: str, symbol: str, version: str) -> dict:
    """path is "<crate>/<file in the crate>", e.g. "burn-flex/src/ops/reduce.rs"."""
    crate, _, rel = path.partition("/")
    if not rel:
        raise BookError(f"源码路径 {path!r} 要写成 <crate>/<文件>，如 burn-flex/src/ops/reduce.rs")
    d = crate_dir(crate, version)
    f = d / rel
    # cargo rewrites Cargo.toml on publish; the original is Cargo.toml.orig.
    read = d / "Cargo.toml.orig" if rel == "Cargo.toml" else f
    if not read.is_file():
        raise BookError(f"burn {version} 的源码里没有文件 {path}")
    lines = read.read_text(encoding="utf-8").split("\n")
    span = find_symbol(lines, symbol, rel.endswith(".toml"))
    if span is None:
        raise BookError(f"burn {version} 的 {path} 里找不到符号 {symbol!r}")
    a, b = span
    repo_path = f"{path_in_vcs(d)}/{rel}"
    base = (f"{COMPANIONS[crate]}/blob/{vcs_commit(d)}" if crate in COMPANIONS
            else f"{REPO}/blob/v{version}")
    return {
        "url": f"{base}/{repo_path}#L{a}-L{b}",
        "repo_path": repo_path, "start": a, "end": b,
    }


def link(book: Book, path: str, symbol: str) -> dict:
    crate = path.partition("/")[0]
    version = (locked_version(book.cargo_lock, crate) if crate in COMPANIONS
               else burn_version(book.cargo_lock))
    return resolve(path, symbol, version)
