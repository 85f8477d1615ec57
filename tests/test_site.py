"""The real book: `mkdocs build --strict` of docs/ from the committed build_outputs/."""
import os
import re
import subprocess

import pytest

from conftest import REPO, VENV_PY


@pytest.fixture(scope="module")
def index_html(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "-f",
                        str(REPO / "mkdocs.yml"), "-d", str(site)],
                       cwd=REPO, capture_output=True, text=True,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert p.returncode == 0, p.stdout + p.stderr
    return (site / "index.html").read_text(encoding="utf-8")


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
