"""Scratch books the tests build, shared by every test folder: a cargo workspace with tiny
dependency-free crates and stdlib-only scripts, manifests, and a scratch mkdocs site with the
real config, engine and macros linked in."""
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from book.checking import contract  # noqa: E402
from book.experiments import manifest as manifest_mod  # noqa: E402
from book.paths import Book  # noqa: E402
from book.pipeline.build import run_and_compare  # noqa: E402
from book.running import normalize  # noqa: E402

VENV_PY = REPO / ".venv" / "bin" / "python"
# The real experiments make test always reruns (tests/pipeline/test_e2e.py); their burn feature
# set is the suite's, which the rotating sample (tests/commands/test_rotation.py) reuses.
E2E_IDS = ["a1-train-step", "matmul-shape", "moved-value-residual", "flex-matmul"]
# The bound on a child process or a wait for a condition: a safety net against a hang, never
# a measure of speed (make bench measures speed). No test may fail because the machine is slow.
SAFETY_S = 3600


def safety_net(what: str) -> str:
    return (f"安全网：{what}，{SAFETY_S} 秒仍未结束。这个上限只防挂住，不衡量快慢："
            "进程多半是卡住了")


def run_bounded(cmd, **kw) -> subprocess.CompletedProcess:
    """subprocess.run under the safety net; reaching it fails the test and says so."""
    try:
        return subprocess.run(cmd, timeout=SAFETY_S, **kw)
    except subprocess.TimeoutExpired:
        raise AssertionError(safety_net(" ".join(map(str, cmd)))) from None


def wait_for(pred, what: str) -> None:
    """Poll pred until it holds, however slow the machine; the safety net bounds it."""
    import time
    end = time.monotonic() + SAFETY_S
    while not pred():
        if time.monotonic() > end:
            raise AssertionError(safety_net(what))
        time.sleep(0.1)

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
    # A dependency whose build script downloads, as tracel-llvm-bundler does: through the proxy
    # when one is set (burn.offline sets a closed one), else it has nothing to fetch.
    "bundler": {
        "lib": True,
        "deps": "",
        "src": "pub fn two() -> f64 {\n    2.0\n}\n",
        "build": ("fn main() {\n"
                  "    if let Ok(proxy) = std::env::var(\"ALL_PROXY\") {\n"
                  "        let addr = proxy.trim_start_matches(\"http://\");\n"
                  "        std::net::TcpStream::connect(addr).unwrap();\n"
                  "    }\n"
                  "}\n"),
    },
    "fetcher": {
        "deps": 'bundler = { path = "../bundler" }\n',
        "src": 'fn main() {\n    println!("{{\\"x\\": {:?}}}", bundler::two());\n}\n',
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
        if "build" in c:
            write(root / "crates" / name / "build.rs", c["build"])
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
    """Load one manifest, run and compare it for real, check its contract: (result, problems)."""
    exp = manifest_mod.load(path, book)
    result = run_and_compare(exp, book)
    return result, contract.check(exp, result["outcome"])


def built_book(root: Path, experiments: dict[str, str], crates=tuple(CRATES)) -> tuple[Book, list[str]]:
    """A scratch workspace with these manifests (id → body), built once: (book, build log)."""
    from book.pipeline.build import build
    make_workspace(root, crates=crates)
    for exp_id, body in experiments.items():
        manifest(root, exp_id, body)
    book = scratch_book(root)
    lines = []
    assert build(book, log=lines.append) == []
    return book, lines


LOG_RE = re.compile(r"^\s+(cached|ran|compared|FAILED)\s+(\S+)")


def log_states(lines: list[str]) -> dict[str, str]:
    """{experiment id: cached | ran | compared | FAILED} from build()'s log lines."""
    out = {}
    for ln in lines:
        m = LOG_RE.match(ln)
        if m:
            out[m.group(2)] = m.group(1)
    return out


# --- a scratch mkdocs site -------------------------------------------------------------------

def scratch_site(root: Path, pages: dict[str, str], nav=None) -> Path:
    """docs/ with `pages`, the real mkdocs.yml (its nav cut to `nav`, by default the pages),
    book/, macros/ and overrides/ linked in; no build_outputs/ yet."""
    conf = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    conf = conf[:conf.index("\nnav:")] + "\nnav:\n" + "".join(f"  - {p}\n" for p in (nav or pages))
    write(root / "mkdocs.yml", conf)
    for name in ("book", "macros", "overrides"):
        os.symlink(REPO / name, root / name)
    write(root / "docs" / "assets" / "book.css", "")
    write(root / "docs" / "assets" / "search.js", "")
    for name, text in pages.items():
        write(root / "docs" / name, text)
    return root


def mkdocs_build(root: Path, env: dict | None = None, quiet: bool = False) -> tuple[int, str]:
    """`mkdocs build --strict` of a scratch site into root/site: (exit code, its output)."""
    env = env or dict(os.environ, NO_MKDOCS_2_WARNING="1")
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", *(["--quiet"] if quiet else []),
                        "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
                       cwd=root, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


# The outputs of a scratch experiment `esc` that must reach a page as text: HTML, a closing
# fence, Jinja and Markdown in what the programs printed.
ESC_BURN_TXT = ("<script>alert(1)</script>\n"
            "``` this line must not close the fence\n"
            "{{ secret }}\n"
            "END-OF-OUTPUT\n")
ESC_MSG = "<script>alert(2)</script> {{ secret }}"
# A manifest's `why`, a panic message: text, not Markdown.
ESC_WHY = "call __init__ twice; 2*3*4 terms"


def esc_site(root: Path, pages: dict[str, str]) -> Path:
    """A scratch site (nav: index.md) with the outputs of the experiment `esc`."""
    scratch_site(root, pages, nav=["index.md"])
    out = root / "build_outputs" / "esc"
    write(out / "burn.txt", ESC_BURN_TXT)
    write(out / "python.json", normalize.dump_json({"msg": ESC_MSG, "why": ESC_WHY}))
    ok = {"expected": {"kind": "ok"}, "actual": {"status": "ok", "exit_code": 0}}
    write(out / "outcome.json", normalize.dump_json({"python": ok, "burn": ok}))
    return root
