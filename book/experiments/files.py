"""What an experiment is made of besides its manifest: its script and the files the script
reads next to itself (a sibling module it imports, a data file it opens), and the crates it
builds, runs or reads. Computed here once, and used alike by the cache key, the download
package and the render memo."""
import ast
import re
from pathlib import Path

from ..paths import Book
from .manifest import Experiment

# What a script reads next to itself ("infer.py", with_name("x.bin")) and crates' data it opens.
SIBLING_RE = re.compile(r"""["']([\w.-]+\.\w+)["']""")
CRATE_REF_RE = re.compile(r"""["']crates["']\s*/\s*["']([a-z0-9][a-z0-9-]*)["']""")

_MEMO: dict = {}


def reset():
    """Forget what one build worked out (mkdocs serve rebuilds in the same process)."""
    _MEMO.clear()


def script_files(book: Book, exp: Experiment) -> list[Path]:
    """The script and what it reads next to itself (infer.py, a sibling module), transitively;
    a package's __main__.py first, then its modules."""
    if not exp.python:
        return []
    key = ("scripts", book.root, exp.id)
    if key in _MEMO:
        return _MEMO[key]
    if exp.script.is_dir():
        main = exp.script / "__main__.py"
        todo = [main] + [f for f in sorted(exp.script.glob("*.py")) if f != main]
    else:
        todo = [exp.script]
    seen = []
    while todo:
        f = todo.pop(0)
        if f in seen:
            continue
        seen.append(f)
        if f.suffix != ".py":
            continue
        text = f.read_text(encoding="utf-8")
        names = SIBLING_RE.findall(text) + [m + ".py" for m in imports(f)]
        todo += [f.parent / n for n in names if (f.parent / n).is_file() and f.parent / n not in seen]
    _MEMO[key] = seen
    return seen


def crates_of(book: Book, exp: Experiment) -> list[str]:
    """The experiment's crate, the crates whose binaries its script runs (needs) and those
    whose data files the script opens: each one goes in whole."""
    key = ("crates", book.root, exp.id)
    if key in _MEMO:
        return _MEMO[key]
    out = [exp.burn["crate"]] if exp.burn else []
    out += exp.needs
    for f in script_files(book, exp):
        if f.suffix == ".py":
            out += [c for c in CRATE_REF_RE.findall(f.read_text(encoding="utf-8"))
                    if (book.crates / c / "Cargo.toml").is_file()]
    _MEMO[key] = list(dict.fromkeys(out))
    return _MEMO[key]


def imports(path: Path) -> set[str]:
    """Top-level module names a script imports (parsed: a docstring line "from the ..." is not one)."""
    st = path.stat()
    key = ("imports", path, st.st_size, st.st_mtime_ns)
    if key not in _MEMO:
        _MEMO[key] = _imports(path)
    return set(_MEMO[key])


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out
