"""Where the book keeps things. Tests point a Book at a scratch project."""
import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Folders no input of an experiment lives in: build output, bytecode, version control.
SKIP_DIRS = {"target", "__pycache__", ".git"}


@dataclass
class Book:
    root: Path = ROOT
    python: str = field(default="")
    outputs_dir: Path | None = None  # tests rerun experiments into a scratch cache

    def __post_init__(self):
        self.root = Path(self.root).resolve()
        if not self.python:
            # Through the venv's real folder: a linked .venv (make bench's clones) would have
            # torch print its own paths whole instead of relative, and outputs differ.
            venv = (self.root / ".venv").resolve() / "bin" / "python"
            self.python = str(venv if venv.exists() else Path(sys.executable))

    @property
    def experiments(self):
        return self.root / "experiments"

    @property
    def crates(self):
        return self.root / "crates"

    @property
    def outputs(self):
        return Path(self.outputs_dir) if self.outputs_dir else self.root / "build_outputs"

    @property
    def target(self):
        return self.root / "target"

    @property
    def cargo_lock(self):
        return self.root / "Cargo.lock"

    @property
    def pins(self):
        return self.root / "requirements.lock"

    @property
    def compare_script(self):
        return self.experiments / "compare.py"


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write a whole file or nothing: a reader (or a killed build) never sees half of it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    tmp.replace(path)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files_under(path: Path):
    """A file itself, or every file under a folder (sorted), outside SKIP_DIRS."""
    path = Path(path)
    if path.is_file():
        yield path
        return
    for p in sorted(path.rglob("*")):
        if p.is_file() and not SKIP_DIRS & set(p.relative_to(path).parts):
            yield p


# --- memo files that carry their own hash -----------------------------------------------------
# <stem>-<sha256 of the bytes, 16 hex><suffix>: a truncated or garbled memo no longer matches
# its name, so it is computed again instead of trusted.
SEAL_LEN = 16


def read_sealed(folder: Path, stem: str, suffix: str) -> bytes | None:
    """The bytes of a memo write_sealed wrote under this stem, if they still match their hash."""
    for p in sorted(Path(folder).glob(f"{stem}-*{suffix}")):
        seal = p.name[len(stem) + 1:len(p.name) - len(suffix)]
        if len(seal) != SEAL_LEN:
            continue
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if sha(data)[:SEAL_LEN] == seal:
            return data
    return None


def write_sealed(folder: Path, stem: str, suffix: str, data: bytes, stale=()) -> None:
    """Write the memo whole; first remove `stale` (the memos it replaces)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for old in stale:
        Path(old).unlink(missing_ok=True)  # another build may be tidying up too
    write_atomic(folder / f"{stem}-{sha(data)[:SEAL_LEN]}{suffix}", data)
