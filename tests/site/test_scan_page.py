"""「扫描你的脚本」 (docs/scan.md) in chromium, under both engines: a fixture pasted into the box
gives the very report `make scan FORMAT=json` prints for it (one scanner, docs/assets/scan.js,
one parser, assets/pyparse.js, and one rules file), nothing leaves 127.0.0.1, the rules and the
parser wait for the first scan so that the page's first view stays under the budget, and with
script off the page says it needs it. The comparison is also shown failing: the same page fed
other rules reports otherwise.

Without /usr/bin/chromium these tests fail and say how to install it; BOOK_NO_BROWSER=1 skips
them on purpose."""
import contextlib
import io
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import browser_util as bu
from book.commands import scan as cmd
from scratch import REPO

PAGE = "/scan/"
RULES = "/assets/scan-rules.json"
PARSER = "/assets/pyparse.js"
FIXTURE = REPO / "tests" / "scan" / "fixtures" / "finetune.py"
TYING = "from torch import nn\nhead, tok = nn.Linear(4, 9, bias=False), nn.Embedding(9, 4)\n\nhead.weight = tok.weight\n"
FIRST_VIEW_GZIP_BUDGET = 400_000  # tests/site/test_browser.py's, for every page
SEEN = """() => ({note: document.querySelector('#book-scan .scan-nojs').getClientRects().length > 0,
                box: document.querySelector('#book-scan textarea').getClientRects().length > 0})"""


@pytest.fixture(scope="module")
def cli_report() -> dict:
    """What `make scan SCRIPT=… FORMAT=json` prints (its main, in this process)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cmd.main(["--json", str(FIXTURE)]) == 0
    return json.loads(out.getvalue())


def scan(page, text: str) -> dict:
    """Paste text into the box, press the button, read the page's report once it is shown."""
    runs = page.evaluate("() => Number(document.querySelector('#book-scan .scan-report').dataset.runs || 0)")
    page.fill("#scan-input", text)
    page.click("#book-scan button")
    bu.wait_until(page, "n => Number(document.querySelector('#book-scan .scan-report').dataset.runs || 0) > n",
                  runs, what="扫描报告")
    return {"report": page.evaluate("() => window.BookScan.last"),
            "rows": page.evaluate("() => document.querySelectorAll('#book-scan .scan-call:not(.scan-head)').length")}


def check_engine(browser, root: Path, cli_report: dict, other_rules: bool = False) -> str:
    text = FIXTURE.read_text(encoding="utf-8")
    with bu.serve(root) as base:
        context = browser.new_context(viewport=bu.DESKTOP)
        guard = bu.Guard(context)  # every request routed: none cached, each one seen
        try:
            page = context.new_page()
            settle = bu.Settle(page)
            finished = []
            page.on("requestfinished", lambda r: finished.append(r))
            page.goto(base + PAGE, wait_until="load")
            settle.wait()
            first = bu.weigh(finished)
            assert page.evaluate(SEEN) == {"note": False, "box": True}
            # Focusing the box loads the rules and the parser, before any scan.
            with page.expect_response(lambda r: urlsplit(r.url).path == RULES, timeout=bu.SAFETY_MS):
                page.focus("#scan-input")
            bu.wait_until(page, "() => !!window.BookPyParse", what="解析器")
            assert page.evaluate("() => Number(document.querySelector('#book-scan .scan-report').dataset.runs || 0)") == 0
            got = scan(page, text)
            fetched = [urlsplit(r.url).path for r in finished]
            # A statement that calls nothing but has a pitfall is listed with its page's link.
            scan(page, TYING)
            tied = page.evaluate("() => [...document.querySelectorAll('#book-scan .scan-statements li')]"
                                 ".map(li => [li.textContent, li.querySelector('a').getAttribute('href')])")
            if other_rules:
                # The comparison can fail: the pitfall pages' scan: entries gone from the rules.
                rules = json.loads((root / RULES.lstrip("/")).read_text(encoding="utf-8"))
                rules["scan"] = []
                guard.overrides[RULES] = json.dumps(rules, ensure_ascii=False)
                page.reload(wait_until="load")
                other = scan(page, text)["report"]
                assert other != cli_report and other["summary"]["calls"] == cli_report["summary"]["calls"]
        finally:
            context.close()
        # Script off: the page says what the box needs instead of showing a dead one.
        context = browser.new_context(viewport=bu.DESKTOP, java_script_enabled=False)
        bu.Guard(context)
        try:
            page = context.new_page()
            page.goto(base + PAGE, wait_until="load")
            assert page.evaluate(SEEN) == {"note": True, "box": False}
        finally:
            context.close()
    assert guard.outside == []
    assert got["report"] == cli_report
    assert got["rows"] == len(cli_report["calls"])
    assert len(tied) == 1 and "第 4 行" in tied[0][0] and tied[0][1].endswith("10-pitfalls/weight-tying/"), tied
    # The rules and the parser come when the box is first focused, not with the page.
    for later in (RULES, PARSER):
        assert not any(urlsplit(u).path == later for u in first["by_url"]) and later in fetched, later
    assert first["gzip"] < FIRST_VIEW_GZIP_BUDGET, first["gzip"]
    return f"{first['gzip']:,} bytes gzip on first view ({first['requests']} requests)"


def test_material_page_reports_what_make_scan_reports(browser, site, cli_report):
    print("\nMaterial, the scan page:", check_engine(browser, site, cli_report, other_rules=True))


def test_zensical_page_reports_what_make_scan_reports(browser, zsite, cli_report):
    print("\nZensical, the scan page:", check_engine(browser, zsite, cli_report))
