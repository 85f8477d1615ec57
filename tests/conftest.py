"""Shared fixtures: a scratch cargo workspace with tiny dependency-free crates, and helpers."""
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from book import contract, discover, runner  # noqa: E402
from book.paths import Book  # noqa: E402

VENV_PY = REPO / ".venv" / "bin" / "python"

# Crates without registry dependencies: they build offline in about a second.
CRATES = {
    "helper": {
        "lib": True,
        "deps": "",
        "src": "pub fn one() -> f64 {\n    1.0\n}\n",
    },
    "okjson": {
        "deps": 'helper = { path = "../helper" }\n',
        "src": 'fn main() {\n    println!("{{\\"x\\": {:?}}}", helper::one());\n}\n',
    },
    "okvec": {
        "deps": "",
        "src": 'fn main() {\n    println!("{{\\"v\\": [1.0, 2.0]}}");\n}\n',
    },
    "panics": {
        "deps": "",
        "src": 'fn main() {\n    panic!("boom: index out of range");\n}\n',
    },
    "moved": {
        "deps": "",
        "src": ("fn main() {\n    let s = String::from(\"a\");\n    let t = s;\n"
                "    println!(\"{} {}\", s, t);\n}\n"),
    },
    "sleeps": {
        "deps": "",
        "src": ("fn main() {\n    std::thread::sleep(std::time::Duration::from_secs(30));\n"
                "    println!(\"{{\\\"x\\\": 1.0}}\");\n}\n"),
    },
}

SCRIPTS = {
    "ok.py": 'import json\nprint(json.dumps({"x": 1.0}))\n',
    "off.py": 'import json\nprint(json.dumps({"x": 1.5}))\n',
    "raises.py": 'raise ValueError("bad input")\n',
    # Like torch.load's weights_only error: the message goes on over unindented lines.
    "raises_long.py": 'raise ValueError("bad input\\nsee https://example.org/docs for more")\n',
    "vec.py": 'import json\nprint(json.dumps({"v": [1.0, 2.0]}))\n',
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_crate(root: Path, name: str, src: str, deps: str = "", lib: bool = False,
                version: str = "0.1.0"):
    d = root / "crates" / name
    write(d / "Cargo.toml", f'[package]\nname = "{name}"\nversion = "{version}"\n'
                            f'edition = "2021"\npublish = false\n\n[dependencies]\n{deps}')
    write(d / "src" / ("lib.rs" if lib else "main.rs"), src)


def generate_lockfile(root: Path):
    subprocess.run(["cargo", "generate-lockfile", "--offline"], cwd=root, check=True,
                   capture_output=True)


def make_workspace(root: Path, crates=tuple(CRATES), script_dirs=("experiments",)) -> Path:
    """A scratch book project: a cargo workspace, the stdlib-only scripts and compare.py."""
    root.mkdir(parents=True, exist_ok=True)
    write(root / "Cargo.toml", '[workspace]\nresolver = "2"\nmembers = ["crates/*"]\n')
    for name in crates:
        c = CRATES[name]
        write_crate(root, name, c["src"], c["deps"], c.get("lib", False))
    for d in script_dirs:
        for name, text in SCRIPTS.items():
            write(root / d / name, text)
    (root / "experiments").mkdir(exist_ok=True)
    shutil.copy(REPO / "experiments" / "compare.py", root / "experiments" / "compare.py")
    write(root / "requirements.lock", "")
    generate_lockfile(root)
    return root


def manifest(root: Path, exp_id: str, body: str, where: str = "experiments") -> Path:
    """Write <where>/<id>.yaml; body is the manifest without its id line."""
    return write(root / where / f"{exp_id}.yaml", f"id: {exp_id}\n" + textwrap.dedent(body))


def scratch_book(root: Path, outputs: Path | None = None) -> Book:
    return Book(root=root, python=sys.executable, outputs_dir=outputs)


def run_manifest(book: Book, path: Path):
    """Load one manifest, run it for real, check its contract: (result, problems)."""
    exp = discover.load(path, book)
    result = runner.run_experiment(exp, book)
    return result, contract.check(exp, result["outcome"])


LOG_RE = re.compile(r"^\s+(cached|ran|compared|FAILED)\s+(\S+)")


def log_states(lines: list[str]) -> dict[str, str]:
    """{experiment id: cached | ran | compared | FAILED} from build()'s log lines."""
    out = {}
    for ln in lines:
        m = LOG_RE.match(ln)
        if m:
            out[m.group(2)] = m.group(1)
    return out


@pytest.fixture(scope="session")
def cargo_ws(tmp_path_factory) -> Path:
    """One scratch workspace for the session: its target/ compiles each crate once.

    Contract tests write their manifests under adhoc/ (not experiments/), so that a
    build() over experiments/ never sees them.
    """
    root = make_workspace(tmp_path_factory.mktemp("ws"), script_dirs=("experiments", "adhoc"))
    return root


@pytest.fixture
def mkdocs_env() -> dict:
    # The Makefile exports this; keep the build output the same as `make site`.
    return dict(os.environ, NO_MKDOCS_2_WARNING="1")


# --- a line now and then while one test runs long (make test on a fresh clone compiles burn
# inside test_archives for minutes; pytest itself prints nothing until the test ends) --------

import threading  # noqa: E402
import time  # noqa: E402

_HEARTBEAT_S = float(os.environ.get("BOOK_TEST_HEARTBEAT_S", "60"))
_CURRENT: dict = {}


def pytest_runtest_logstart(nodeid, location):
    _CURRENT["test"] = (nodeid, time.monotonic())


def pytest_runtest_logfinish(nodeid, location):
    _CURRENT.pop("test", None)


def pytest_sessionstart(session):
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    capman = session.config.pluginmanager.get_plugin("capturemanager")
    if tr is None or capman is None or _HEARTBEAT_S <= 0:
        return

    def beat():
        while True:
            time.sleep(_HEARTBEAT_S)
            cur = _CURRENT.get("test")
            if cur and time.monotonic() - cur[1] >= _HEARTBEAT_S:
                s = int(time.monotonic() - cur[1])
                # Past the test's output capture for this one line (as pytest's live logging does).
                with capman.global_and_fixture_disabled():
                    if getattr(tr._tw, "width_of_current_line", 0):
                        tr._tw.line()  # not after a row of dots
                    tr.write_line(f"  …仍在运行 {cur[0]}，已 {s // 60} 分 {s % 60:02d} 秒")
    threading.Thread(target=beat, daemon=True).start()
