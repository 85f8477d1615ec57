"""The layout of book/ (see its __init__.py): packages by stage, imports that run one way with
no cycle, small files, and a test folder per package. Read from the sources with ast, so a
change that breaks the layout fails make test; the checkers are tried on scratch packages
too, so that they can fail."""
import ast
from pathlib import Path

import pytest

from scratch import REPO, write

# Bottom to top: a module may import its own package and the ones before it, never one after.
ORDER = ["paths", "errors", "hardware", "sources", "experiments", "running", "checking", "cache",
         "pages", "port", "site", "pipeline", "commands"]
LEAVES = ORDER[:4]  # the shared modules at the top of book/
MAX_LINES = 450
# What renders pages and what describes experiments never starts a process.
NO_PROCESSES = {"experiments", "pages"}
PROCESS_MODULES = {"subprocess", "multiprocessing", "pty"}


def modules(root: Path, top: str = "book") -> dict[str, Path]:
    """Dotted module name → file, for every .py under root/top."""
    out = {}
    for p in sorted((root / top).rglob("*.py")):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def imports(name: str, path: Path, known: dict) -> set[str]:
    """The modules of `known` that a module imports, at its top or inside a function."""
    is_pkg = path.name == "__init__.py"
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = here[:len(here) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            # `from pkg import name`: the submodule pkg.name where there is one, else pkg.
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph(root: Path, top: str = "book") -> dict[str, set[str]]:
    known = modules(root, top)
    return {n: imports(n, p, known) for n, p in known.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle, each once (as the path that closes it)."""
    found, state = [], {}

    def visit(n, stack):
        state[n] = "open"
        for m in sorted(g.get(n, ())):
            if state.get(m) == "open":
                found.append(stack[stack.index(m):] + [m])
            elif m not in state:
                visit(m, stack + [m])
        state[n] = "done"
    for n in sorted(g):
        if n not in state:
            visit(n, [n])
    return found


def package(name: str, top: str = "book") -> str | None:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == top else None


def upward(g: dict[str, set[str]], order=ORDER, top: str = "book") -> list[str]:
    """Imports of a package that comes later in the order (or of one the order lacks)."""
    bad = []
    for n, deps in sorted(g.items()):
        here = package(n, top)
        if here is None:
            continue
        for d in sorted(deps):
            there = package(d, top)
            if there is None or there == here:
                continue
            if here not in order or there not in order or order.index(there) > order.index(here):
                bad.append(f"{n} imports {d}")
    return bad


# --- the real book -----------------------------------------------------------------------------

def test_no_import_cycle():
    assert cycles(graph(REPO)) == []


def test_imports_run_one_way():
    assert upward(graph(REPO)) == []


def test_top_of_book_is_the_packages_and_a_few_leaves():
    top = {p.stem for p in (REPO / "book").iterdir()
           if p.suffix == ".py" and p.stem != "__init__"}
    pkgs = {p.name for p in (REPO / "book").iterdir() if (p / "__init__.py").is_file()}
    assert top == set(LEAVES)
    assert pkgs == set(ORDER) - set(LEAVES)


def test_every_package_says_its_stage():
    for init in sorted((REPO / "book").rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, f"{init.relative_to(REPO)}：包的 __init__.py 要用一段 docstring 说明它的阶段和边界"


def test_no_module_is_large():
    big = {str(p.relative_to(REPO)): n for p in (REPO / "book").rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert big == {}, f"超过 {MAX_LINES} 行的模块：{big}；按职责拆开"


def test_pages_and_experiments_start_no_process():
    for name, path in modules(REPO).items():
        if package(name) in NO_PROCESSES:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            used = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            used |= {n.module.split(".")[0] for n in ast.walk(tree)
                     if isinstance(n, ast.ImportFrom) and n.module and not n.level}
            assert not used & PROCESS_MODULES, f"{name} 导入了 {sorted(used & PROCESS_MODULES)}"


def test_tests_mirror_the_packages():
    pkgs = {p.name for p in (REPO / "book").iterdir() if (p / "__init__.py").is_file()}
    folders = {p.name for p in (REPO / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert pkgs <= folders, f"这些包没有自己的测试目录 tests/<包名>/：{sorted(pkgs - folders)}"


def test_names_in_docs_exist():
    """Every `python -m book.…` and book/….py that README, CONTRIBUTING, the Makefile and
    mkdocs.yml name is a module that exists."""
    import re
    known = modules(REPO)
    for doc in ("README.md", "CONTRIBUTING.md", "Makefile", "mkdocs.yml"):
        text = (REPO / doc).read_text(encoding="utf-8")
        for m in re.findall(r"-m (book(?:\.[a-z_]+)+)", text):
            assert m in known, f"{doc} 里的 python -m {m} 不存在"
        for m in re.findall(r"\bbook/((?:[a-z_]+/)*[a-z_]+\.py)", text):
            assert (REPO / "book" / m).is_file(), f"{doc} 里的 book/{m} 不存在"


# --- the checkers can fail --------------------------------------------------------------------

def scratch_pkg(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        write(root / "bk" / rel, text)
    return root


def test_a_cycle_through_a_lazy_import_is_found(tmp_path):
    root = scratch_pkg(tmp_path, {
        "__init__.py": '"""x"""\n', "a/__init__.py": "", "b/__init__.py": "",
        "a/one.py": "from ..b import two\n",
        "b/two.py": "def f():\n    from ..a.one import g\n",
    })
    assert cycles(graph(root, "bk")) == [["bk.a.one", "bk.b.two", "bk.a.one"]]


@pytest.mark.parametrize("text, want", [
    ("from ..b import two\n", ["bk.a.one imports bk.b.two"]),
    ("from ..b.two import x\n", ["bk.a.one imports bk.b.two"]),
    ("import bk.b.two\n", ["bk.a.one imports bk.b.two"]),
    ("from . import three\n", []),
])
def test_an_upward_import_is_found(tmp_path, text, want):
    root = scratch_pkg(tmp_path, {
        "__init__.py": "", "a/__init__.py": "", "b/__init__.py": "",
        "a/one.py": text, "a/three.py": "", "b/two.py": "x = 1\n",
    })
    assert upward(graph(root, "bk"), order=["a", "b"], top="bk") == want
