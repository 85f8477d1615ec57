"""An interrupted build leaves nothing behind: real runner processes, real signals."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from book.cache import lock
from scratch import REPO, SAFETY_S, make_workspace, manifest, scratch_book, wait_for, write

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
    wait_for(lambda: procs_with(n.encode()), "the experiment's grandchild starts")
    yield p, root, tmp, n
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    for pid in procs_with(n.encode()):
        os.kill(pid, signal.SIGKILL)


def assert_nothing_left(root: Path, tmp: Path, n: str):
    wait_for(lambda: not procs_with(n.encode()), "every child of the build has ended")
    wait_for(lambda: not list(tmp.iterdir()), "the scratch folder is removed")
    out = root / "build_outputs"
    assert not (out / "hang").exists() and not (out / ".failed" / "hang").exists()
    assert not [p for p in out.iterdir() if p.name.startswith((".tmp-", ".old-"))]
    book = scratch_book(root)
    with lock.build_lock(book):  # the next build can start at once (held, this would raise)
        pass


@pytest.mark.parametrize("how", ["SIGINT to the group", "SIGTERM to the runner"])
def test_interrupt_kills_children_and_stores_nothing(started, how):
    p, root, tmp, n = started
    if how.startswith("SIGINT"):
        os.killpg(p.pid, signal.SIGINT)
    else:
        os.kill(p.pid, signal.SIGTERM)
    out, err = p.communicate(timeout=SAFETY_S)
    assert p.returncode == 130, err
    assert "构建被中断" in err and "Traceback" not in err
    assert_nothing_left(root, tmp, n)


def test_sigkill_of_the_group_leaves_nothing(started):
    p, root, tmp, n = started
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate(timeout=SAFETY_S)
    assert p.returncode == -signal.SIGKILL
    assert_nothing_left(root, tmp, n)
