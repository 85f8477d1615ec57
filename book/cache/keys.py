"""An experiment's cache key: every input file with its content hash (the manifest, the script
and the files it reads, the crates and their lock slices), the toolchain and the engine
version; and why a stored entry is stale. The key hashes no file of book/: moving the book's
code leaves every entry fresh."""
import json

from .. import hardware
from ..experiments import files as experiment_files
from ..experiments import rows as table
from ..experiments.manifest import Experiment
from ..paths import Book, files_under, sha
from . import resolve
from .entries import entry_dir, verify_entry

# Bump when the engine changes what it writes into an entry: every entry goes stale.
ENGINE_VERSION = "7"
KEY_FILE = "inputs.json"


def inputs(exp: Experiment, book: Book) -> dict:
    """Every input of an experiment, each with its content hash."""
    # The comparator is an input only of experiments that compare. A table's manifest and topic
    # files count by what a run reads from them (rows.run_view): their display text reruns nothing.
    views = [exp.manifest, *exp.row_files] if exp.rows else []
    paths = ([] if views else [exp.manifest]) + ([book.compare_script] if exp.compare else [])
    if exp.python:
        paths.append(exp.script)
    if exp.burn:
        paths += [exp.crate_dir(book), book.root / "Cargo.toml"]
        # Settings that change what cargo builds, when the project has them.
        paths += [p for p in (book.root / ".cargo" / "config.toml", book.root / "rust-toolchain.toml",
                              book.root / "rust-toolchain") if p.is_file()]
        # Path dependencies have no checksum in Cargo.lock: hash their sources instead.
        local_deps = [d.split(" ")[0] for d in resolve.locked_deps(book, exp.burn["crate"])
                      if d.endswith(" local")]
        local = resolve.local_crates(book) if local_deps else {}
        paths += [local[name] for name in local_deps if name in local]
    if exp.python:
        paths.append(book.pins)
    # Crates whose binaries the experiment runs: their sources and their Cargo.lock slices.
    paths += [book.crates / c for c in exp.needs]
    # What the script reads besides itself (a sibling module it imports, a crate's data/):
    # the same files its download package takes.
    paths += [f for f in experiment_files.script_files(book, exp)[1:]]
    paths += [book.crates / c for c in experiment_files.crates_of(book, exp)
              if c not in exp.needs and c != (exp.burn or {}).get("crate")]
    files = {f.relative_to(book.root).as_posix() + "#run": table.run_view(f) for f in views}
    for path in paths:
        for f in files_under(path):
            files[f.relative_to(book.root).as_posix()] = sha(f.read_bytes())
    for crate in ([exp.burn["crate"]] if exp.burn else []) + exp.needs:
        files["Cargo.lock#" + crate] = sha("\n".join(resolve.locked_deps(book, crate)).encode())
    tools = dict(hardware.toolchain(book.python), engine=ENGINE_VERSION)
    if not exp.burn and not exp.needs:
        tools.pop("rustc"), tools.pop("cargo")
    if exp.python and exp.pins:
        tools["cpu_pins"] = hardware.CPU_PINS
    key = sha(json.dumps([files, tools], sort_keys=True).encode())
    return {"key": key, "files": files, "toolchain": tools}


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


def comparator_only(exp: Experiment, book: Book, current: dict) -> bool:
    """Whether the comparator is the only input that changed since the entry was made: then
    the sides' outputs still hold, and only the comparison is computed again."""
    stored = stored_inputs(book, exp.id)
    if not stored or stored.get("toolchain") != current["toolchain"]:
        return False
    old, new = stored.get("files", {}), current["files"]
    changed = {k for k in old.keys() | new.keys() if old.get(k) != new.get(k)}
    script = book.compare_script.relative_to(book.root).as_posix()
    return changed == {script} and not verify_entry(entry_dir(book, exp.id))
