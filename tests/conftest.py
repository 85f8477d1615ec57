"""Shared fixtures (the scratch builders themselves are in scratch.py) and make test's heartbeat."""
import os
from pathlib import Path

import pytest

from scratch import make_workspace


# make test runs the files on every core (pytest-xdist, --dist loadfile: a file's module
# fixtures are built once, on one worker). The longest files start first, so that no worker is
# left with one at the end: the rotation (burn's one compile on a fresh clone), then the two
# browser files. The other files that build burn crates come last: started earlier, they wait
# on cargo's lock while the rotation compiles (a fresh clone's A1 download test waited 290 s).
FIRST = ("tests/commands/test_rotation.py", "tests/site/test_browser.py", "tests/site/test_zensical.py")
LAST = ("tests/pipeline/test_e2e.py", "tests/site/test_downloads.py", "tests/pages/test_map_cells.py",
        "tests/port/test_port_build.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        first = next((n for n, f in enumerate(FIRST) if item.nodeid.startswith(f)), None)
        if first is not None:
            return first
        return len(FIRST) + (1 if item.nodeid.startswith(LAST) else 0)
    items.sort(key=rank)  # stable: within a file, and among the rest, the order stays


def _rotation_header(config, nodeids) -> None:
    """The rotating sample of this commit, at the top of the log (make test runs pytest -q,
    which prints no header), when test_rotation.py is among the tests."""
    if not any("test_rotation" in n for n in nodeids):
        return
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None:
        tr.write_line(rotation_line())


def pytest_collection_finish(session):
    if not hasattr(session.config, "workerinput"):  # a worker's own collection prints nothing
        _rotation_header(session.config, [item.nodeid for item in session.items])


_HEADER_DONE: list = []


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """Under xdist the controller collects nothing itself: the first worker's list says."""
    if not _HEADER_DONE:
        _HEADER_DONE.append(True)
        _rotation_header(node.config, ids)


def rotation_line() -> str:
    try:
        from book.commands import reproduce
        from scratch import E2E_IDS, REPO
        from book.paths import Book
        book = Book(REPO)
        pos = reproduce.position(book)
        picks = reproduce.sample(book, pos, E2E_IDS)
    except Exception as e:  # the header never stops the run; the test itself will fail
        return f"轮换复现：算不出这次的样本（{e}）"
    return (f"轮换复现：提交序号 {pos}，这次重跑 "
            + "、".join(f"{i}（{'两侧' if how == 'both' else '只 PyTorch'}）" for i, how in picks))


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


# Test id -> when it started: one at a time, or one per worker under xdist (the controller
# hears each worker's start and finish).
def pytest_runtest_logstart(nodeid, location):
    _CURRENT[nodeid] = time.monotonic()


def pytest_runtest_logfinish(nodeid, location):
    _CURRENT.pop(nodeid, None)


def pytest_sessionstart(session):
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    capman = session.config.pluginmanager.get_plugin("capturemanager")
    if tr is None or capman is None or _HEARTBEAT_S <= 0:
        return

    def beat():
        while True:
            time.sleep(_HEARTBEAT_S)
            now = time.monotonic()
            for nodeid, t0 in sorted(_CURRENT.copy().items()):
                if now - t0 < _HEARTBEAT_S:
                    continue
                s = int(now - t0)
                # Past the test's output capture for this one line (as pytest's live logging does).
                with capman.global_and_fixture_disabled():
                    if getattr(tr._tw, "width_of_current_line", 0):
                        tr._tw.line()  # not after a row of dots
                    tr.write_line(f"  …仍在运行 {nodeid}，已 {s // 60} 分 {s % 60:02d} 秒")
    threading.Thread(target=beat, daemon=True).start()
