"""Reader pages speak to readers: outside the appendix no page's prose names a file of the
book's code (book/, macros/, the site's scripts), its cache (build_outputs/), an author's make
target or a test. A program's own files (crates/…, experiments/…) are named where the program
is shown: they are what a reader downloads and runs."""
import html
import re



# The book's own workings, as a reader would meet them in prose.
INTERNAL = re.compile(
    r"make (?:site|test|check|reproduce|diff|committed|drift|bench|outputs|ledger-merge|port-check)\b"
    r"|(?<![\w./-])(?:book|tests|macros|overrides)/[\w.-]"
    r"|(?<![\w./-])(?:build_outputs|docs/assets)/|\bMakefile\b|CONTRIBUTING")
# The appendix is about the book itself.
ALLOWED = ("appendix/",)


def prose(page_html: str) -> str:
    """A page's text without its scripts and code blocks."""
    t = re.sub(r"<(script|pre)\b.*?</\1>", " ", page_html, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", t))


def findings(site) -> list[str]:
    out = []
    for f in sorted(site.rglob("*.html")):
        rel = f.relative_to(site).as_posix()
        if rel.startswith(ALLOWED):
            continue
        text = prose(f.read_text(encoding="utf-8"))
        out += [f"{rel}：…{text[max(0, m.start() - 30):m.end() + 20].strip()}…" for m in INTERNAL.finditer(text)]
    return out


def test_no_reader_page_names_the_books_internals(site):
    assert findings(site) == []


def test_the_check_bites(tmp_path):
    page = tmp_path / "07-x" / "index.html"
    page.parent.mkdir()
    page.write_text("<p>运行 <code>make site</code> 重新生成；规则在 <code>docs/assets/scan.js</code>。</p>"
                    "<pre><code>make test</code></pre><p>crates/a1/src/main.rs</p>"
                    "<p>https://doc.rust-lang.org/book/ch19.html</p>", encoding="utf-8")
    (tmp_path / "appendix").mkdir()
    (tmp_path / "appendix" / "index.html").write_text("<p>make reproduce</p>", encoding="utf-8")
    got = findings(tmp_path)
    assert len(got) == 2 and all(g.startswith("07-x/index.html") for g in got)
