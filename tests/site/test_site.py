"""The real book: `mkdocs build --strict` of docs/ from the committed build_outputs/."""
import os
import re
import subprocess

import pytest

from scratch import REPO, VENV_PY


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "-f",
                        str(REPO / "mkdocs.yml"), "-d", str(site)],
                       cwd=REPO, capture_output=True, text=True,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert p.returncode == 0, p.stdout + p.stderr
    return site


@pytest.fixture(scope="module")
def index_html(site):
    return (site / "index.html").read_text(encoding="utf-8")


def pages(site):
    return sorted(p for p in site.rglob("index.html") if "assets" not in p.parts)


def test_version_line(index_html):
    m = re.search(r'<p class="version-line">(.*?)</p>', index_html)
    assert m, "no version line"
    assert "burn 0.22.1" in m.group(1) and "PyTorch 2.15.0" in m.group(1)


def test_a1_comparison_and_mutation_are_shown(index_html):
    assert re.search(r"worst=\d\.\d\de-\d\d tol=1e-06 OK", index_html)
    assert "worst=1.00e-03 tol=1e-06 MISMATCH" in index_html  # the mutation check bit


def test_burn_links_point_at_the_resolved_tag(index_html):
    links = re.findall(r'https://github\.com/tracel-ai/burn[^"\s<>)]*', index_html)
    assert len(links) >= 5
    bad = [u for u in links if not u.startswith("https://github.com/tracel-ai/burn/blob/v0.22.1/")]
    assert bad == []
    assert all(re.search(r"#L\d+-L\d+$", u) for u in links)


def test_every_page_but_the_last_links_the_next_one(site):
    found = {p: p.read_text(encoding="utf-8") for p in pages(site)}
    assert len(found) > 30
    without = [p.relative_to(site).as_posix() for p, h in found.items()
               if "md-footer__link--next" not in h and "md-footer__link--prev" not in h]
    assert without == []
    assert sum("md-footer__link--next" in h for h in found.values()) == len(found) - 1


def test_01_is_an_entry_of_the_sidebar(index_html):
    assert re.search(r'<a href="01-tensor/"[^>]*>\s*(<span[^>]*>)?\s*01 张量', index_html)


def test_heading_anchors_are_readable(site):
    html = (site / "05-train-step" / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h2 id="([^"]+)"', html)
    assert "主线位置" in ids and "小结" in ids
    numbered = [i for p in pages(site) for i in re.findall(r'<h[1-6] id="(_\d+)"', p.read_text("utf-8"))]
    assert numbered == []


def test_sitemap_lists_every_page(site):
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))
    assert len(locs) == len(pages(site))
    assert all(u.startswith("http://127.0.0.1:8000/") for u in locs)


LONG = 80  # lines: longer outputs go in a collapsed block with a one-line summary


def test_long_outputs_are_collapsed(site):
    open_long = []
    for p in pages(site):
        shown = re.sub(r"<details.*?</details>", "", p.read_text(encoding="utf-8"), flags=re.S)
        open_long += [f"{p.relative_to(site).parent}: {pre.count(chr(10))} lines"
                      for pre in re.findall(r"<pre\b.*?</pre>", shown, flags=re.S) if pre.count("\n") > LONG]
    assert open_long == []
