"""make site's skip: site/ counts as built only while every input and site/ itself are as the
last successful build left them (book/site/site_stamp.py), in a real git repository."""
import json
import os
import subprocess
import sys

import pytest

from book.site import site_stamp
from book.paths import Book, ROOT


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# 首页\n", encoding="utf-8")
    (tmp_path / "build_outputs").mkdir()
    (tmp_path / "build_outputs" / "a.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("/site/\n/target/\n", encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    book = Book(tmp_path)
    built(book)
    return book


def built(book):
    """What make site does around mkdocs: snapshot, write site/, commit."""
    site_stamp.snapshot(book)
    (book.root / "site").mkdir(exist_ok=True)
    (book.root / "site" / "index.html").write_text("<h1>首页</h1>", encoding="utf-8")
    site_stamp.commit(book)


def test_fresh_after_a_build(project):
    assert site_stamp.stale(project) is None


def test_an_edited_page_rebuilds(project):
    (project.root / "docs" / "index.md").write_text("# 首页！\n", encoding="utf-8")
    assert site_stamp.stale(project) == "docs/index.md 变了"


def test_a_touch_without_a_change_does_not(project):
    f = project.root / "build_outputs" / "a.json"
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert site_stamp.stale(project) is None


def test_a_new_untracked_file_rebuilds(project):
    (project.root / "docs" / "new.md").write_text("# 新\n", encoding="utf-8")
    assert site_stamp.stale(project) == "文件多了：docs/new.md"


def test_a_deleted_input_rebuilds(project):
    (project.root / "build_outputs" / "a.json").unlink()
    assert site_stamp.stale(project) == "文件少了：build_outputs/a.json"


def test_ignored_files_do_not_count(project):
    (project.root / "target").mkdir(exist_ok=True)
    (project.root / "target" / "x.o").write_bytes(b"\0")
    assert site_stamp.stale(project) is None


def test_a_hand_edit_in_site_rebuilds(project):
    (project.root / "site" / "index.html").write_text("<h1>改过</h1>", encoding="utf-8")
    assert site_stamp.stale(project) == "site/ 和上次构建的不一样"


def test_a_failed_build_leaves_no_stamp(project):
    site_stamp.snapshot(project)  # mkdocs then fails: no commit
    assert site_stamp.stale(project) == "还没有构建记录"


def test_an_edit_during_the_build_rebuilds_next_time(project):
    site_stamp.snapshot(project)
    (project.root / "docs" / "index.md").write_text("# 构建时改的\n", encoding="utf-8")
    site_stamp.commit(project)
    assert site_stamp.stale(project) == "docs/index.md 变了"


def test_a_hardware_variable_rebuilds(project, monkeypatch):
    monkeypatch.setenv("BOOK_HARDWARE", "vulkan")
    assert site_stamp.stale(project) in ("机器的 hardware 变了", "机器的 env 变了")


def test_the_command_exits_by_the_verdict(project):
    run = lambda: subprocess.run([sys.executable, "-m", "book.commands.site_stamp", "check"], cwd=ROOT,
                                 env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                                 text=True)
    # The command reads the real book: only its exit code and message format are checked here.
    p = run()
    assert p.returncode in (0, 1)
    assert p.stdout.startswith("没有变化" if p.returncode == 0 else "要构建：")


def test_only_pages_changed_skips_the_runner(project):
    (project.root / "docs" / "index.md").write_text("# 首页！\n", encoding="utf-8")
    assert site_stamp.examine(project) == ("docs/index.md 变了", True)
    (project.root / "build_outputs" / "a.json").write_text('{"x": 1}\n', encoding="utf-8")
    why, pages_only = site_stamp.examine(project)
    assert why and not pages_only


def test_a_new_page_alone_is_pages_only(project):
    (project.root / "docs" / "new.md").write_text("# 新\n", encoding="utf-8")
    assert site_stamp.examine(project) == ("文件多了：docs/new.md", True)


def test_snapshot_rehashes_only_what_moved(project, monkeypatch):
    hashed = []
    real = site_stamp._sha
    monkeypatch.setattr(site_stamp, "_sha", lambda p: hashed.append(p.name) or real(p))
    (project.root / "docs" / "index.md").write_text("# 首页！\n", encoding="utf-8")
    built(project)
    assert hashed == ["index.md"]
    assert site_stamp.stale(project) is None


def test_the_engine_counts_and_defaults_to_mkdocs(project, monkeypatch):
    monkeypatch.setenv("BOOK_ENGINE", "mkdocs")
    assert site_stamp.stale(project) is None  # make's export and a bare check agree
    monkeypatch.setenv("BOOK_ENGINE", "zensical")
    assert site_stamp.stale(project) == "机器的 engine 变了"


def test_site_url_is_an_input_and_skips_only_the_runner(project, monkeypatch):
    # A build for a host after a local one must rebuild (canonical links, sitemap.xml), and a
    # plain build after that must rebuild back; the runner has nothing to do either time.
    monkeypatch.delenv("SITE_URL", raising=False)
    assert site_stamp.stale(project) is None
    monkeypatch.setenv("SITE_URL", "https://example.org/book/")
    why, pages_only = site_stamp.examine(project)
    assert why and "SITE_URL" in why and "https://example.org/book/" in why and pages_only
    built(project)
    assert site_stamp.stale(project) is None
    monkeypatch.setenv("SITE_URL", "https://example.org/other/")
    assert "SITE_URL" in site_stamp.stale(project)
    monkeypatch.delenv("SITE_URL")
    why, pages_only = site_stamp.examine(project)
    assert why and "SITE_URL" in why and pages_only
    built(project)
    assert site_stamp.stale(project) is None


def test_site_url_with_an_edited_experiment_still_runs_the_runner(project, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://example.org/book/")
    (project.root / "build_outputs" / "a.json").write_text('{"x": 1}\n', encoding="utf-8")
    why, pages_only = site_stamp.examine(project)
    assert why == "build_outputs/a.json 变了" and not pages_only


def test_a_stamp_from_before_site_url_counts_as_unset(project, monkeypatch):
    # Stamps written before SITE_URL was recorded: a plain build is still up to date.
    monkeypatch.delenv("SITE_URL", raising=False)
    path = site_stamp._stamp(project)
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("site_url")
    path.write_text(json.dumps(data), encoding="utf-8")
    assert site_stamp.stale(project) is None
    monkeypatch.setenv("SITE_URL", "https://example.org/book/")
    assert "SITE_URL" in site_stamp.stale(project)


def test_the_command_says_the_runner_is_skipped_for_site_url(project, monkeypatch, capsys):
    from book.commands import site_stamp as command
    monkeypatch.setattr(command, "Book", lambda: project)
    monkeypatch.setenv("SITE_URL", "https://example.org/book/")
    assert command.main(["check"]) == 3
    assert capsys.readouterr().out.startswith("要构建：SITE_URL 变了")
