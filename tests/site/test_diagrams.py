"""book/site/diagrams.py: the ```mermaid fences drawn at build time into diagrams/.

Real files and real processes: `python -m book.commands.diagrams` (with chromium where it draws) and
`mkdocs build --strict` on scratch projects whose diagrams/ starts as a copy of the real one.
"""
import os
import re
import shutil
import subprocess

import pytest

import browser_util as bu
from book.site import diagrams
from scratch import REPO, VENV_PY, mkdocs_build, scratch_site

# A fence of the book (docs/index.md's), so that the scratch projects can reuse its real SVGs.
REAL_PAGE = "index.md"


def run_diagrams(*args, env=None):
    p = subprocess.run([str(VENV_PY), "-m", "book.commands.diagrams", *args], cwd=REPO, capture_output=True,
                       text=True, env=dict(os.environ, **(env or {})))
    return p.returncode, p.stdout + p.stderr


def real_fence(page=REAL_PAGE) -> diagrams.Fence:
    (f,) = diagrams.find_fences((REPO / "docs" / page).read_text(encoding="utf-8"), page)
    return f


def fence_md(title: str, source: str) -> str:
    return f"# {title}\n\nBefore.\n\n```mermaid\n{source}\n```\n\nAfter.\n"


def scratch(root, pages: dict[str, str], drawn: list[diagrams.Fence] = ()):
    """A scratch site (tests/scratch.py) with diagrams/ holding the real SVGs of the fences
    in `drawn`, and the lock file that names mermaid's version."""
    scratch_site(root, pages)
    shutil.copy(REPO / "package-lock.json", root / "package-lock.json")
    real = diagrams.Cache()
    (root / "diagrams").mkdir()
    for f in drawn:
        for theme in diagrams.THEMES:
            (p,) = real.files()[(real.key(f.source, theme), theme)]
            shutil.copy(p, root / "diagrams" / p.name)
    return root


def needs_chromium():
    if bu.browser_disabled():
        pytest.skip("BOOK_NO_BROWSER=1: drawing needs chromium")
    problem = bu.chromium_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


# --------------------------------------------------------------------------- the real book

def test_every_fence_of_the_book_is_drawn():
    cache = diagrams.Cache()
    fences = cache.fences()
    assert len(fences) >= 10
    assert cache.check() == []
    # --check never starts a browser: it passes with chromium out of reach.
    code, out = run_diagrams("--check", env={"BOOK_CHROMIUM": "/nonexistent/chromium"})
    assert code == 0, out
    assert f"{len(fences)} 张 mermaid 图都已画好" in out
    assert cache.unused() == [], "files in diagrams/ that no fence uses: run python -m book.commands.diagrams"


def test_svgs_are_lean_and_self_contained():
    cache = diagrams.Cache()
    for f in cache.fences():
        ids = []
        for theme in diagrams.THEMES:
            svg = cache.svg(f.source, theme)
            assert svg.startswith("<svg ") and "<foreignObject" not in svg, f.where()
            assert "<script" not in svg and "data-points" not in svg, f.where()
            assert len(svg.encode()) < 40_000, (f.where(), len(svg.encode()))
            own = f"d{cache.key(f.source, theme)}-{theme}"
            found = re.findall(r'\sid="([^"]+)"', svg)
            assert found and all(i.startswith(own) for i in found), (f.where(), found[:5])
            ids += found
        assert len(ids) == len(set(ids)), f.where()


# --------------------------------------------------------------------------- fences and keys

def test_fences_are_found_like_superfences_hands_them_over():
    text = ("# T\n\n```mermaid\nflowchart LR\n  a --> b  \n\n```\n\n"
            "!!! note\n\n    ~~~~mermaid\n    flowchart TB\n      c --> d\n    ~~~~\n\n"
            "```python\nx = 1\n```\n")
    fs = diagrams.find_fences(text, "p.md")
    assert [f.source for f in fs] == ["flowchart LR\n  a --> b", "flowchart TB\n  c --> d"]
    assert [f.line for f in fs] == [3, 11]
    assert fs[0].first == "a --> b"
    cache = diagrams.Cache()
    # What superfences passes (trailing newline, the indent gone) has the same key.
    assert cache.key("flowchart LR\n  a --> b\n", "dark") == cache.key(fs[0].source, "dark")
    assert cache.key(fs[0].source, "dark") != cache.key(fs[0].source, "default")
    assert cache.key(fs[0].source, "dark") != cache.key(fs[0].source + "\n  b --> c", "dark")


# --------------------------------------------------------------------------- damaged, missing

def test_damaged_or_missing_svg_fails_check_and_build(tmp_path):
    f = real_fence()
    root = scratch(tmp_path, {"index.md": fence_md("Home", f.source)}, [f])
    code, out = mkdocs_build(root, quiet=True)
    assert code == 0, out
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert html.count('<figure class="diagram"') == 1
    assert html.count('<svg class="diagram-light"') == 1 and html.count('<svg class="diagram-dark"') == 1
    assert "mermaid.min.js" not in html and "flowchart TB" not in html  # no source, no script

    cache = diagrams.Cache(root)
    (dark,) = cache.files()[(cache.key(f.source, "dark"), "dark")]
    dark.write_bytes(dark.read_bytes().replace(b"</svg>", b"<!-- x --></svg>"))
    code, out = run_diagrams("--check", "--root", str(root))
    assert code == 1 and "页面 index.md 第 5 行的 mermaid 图" in out and "已损坏" in out, out
    code, out = mkdocs_build(root, quiet=True)
    assert code != 0 and "页面 index.md" in out and "已损坏" in out and "make site" in out, out

    dark.unlink()
    code, out = run_diagrams("--check", "--root", str(root))
    assert code == 1 and "页面 index.md" in out and "没有它的 dark 主题 SVG" in out, out
    code, out = mkdocs_build(root, quiet=True)
    assert code != 0 and "没有它的 dark 主题 SVG" in out and "make site" in out, out


# --------------------------------------------------------------------------- drawing

def test_a_changed_fence_is_drawn_again_and_only_it(tmp_path):
    needs_chromium()
    a, b = real_fence("index.md"), real_fence("06-data.md")
    changed = b.source + '\n  step --> done["下一批"]'
    root = scratch(tmp_path, {"index.md": fence_md("A", a.source), "b.md": fence_md("B", changed)}, [a, b])
    before = {p.name: p.read_bytes() for p in (root / "diagrams").iterdir()}
    cache = diagrams.Cache(root)
    problems = cache.check()
    assert len(problems) == 2 and all(p.startswith("页面 b.md 第 5 行") for p in problems), problems
    assert len(cache.unused()) == 2  # b's old pair

    code, out = run_diagrams("--root", str(root))
    assert code == 0, out
    drawn = [ln for ln in out.splitlines() if ln.startswith("画了")]
    assert len(drawn) == 2 and all("页面 b.md" in ln for ln in drawn), out
    assert out.count("删掉了没有图再用的") == 2, out
    after = {p.name: p.read_bytes() for p in (root / "diagrams").iterdir()}
    assert len(after) == 4
    for theme in diagrams.THEMES:  # a's files untouched
        (p,) = [n for n in before if n.startswith(cache.key(a.source, theme))]
        assert after[p] == before[p]
    assert cache.check() == [] and cache.unused() == []

    # Nothing missing: no browser is started (chromium out of reach, and it still passes).
    code, out = run_diagrams("--root", str(root), env={"BOOK_CHROMIUM": "/nonexistent/chromium"})
    assert code == 0 and "没有要画的" in out and "画了" not in out, out

    # The same source draws the same bytes.
    new = {n: after[n] for n in after if n not in before}
    for n in new:
        (root / "diagrams" / n).unlink()
    code, out = run_diagrams("--root", str(root))
    assert code == 0, out
    assert {p.name: p.read_bytes() for p in (root / "diagrams").iterdir()} == after

    code, out = mkdocs_build(root, quiet=True)
    assert code == 0, out
    html = (root / "site" / "b" / "index.html").read_text(encoding="utf-8")
    assert "下一批" in html and html.count('<figure class="diagram"') == 1


def test_a_diagram_mermaid_cannot_draw_fails_naming_the_page(tmp_path):
    needs_chromium()
    root = scratch(tmp_path, {"index.md": fence_md("Bad", "flowchart LR\n  a --> --> ]]")})
    code, out = run_diagrams("--root", str(root))
    assert code == 1 and "页面 index.md 第 5 行的 mermaid 图" in out and "mermaid 画不出来" in out, out
    assert list((root / "diagrams").glob("*.svg")) == []
