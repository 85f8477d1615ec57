"""The book built once per test session, shared by every test file (and every xdist worker) that
reads it: Material's build, and Zensical's with the Makefile's steps after it. A build is a few
seconds of both cores; five files each building their own cost half a minute of make test."""
import fcntl
import os
import shutil
import subprocess
from pathlib import Path

from scratch import REPO, VENV_PY

# What a Zensical copy links to instead of copying (read only during a build).
LINKED = ("book", "macros", "experiments", "crates", "build_outputs", "diagrams", "overrides",
          "target", "node_modules", "Cargo.toml", "Cargo.lock", "requirements.lock", "drift")


def copy_project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        if (REPO / name).exists():
            os.symlink(REPO / name, root / name)
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


def zensical(root: Path) -> tuple[int, str]:
    p = subprocess.run([str(VENV_PY), "-m", "zensical", "build", "--strict", "-f",
                        str(root / "mkdocs.yml")], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(root)))
    return p.returncode, p.stdout + p.stderr


def step(root: Path, *args: str) -> str:
    p = subprocess.run([str(VENV_PY), "-m", *args], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(root)))
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def build_material(out: Path) -> None:
    # The local address: a SITE_URL in the caller's environment is test_validate's business.
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "-q", "-f",
                        str(REPO / "mkdocs.yml"), "-d", str(out)], cwd=REPO, capture_output=True,
                       text=True, env=dict(env, NO_MKDOCS_2_WARNING="1"))
    assert p.returncode == 0, p.stdout + p.stderr


def build_zensical(out: Path) -> None:
    root = copy_project(out)
    code, text = zensical(root)
    assert code == 0, text
    # The Makefile's steps after the build: downloads, then the search index cut into words.
    step(root, "book.commands.downloads", str(root / "site"))
    step(root, "book.commands.search_segment", str(root / "site" / "search.json"))


def shared(tmp_path_factory, name: str, build) -> Path:
    """The folder `build` fills, built by whichever worker asks first, under a lock, in the
    session's common temp folder; a build that failed leaves no mark, so the next asker
    builds again and fails with its own message."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out, done = root / f"shared-{name}", root / f"shared-{name}.done"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            build(out)
            done.touch()
    return out
