"""The render memo (book/site/render_memo.py) in real mkdocs builds of a scratch book: a second
build reuses the first one's work and gives the same bytes; what the work would have found
(a bad link) still fails a strict build; a damaged memo is computed again."""
import json
import os
import shutil
from pathlib import Path

from scratch import esc_site, mkdocs_build

PAGE = """---
kind: appendix
---

# 附录

## 一节

正文，`x.masked_fill(m, v)`。

```python
print("hi")
```
"""

BAD_LINK = PAGE + "\n[不存在的页](nowhere.md)\n"


def env():
    return dict(os.environ, NO_MKDOCS_2_WARNING="1")


def site_bytes(root):
    return {p.relative_to(root / "site").as_posix(): p.read_bytes()
            for p in sorted((root / "site").rglob("*")) if p.is_file()}


def memo_files(root, kind):
    return sorted((root / "target" / ".book-render" / kind).glob("*.json"))


def test_second_build_hits_and_is_identical(tmp_path):
    root = esc_site(tmp_path, {"index.md": PAGE})
    code, out = mkdocs_build(root, env())
    assert code == 0, out
    first = site_bytes(root)
    pages, search = memo_files(root, "pages"), memo_files(root, "search")
    assert len(pages) == 1 and len(search) == 1
    stamps = [p.stat().st_mtime_ns for p in pages + search]
    shutil.rmtree(root / "site")
    code, out = mkdocs_build(root, env())
    assert code == 0, out
    assert site_bytes(root) == first
    # Hits: nothing was written again.
    assert [p.stat().st_mtime_ns for p in memo_files(root, "pages") + memo_files(root, "search")] == stamps


def test_an_edit_misses(tmp_path):
    root = esc_site(tmp_path, {"index.md": PAGE})
    assert mkdocs_build(root, env())[0] == 0
    (root / "docs" / "index.md").write_text(PAGE.replace("正文", "改过的正文"), encoding="utf-8")
    assert mkdocs_build(root, env())[0] == 0
    assert "改过的正文" in (root / "site" / "index.html").read_text(encoding="utf-8")
    assert len(memo_files(root, "pages")) == 2


def test_a_bad_link_fails_every_strict_build(tmp_path):
    root = esc_site(tmp_path, {"index.md": BAD_LINK})
    for _ in range(2):  # the second build takes the page from the memo
        code, out = mkdocs_build(root, env())
        assert code != 0 and "nowhere.md" in out, out
    assert len(memo_files(root, "pages")) == 1


def test_a_damaged_memo_is_computed_again(tmp_path):
    root = esc_site(tmp_path, {"index.md": PAGE})
    assert mkdocs_build(root, env())[0] == 0
    first = site_bytes(root)
    for p in memo_files(root, "pages") + memo_files(root, "search"):
        p.write_text(p.read_text(encoding="utf-8")[:40], encoding="utf-8")
    shutil.rmtree(root / "site")
    code, out = mkdocs_build(root, env())
    assert code == 0, out
    assert site_bytes(root) == first


def test_a_redrawn_diagram_is_not_served_from_the_memo(tmp_path):
    # The page's Markdown stays the same; what its ```mermaid fence becomes (an SVG in
    # diagrams/) changes: the memo must not hand back the old figure.
    from book.site import render_memo

    class Files:
        def documentation_pages(self):
            return []

    config = {"markdown_extensions": [], "mdx_configs": {}, "use_directory_urls": True}
    from book.site import diagrams
    from book.paths import Book
    d = tmp_path / "diagrams"
    d.mkdir()
    (d / "a-default-1111.svg").write_text("<svg/>", encoding="utf-8")
    diagrams.use(diagrams.Cache(tmp_path, d))
    try:
        render_memo.install_render_memo(Book(tmp_path), config, Files())
        before = render_memo._RENDER[1]
        (d / "a-default-1111.svg").rename(d / "a-default-2222.svg")
        render_memo.install_render_memo(Book(tmp_path), config, Files())
        assert render_memo._RENDER[1] != before
    finally:
        diagrams.use(diagrams.Cache())


MACRO_PAGE = """# 宏

Value: {{ value("esc", "python.why") }}
"""


def test_macro_output_comes_back_and_follows_the_data(tmp_path):
    root = esc_site(tmp_path, {"index.md": MACRO_PAGE})
    assert mkdocs_build(root, env())[0] == 0
    memo = memo_files(root, "macros")
    assert len(memo) == 2  # the output, and what the page read (deps-…)
    deps = json.loads(next(p for p in memo if p.name.startswith("deps-")).read_text(encoding="utf-8"))
    assert deps["value"]["ids"] == ["esc"]
    stamps = [p.stat().st_mtime_ns for p in memo]
    first = site_bytes(root)
    shutil.rmtree(root / "site")
    assert mkdocs_build(root, env())[0] == 0
    assert site_bytes(root) == first
    assert [p.stat().st_mtime_ns for p in memo_files(root, "macros")] == stamps
    # The page is the same; the experiment's output it shows is not.
    out = root / "build_outputs" / "esc" / "python.json"
    out.write_text(out.read_text(encoding="utf-8").replace("twice", "three times"), encoding="utf-8")
    assert mkdocs_build(root, env())[0] == 0
    assert "three times" in (root / "site" / "index.html").read_text(encoding="utf-8")


def test_a_page_calling_an_uncacheable_macro_is_not_kept(tmp_path):
    root = esc_site(tmp_path, {"index.md": "# 宏\n\n共 {{ pitfall_count() }} 个坑\n"})
    assert mkdocs_build(root, env())[0] == 0
    assert memo_files(root, "macros") == []


def test_an_experiment_edit_rerenders_only_the_pages_that_show_it(tmp_path):
    from book.running import normalize
    from scratch import write
    root = esc_site(tmp_path, {"index.md": MACRO_PAGE,
                                "b.md": '# 另一页\n\nValue: {{ value("two", "python.why") }}\n'})
    ok = {"expected": {"kind": "ok"}, "actual": {"status": "ok", "exit_code": 0}}
    write(root / "build_outputs" / "two" / "python.json", normalize.dump_json({"why": "one"}))
    write(root / "build_outputs" / "two" / "outcome.json", normalize.dump_json({"python": ok}))
    assert mkdocs_build(root, env())[0] == 0
    before = {p.name for p in memo_files(root, "macros")}
    assert len(before) == 4
    write(root / "build_outputs" / "two" / "python.json", normalize.dump_json({"why": "two"}))
    assert mkdocs_build(root, env())[0] == 0
    new = {p.name for p in memo_files(root, "macros")} - before
    assert len(new) == 1  # b.md's new output; index.md came from the memo
    assert "Value: two" in (root / "site" / "b" / "index.html").read_text(encoding="utf-8")


def test_a_macro_warning_fails_every_strict_build(tmp_path):
    # A warning logged while the macros render (here, a link to a page that is not there,
    # made by a macro) must fail the second build too, when the page comes from the memo.
    page = MACRO_PAGE + '\n{{ "[去哪](nowhere.md)" }}\n'
    root = esc_site(tmp_path, {"index.md": page})
    for _ in range(2):
        code, out = mkdocs_build(root, env())
        assert code != 0 and "nowhere.md" in out, out


def test_a_build_for_another_site_url_is_not_served_from_the_memo(tmp_path):
    # SITE_URL (mkdocs.yml's site_url) is an input of every key: a build for a host after a
    # local one writes that host's canonical links and sitemap, and a local build after it
    # gets the local build's entries back, byte for byte.
    host = "https://example.org/book/"
    root = esc_site(tmp_path, {"index.md": MACRO_PAGE})
    local = {k: v for k, v in env().items() if k != "SITE_URL"}
    assert mkdocs_build(root, local)[0] == 0
    first = site_bytes(root)
    assert b'<link rel="canonical" href="http://127.0.0.1:8000/">' in first["index.html"]
    kinds = ("pages", "search", "macros")
    before = {k: {p.name for p in memo_files(root, k)} for k in kinds}
    code, out = mkdocs_build(root, dict(local, SITE_URL=host))
    assert code == 0, out
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{host}">' in html and "127.0.0.1" not in html
    assert f"<loc>{host}</loc>" in (root / "site" / "sitemap.xml").read_text(encoding="utf-8")
    after = {k: {p.name for p in memo_files(root, k)} for k in kinds}
    # Each kind computed again (new entries), none handed back the local build's.
    assert all(after[k] - before[k] for k in kinds), (before, after)
    shutil.rmtree(root / "site")
    assert mkdocs_build(root, local)[0] == 0
    assert site_bytes(root) == first
    assert {k: {p.name for p in memo_files(root, k)} for k in kinds} == after


def test_the_figure_code_is_in_the_key(tmp_path, monkeypatch):
    # What a ```mermaid fence becomes is diagrams.html's HTML around the drawn SVGs: a change
    # to that code (one class attribute on the <svg>, not two) must reach every page.
    from book.paths import Book
    from book.site import diagrams, render_memo

    class Files:
        def documentation_pages(self):
            return []

    config = {"markdown_extensions": [], "mdx_configs": {}, "use_directory_urls": True}
    diagrams.use(diagrams.Cache(tmp_path, tmp_path / "diagrams"))
    try:
        render_memo.install_render_memo(Book(tmp_path), config, Files())
        before = render_memo._RENDER[1]
        edited = tmp_path / "diagrams_edited.py"
        edited.write_bytes(Path(diagrams.__file__).read_bytes() + b"\n# edited\n")
        monkeypatch.setattr(diagrams, "__file__", str(edited))
        render_memo.install_render_memo(Book(tmp_path), config, Files())
        assert render_memo._RENDER[1] != before
    finally:
        diagrams.use(diagrams.Cache())
