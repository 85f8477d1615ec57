"""The fixed files of a crate the port generator writes: Cargo.toml (burn =0.22.1 with the one
feature set every generated crate uses: the book's own for crates that load PyTorch files, so
that a build in the book's target dir compiles no new burn), its Cargo.lock (cut from the
book's by cargo's offline resolver, as the downloads' are, and memoised: the page needs no
cargo), check.py and the book's comparator. The generator adds the rest (port.js)."""
import hashlib
import os
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

from ..errors import BookError
from ..paths import Book, read_sealed, write_sealed

HERE = Path(__file__).resolve().parent
NAME = "burn-port"
# The feature set of the book's crates that read .pt files (cap-cnn, ref-store, ...).
FEATURES = ["std", "flex", "autodiff", "optim", "store", "pytorch", "safetensors"]
SAME_AS = "cap-cnn"


def cargo_toml(book: Book) -> str:
    ws = tomllib.loads(book.root.joinpath("Cargo.toml").read_text(encoding="utf-8"))["workspace"]["dependencies"]
    burn, serde = ws["burn"]["version"], ws["serde_json"]
    member = tomllib.loads((book.crates / SAME_AS / "Cargo.toml").read_text(encoding="utf-8"))["dependencies"]
    if member["burn"]["features"] != FEATURES:
        raise BookError(f"book/port/crate.py：生成的 crate 要和 crates/{SAME_AS} 用同一套 burn features，"
                        f"它现在是 {member['burn']['features']}")
    feats = ", ".join(f'"{f}"' for f in FEATURES)
    return (f'[package]\nname = "{NAME}"\nversion = "0.1.0"\nedition = "2021"\npublish = false\n\n'
            f'[dependencies]\nburn = {{ version = "{burn}", default-features = false, features = [{feats}] }}\n'
            f'serde_json = "{serde}"\n\n'
            "# A crate of its own, wherever it is unpacked.\n[workspace]\n")


def cargo_lock(book: Book) -> str:
    toml_text = cargo_toml(book)
    lock_text = book.cargo_lock.read_text(encoding="utf-8")
    key = hashlib.sha256((lock_text + "\0" + toml_text).encode()).hexdigest()[:20]
    memo = book.target / ".book-archive" / NAME
    hit = read_sealed(memo, key, ".lock")
    if hit is not None:
        return hit.decode("utf-8")
    with tempfile.TemporaryDirectory(prefix="book-port-lock-") as d:
        work = Path(d) / NAME
        (work / "src").mkdir(parents=True)
        (work / "src" / "main.rs").write_text("fn main() {}\n", encoding="utf-8")
        (work / "Cargo.toml").write_text(toml_text, encoding="utf-8")
        (work / "Cargo.lock").write_text(lock_text, encoding="utf-8")
        env = dict(os.environ, CARGO_TARGET_DIR=str(Path(d) / "target"), CARGO_TERM_COLOR="never")
        p = subprocess.run(["cargo", "metadata", "--offline", "--format-version", "1"], cwd=work, env=env,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise BookError("cargo 没能给生成的 crate 切出 Cargo.lock（先运行 make site 下载依赖）：\n" + p.stderr.strip())
        sliced = (work / "Cargo.lock").read_text(encoding="utf-8")
    ws = {(p["name"], p["version"]): p for p in tomllib.loads(lock_text)["package"]}
    for pkg in tomllib.loads(sliced)["package"]:
        theirs = ws.get((pkg["name"], pkg["version"]))
        if pkg["name"] != NAME and (theirs is None or theirs.get("checksum") != pkg.get("checksum")):
            raise BookError(f"生成的 crate 的 Cargo.lock 里有 {pkg['name']} {pkg['version']}，和工作区的不一致")
    write_sealed(memo, key, ".lock", sliced.encode("utf-8"), stale=memo.glob("*.lock"))
    return sliced


def files(book: Book) -> dict[str, str]:
    """{path in the crate: text} of the fixed files."""
    return {"Cargo.toml": cargo_toml(book), "Cargo.lock": cargo_lock(book),
            "check.py": (HERE / "check.py").read_text(encoding="utf-8"),
            "compare.py": (book.root / "experiments" / "compare.py").read_text(encoding="utf-8")}
