"""The book as it is published: `mkdocs build --strict` for a host (SITE_URL), whose canonical
links and sitemap follow that address, and whose HTML passes html-validate (npm, pinned in
package-lock.json, installed by make setup's `npm ci`; its rules are .htmlvalidate.json's)."""
import gzip
import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import browser_util as bu
from scratch import REPO, SAFETY_S, VENV_PY

HOST = "https://example.org/book/"
VALIDATOR = REPO / "node_modules" / ".bin" / "html-validate"
CONFIG = REPO / ".htmlvalidate.json"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("published-site")
    p = subprocess.run([str(VENV_PY), "-m", "mkdocs", "build", "--strict", "-q", "-f",
                        str(REPO / "mkdocs.yml"), "-d", str(out)],
                       cwd=REPO, capture_output=True, text=True, timeout=SAFETY_S,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=HOST))
    assert p.returncode == 0, p.stdout + p.stderr
    return out


def html_files(site) -> list:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts)


# --------------------------------------------------------------------------- site_url

def test_canonical_links_follow_site_url(site):
    wrong = []
    for path in bu.site_pages(site):
        html = (site / path.lstrip("/") / "index.html").read_text(encoding="utf-8")
        want = HOST + path.lstrip("/")
        found = re.findall(r'<link rel="canonical" href="([^"]*)"', html)
        if found != [want]:
            wrong.append(f"{path}: {found}，应为 {want}")
    assert wrong == [], "\n".join(wrong)


def test_the_sitemap_follows_site_url(site):
    pages = bu.site_pages(site)
    xml = (site / "sitemap.xml").read_text(encoding="utf-8")
    assert sorted(re.findall(r"<loc>([^<]+)</loc>", xml)) == sorted(HOST + p.lstrip("/") for p in pages)
    # The compressed copy crawlers may fetch instead says the same.
    assert gzip.decompress((site / "sitemap.xml.gz").read_bytes()).decode("utf-8") == xml


def test_no_page_points_at_the_local_address(site):
    found = [p.relative_to(site).as_posix() for p in html_files(site)
             if "127.0.0.1:8000" in p.read_text(encoding="utf-8")]
    assert found == []


# --------------------------------------------------------------------------- html-validate

def validate(paths: list) -> list[dict]:
    """html-validate's findings for these files with the committed configuration: one dict a
    finding ({file, rule, message, selector}). Files go to one process per core."""
    assert VALIDATOR.is_file(), f"没有 {VALIDATOR}：运行 make setup（npm ci 按 package-lock.json 装 html-validate）"
    n = max(1, min(os.cpu_count() or 1, len(paths)))
    chunks = [c for c in (paths[i::n] for i in range(n)) if c]

    def run(k, chunk):
        # The report goes to a file: node cuts a piped stdout short when the CLI exits.
        report = Path(tempfile.gettempdir()) / f"html-validate-{os.getpid()}-{k}.json"
        try:
            p = subprocess.run([str(VALIDATOR), "--config", str(CONFIG), "--formatter",
                                f"json={report}", *map(str, chunk)], cwd=REPO,
                               capture_output=True, text=True, timeout=SAFETY_S)
            assert p.returncode in (0, 1), p.stdout + p.stderr  # 1: it found something
            found = json.loads(report.read_text(encoding="utf-8") or "[]")
        finally:
            report.unlink(missing_ok=True)
        return [{"file": f["filePath"], "rule": m["ruleId"], "message": m["message"],
                 "selector": m.get("selector")} for f in found for m in f["messages"]]

    with ThreadPoolExecutor(len(chunks)) as pool:
        return [x for found in pool.map(run, range(len(chunks)), chunks) for x in found]


def summary(findings: list[dict], root) -> str:
    by_rule = {}
    for f in findings:
        by_rule.setdefault(f["rule"], []).append(f)
    lines = []
    for rule, fs in sorted(by_rule.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"{rule}：{len(fs)} 处")
        for f in fs[:3]:
            rel = os.path.relpath(f["file"], root)
            lines.append(f"  {rel}: {f['message']} ({f['selector']})")
    return "\n".join(lines)


def test_the_built_html_passes_html_validate(site):
    files = html_files(site)
    assert len(files) > 40
    findings = validate(files)
    assert not findings, summary(findings, site)


# What .htmlvalidate.json lets through is Material's own markup, and only that: its section
# labels in the sidebar carry tabindex="" (the template writes the attribute with no number for
# a section), and its two toggles and the search box carry autocomplete="off" (Firefox would
# otherwise restore a toggle's state on reload). Nothing the book writes may use either.
MATERIAL_LABEL = re.compile(r'<label class="md-nav__link" for="__nav_[\d_]+" id="__nav_[\d_]+_label" tabindex="">')
MATERIAL_AUTOCOMPLETE = {
    '<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off">',
    '<input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search" autocomplete="off">',
}


def test_the_config_lets_through_only_materials_markup(site):
    other = []
    for p in html_files(site):
        html = p.read_text(encoding="utf-8")
        for tag in re.findall(r"<[a-z][^>]*\btabindex=\"\"[^>]*>", html):
            if not MATERIAL_LABEL.fullmatch(tag):
                other.append(f"{p.relative_to(site)}: {tag}")
        for tag in re.findall(r"<[a-z][^>]*\bautocomplete=[^>]*>", html):
            if tag not in MATERIAL_AUTOCOMPLETE and 'class="md-search__input"' not in tag:
                other.append(f"{p.relative_to(site)}: {tag}")
    assert other == [], "\n".join(other[:20])


BROKEN = """<!doctype html>
<html lang="zh"><head><title>坏页</title></head>
<body>
<nav><a href="x/">`HashMap<String, Linear>` 不是 Module</a></nav>
<figure><svg class="diagram-light" class="flowchart" viewBox="0 0 1 1"></svg></figure>
<div tabindex="">空的 tabindex</div>
<p>未转义的 < 号</p>
</body></html>
"""


def test_the_validator_finds_what_broke_the_book(tmp_path):
    # The faults this issue found in the built site, in one page: a raw `<String, …>` in a
    # title, a drawn diagram's two class attributes; and what the config still forbids
    # outside Material's labels. Each must be reported.
    page = tmp_path / "broken.html"
    page.write_text(BROKEN, encoding="utf-8")
    rules = {f["rule"] for f in validate([page])}
    assert {"element-name", "no-dup-attr", "attribute-allowed-values", "no-raw-characters"} <= rules, rules
    good = tmp_path / "good.html"
    good.write_text(BROKEN.split("<body>")[0] + "<body><p>好的</p></body></html>\n", encoding="utf-8")
    assert validate([good]) == []


# --------------------------------------------------------------------------- under its path

def test_the_site_works_under_its_path(site, browser, tmp_path):
    # Served where SITE_URL says (a /book/ folder of the host): pages, their assets, the 404
    # page (the one that refers to assets by absolute path) and search all load from there.
    root = tmp_path / "host"
    root.mkdir()
    (root / "book").symlink_to(site, target_is_directory=True)
    context = browser.new_context(viewport=bu.DESKTOP)
    guard = bu.Guard(context)
    failed = []
    context.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    try:
        with bu.serve(root) as url:
            page = context.new_page()
            for path in ("/book/", "/book/01-tensor/", "/book/reference/", "/book/404.html"):
                page.goto(url + path)
                bu.wait_until(page, "() => document.readyState === 'complete'", what=f"{path} 载入")
                # Material's stylesheet applied: its header sticks to the top.
                assert page.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky", path
            page.goto(url + "/book/")
            box = page.locator("input.md-search__input")
            box.click()
            box.fill("gather")
            box.press("End")
            bu.wait_until(page, "() => /\\d/.test(document.querySelector('.md-search-result__meta').textContent)",
                          what="子路径下搜索 gather 的结果")
            first = page.evaluate("() => new URL(document.querySelector('.md-search-result__item a').href).pathname")
            assert first.startswith("/book/"), first
    finally:
        context.close()
    assert failed == [] and guard.outside == []
