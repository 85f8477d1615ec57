"""Each experiment as one .tar.gz that builds and runs outside this repository: which files go
in (both programs as committed, made standalone), and the archive itself, the same bytes
every time (sorted entries, mtime 0, uid/gid 0, gzip mtime 0), memoised in target/."""
import gzip
import hashlib
import io
import posixpath
import re
import tarfile
from pathlib import Path

from ...errors import BookError
from ...experiments import files as experiment_files
from ...experiments.files import crates_of, script_files
from ...experiments.manifest import Experiment, discover
from ...paths import Book, files_under, read_sealed, write_sealed
from . import MEMO as _CACHE
from .lock import lock_slice
from .manifest import standalone_toml
from .readme import _rel, readme, requirements, run_sh

DIR = "downloads"  # site/downloads/<id>.tar.gz


def reset():
    """Forget what one build worked out (mkdocs serve rebuilds in the same process)."""
    _CACHE.clear()
    experiment_files.reset()


def experiments(book: Book) -> dict[str, Experiment]:
    key = ("exps", book.root)
    if key not in _CACHE:
        _CACHE[key] = {e.id: e for e in discover(book)}
    return _CACHE[key]


def members(book: Book, exp: Experiment) -> dict[str, bytes]:
    """Archive path (under <id>/) → content, for every file the archive holds."""
    key = ("members", book.root, exp.id)
    if key in _CACHE:
        return _CACHE[key]
    files: dict[str, bytes] = {_rel(book, f): f.read_bytes() for f in [exp.manifest, *exp.row_files]}
    for f in script_files(book, exp):
        files[_rel(book, f)] = f.read_bytes()
    if exp.python:
        files["requirements.txt"] = requirements(book, exp).encode()
    for c in crates_of(book, exp):
        for f in files_under(book.crates / c):
            files[_rel(book, f)] = f.read_bytes()
        files[f"crates/{c}/Cargo.toml"] = standalone_toml(book, c, exp.id).encode()
        files[f"crates/{c}/Cargo.lock"] = lock_slice(book, c, exp.id).encode()
    if exp.compare:
        files["experiments/compare.py"] = book.compare_script.read_bytes()
    files["run.sh"] = run_sh(book, exp).encode()
    files["README.md"] = readme(book, exp).encode()
    _CACHE[key] = files
    return files


def tarball(exp_id: str, files: dict[str, bytes]) -> bytes:
    """A .tar.gz that is the same bytes every time: sorted, mtime 0, owner 0, gzip mtime 0."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        dirs = sorted({posixpath.join(exp_id, *Path(p).parent.parts[:i + 1])
                       for p in files for i in range(len(Path(p).parent.parts))} | {exp_id})
        entries = [(d, None) for d in dirs] + [(f"{exp_id}/{p}", files[p]) for p in files]
        for name, data in sorted(entries):
            info = tarfile.TarInfo(name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), 0o755 if name.endswith(".sh") else 0o644
                tar.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def archive(book: Book, exp_id: str) -> bytes:
    """The experiment's .tar.gz: once per build, and from target/.book-archive/ when its
    members are those of an earlier build (gzip -9 of every archive is most of the cost)."""
    key = ("archive", book.root, exp_id)
    if key in _CACHE:
        return _CACHE[key]
    exps = experiments(book)
    if exp_id not in exps:
        raise BookError(f"没有实验 {exp_id!r}")
    files = members(book, exps[exp_id])
    h = hashlib.sha256(exp_id.encode())
    for name in sorted(files):
        h.update(b"\0" + name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    memo, stem = book.target / ".book-archive" / "tar", f"{exp_id}-{h.hexdigest()[:32]}"
    data = read_sealed(memo, stem, ".tar.gz")
    if data is None:
        data = tarball(exp_id, files)
        # This experiment's earlier archives (not another's whose id starts the same).
        mine = re.compile(rf"^{re.escape(exp_id)}-[0-9a-f]{{32}}(-[0-9a-f]+)?\.tar\.gz$")
        write_sealed(memo, stem, ".tar.gz", data,
                     stale=[p for p in memo.glob(f"{exp_id}-*.tar.gz") if mine.match(p.name)])
    _CACHE[key] = data
    return data


def all_archives(book: Book) -> dict[str, bytes]:
    """downloads/<id>.tar.gz → bytes, for every experiment."""
    return {f"{DIR}/{i}.tar.gz": archive(book, i) for i in sorted(experiments(book))}
