"""Whether site/ already is the build of the inputs as they are now: `make site`'s first step.

Before mkdocs runs (the runner and the diagrams have written what they write), `snapshot`
records every input file the working tree has (what git
tracks or would track: pages, manifests, scripts, crates, build_outputs/, the book's own
code, the lock files) with its size, mtime and sha256; the machine facts a build reads (the
toolchain, the hardware the runner looks for, BOOK_* variables, SITE_URL); and once mkdocs has
succeeded, `commit` adds the listing of site/.
`check` exits 0 only when all of it still holds. A file whose mtime changed (a checkout, a
touch) is hashed again, so only a real change in content makes the build run.

    python -m book.commands.site_stamp check      # 0: nothing to do; 1: build (and says why);
                                         # 3: only pages under docs/ changed: skip the runner
    python -m book.commands.site_stamp snapshot   # before mkdocs build: inputs as this build sees them
    python -m book.commands.site_stamp commit     # after it succeeded

An input edited while mkdocs runs is recorded with its old content, so the next check
rebuilds; a failed build leaves no stamp.
"""
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from .. import hardware
from ..paths import Book, write_atomic

# One stamp per checkout: make bench's scratch copy shares target/ with the repo.
def _stamp(book: Book, kind: str = "") -> Path:
    tag = hashlib.sha256(str(book.root).encode()).hexdigest()[:12]
    return book.root / "target" / f".site-stamp-{tag}{kind}.json"
# Facts outside the tree that change what a build makes.
ENV_PREFIXES = ("BOOK_",)
# mkdocs.yml's site_url reads it (`!ENV`): unset, the default written there (an input file).
SITE_URL = "SITE_URL"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def input_files(book: Book) -> list[str] | None:
    """Every file git tracks or would track (untracked but not ignored); None outside git."""
    try:
        p = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=book.root, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if p.returncode != 0:
        return None
    # A deleted but still tracked file is not an input any more.
    return sorted(f for f in set(p.stdout.decode().split("\0"))
                  if f and (book.root / f).is_file())


def machine(book: Book) -> dict:
    def out(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return "missing"
    return {
        "python": sys.version,
        "rustc": out(["rustc", "-V"]),
        "hardware": {r: hardware.available(r) for r in hardware.KNOWN},
        # make exports BOOK_ENGINE; a check run by hand without it means the default engine.
        "engine": os.environ.get("BOOK_ENGINE") or "mkdocs",
        "env": {k: v for k, v in sorted(os.environ.items())
                if k.startswith(ENV_PREFIXES) and k != "BOOK_ENGINE"},
        # The installed Python and npm packages: their stamps move when make reinstalls them.
        "venv": _mtime(book.root / ".venv" / ".stamp"),
        "node": _mtime(book.root / "node_modules" / ".stamp"),
    }


def _mtime(path: Path):
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def site_listing(book: Book) -> str:
    """A digest of site/: every file's path, size and mtime (a page edited or deleted by hand
    there makes the next make site rebuild)."""
    site = book.root / "site"
    h = hashlib.sha256()
    if not site.is_dir():
        return "missing"
    for dirpath, dirnames, filenames in os.walk(site):
        dirnames.sort()
        for name in sorted(filenames):
            st = os.stat(os.path.join(dirpath, name))
            h.update(f"{os.path.relpath(os.path.join(dirpath, name), site)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _load(book: Book) -> dict | None:
    try:
        return json.loads(_stamp(book).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


# Only pages changed: the runner has nothing to do (it never reads docs/).
PAGES_ONLY = ("docs/",)


def site_url() -> str | None:
    """What a build reads for site_url: the variable as set (None: unset, mkdocs.yml's default)."""
    return os.environ.get(SITE_URL)


def _url_words(url: str | None) -> str:
    return url if url is not None else "未设置（mkdocs.yml 的默认值）"


def examine(book: Book) -> tuple[str | None, bool]:
    """(None when site/ is the build of the current inputs, otherwise the first reason why
    not; whether everything that changed is a page or the address, so that the runner can be
    skipped)."""
    stamp = _load(book)
    if stamp is None:
        return "还没有构建记录", False
    files = input_files(book)
    if files is None:
        return "不在 git 仓库里，无法确认输入没变", False
    now = machine(book)
    for k, v in now.items():
        if stamp.get("machine", {}).get(k) != v:
            return f"机器的 {k} 变了", False
    old = stamp.get("files", {})
    added = sorted(set(files) - set(old))
    gone = sorted(set(old) - set(files))
    changed = []
    for f in files:
        if f not in old:
            continue
        size, mtime, digest = old[f]
        st = (book.root / f).stat()
        if (st.st_size, st.st_mtime_ns) != (size, mtime) and (st.st_size != size or _sha(book.root / f) != digest):
            changed.append(f)
    touched = added + gone + changed
    pages_only = bool(touched) and all(f.startswith(PAGES_ONLY) for f in touched)
    if added:
        return "文件多了：" + ", ".join(added[:3]), pages_only
    if gone:
        return "文件少了：" + ", ".join(gone[:3]), pages_only
    if changed:
        return f"{changed[0]} 变了" + (f" 等 {len(changed)} 个文件" if len(changed) > 1 else ""), pages_only
    # Only the pages render it (canonical links, sitemap.xml): the runner never reads it.
    if stamp.get("site_url", None) != site_url():
        return (f"SITE_URL 变了：上次 {_url_words(stamp.get('site_url'))}，"
                f"这次 {_url_words(site_url())}"), True
    if stamp.get("site") != site_listing(book):
        return "site/ 和上次构建的不一样", False
    return None, False


def stale(book: Book) -> str | None:
    return examine(book)[0]


def _write(path: Path, data: dict) -> None:
    write_atomic(path, json.dumps(data))  # never a half-written stamp


def snapshot(book: Book) -> None:
    previous = (_load(book) or {}).get("files", {})
    _stamp(book).unlink(missing_ok=True)
    files = input_files(book)
    if files is None:
        return
    entries = {}
    for f in files:
        st = (book.root / f).stat()
        old = previous.get(f)
        # Unchanged size and mtime: the hash the last build took still stands.
        digest = old[2] if old and (old[0], old[1]) == (st.st_size, st.st_mtime_ns) else _sha(book.root / f)
        entries[f] = [st.st_size, st.st_mtime_ns, digest]
    _write(_stamp(book, ".pending"), {"files": entries, "machine": machine(book), "site_url": site_url()})


def commit(book: Book) -> None:
    try:
        data = json.loads((_stamp(book, ".pending")).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    data["site"] = site_listing(book)
    _write(_stamp(book), data)
    (_stamp(book, ".pending")).unlink()
