"""An interrupted build leaves nothing behind: real runner processes, real signals."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from book.cache import lock
from scratch import REPO, make_workspace, manifest, scratch_book, write

# The experiment's script starts a grandchild and waits: an interrupt must end both.
SLEEPER = 'import subprocess, time\nsubprocess.Popen(["sleep", "{n}"])\ntime.sleep(120)\n'


def procs_with(arg: str) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if arg in (d / "cmdline").read_bytes().split(b"\0")[1:]:
                    out.append(int(d.name))
            except OSError:
                pass
    return out


def wait_for(pred, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def started(tmp_path, request):
    """A runner building a scratch project whose experiment hangs, once its grandchild runs."""
    n = str(int(time.time() * 1000) % 100000 + 100000)  # a unique `sleep N` to look for
    root = make_workspace(tmp_path / "proj", crates=("helper",))
    write(root / "experiments" / "hang.py", SLEEPER.format(n=n))
    manifest(root, "hang", "timeout: 300\npython:\n  script: hang.py\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = dict(os.environ, TMPDIR=str(tmp))
    p = subprocess.Popen([sys.executable, "-m", "book.commands.runner", "build", "--root", str(root)],
                         cwd=REPO, env=env, start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert wait_for(lambda: procs_with(n.encode())), "the experiment never started"
    yield p, root, tmp, n
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    for pid in procs_with(n.encode()):
        os.kill(pid, signal.SIGKILL)


def assert_nothing_left(root: Path, tmp: Path, n: str):
    assert wait_for(lambda: not procs_with(n.encode()), 10), "a child of the build is still running"
    assert wait_for(lambda: not list(tmp.iterdir()), 10), f"scratch left behind: {list(tmp.iterdir())}"
    out = root / "build_outputs"
    assert not (out / "hang").exists() and not (out / ".failed" / "hang").exists()
    assert not [p for p in out.iterdir() if p.name.startswith((".tmp-", ".old-"))]
    book = scratch_book(root)
    t0 = time.monotonic()
    with lock.build_lock(book):  # the next build can start at once
        pass
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM to the runner"])
def test_interrupt_kills_children_and_stores_nothing(started, how):
    p, root, tmp, n = started
    if how.startswith("SIGINT"):
        os.killpg(p.pid, signal.SIGINT)
    else:
        os.kill(p.pid, signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "构建被中断" in err and "Traceback" not in err
    assert_nothing_left(root, tmp, n)


def test_sigkill_of_the_group_leaves_nothing(started):
    p, root, tmp, n = started
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate(timeout=60)
    assert p.returncode == -signal.SIGKILL
    assert_nothing_left(root, tmp, n)
