"""「生成 burn crate（.tar.gz）」 on the scan page (docs/assets/port-page.js) in chromium, under
both engines: each scan fixture pasted into the box downloads burn-port.tar.gz, byte for byte
the archive `python -m book.commands.port SCRIPT OUT.tar.gz --tar` writes for it (one
generator, docs/assets/port.js, one archiver, docs/assets/targz.js, one rules file). The
generator, the archiver, the parser and the rules wait for the first press: the page's first
view brings only the button's own script. Nothing leaves 127.0.0.1.

The CLI is given the script as script.py, the name the page gives it (the README and
src/model.rs name it), and the SITE_URL the build wrote into assets/port-rules.json."""
import json
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import browser_util as bu
from book.commands import port as cmd
from scratch import REPO

PAGE = "/scan/"
FIXTURES = sorted((REPO / "tests" / "scan" / "fixtures").glob("*.py"))
BUTTON = "#book-scan button[data-book-port]"
ON_PRESS = ("/assets/port.js", "/assets/targz.js", "/assets/port-rules.json", "/assets/pyparse.js")
RUNS = "() => Number(document.querySelector('#book-scan .scan-report').dataset.portRuns || 0)"


def cli_archives(root: Path, tmp: Path, monkeypatch) -> dict[str, bytes]:
    """{fixture name: the --tar archive}, under the site address this build's rules carry."""
    site_url = json.loads((root / "assets" / "port-rules.json").read_text(encoding="utf-8"))["site"]
    monkeypatch.setenv("SITE_URL", site_url)
    out = {}
    for fx in FIXTURES:
        work = tmp / fx.stem
        work.mkdir()
        shutil.copy(fx, work / "script.py")
        assert cmd.main([str(work / "script.py"), str(work / "out.tar.gz"), "--tar"]) == 0
        out[fx.name] = (work / "out.tar.gz").read_bytes()
    return out


def check_engine(browser, root: Path, expected: dict[str, bytes]) -> str:
    got, status = {}, {}
    with bu.serve(root) as base:
        context = browser.new_context(viewport=bu.DESKTOP, accept_downloads=True)
        guard = bu.Guard(context)
        try:
            page = context.new_page()
            settle = bu.Settle(page)
            finished = []
            page.on("requestfinished", lambda r: finished.append(r))
            page.goto(base + PAGE, wait_until="load")
            settle.wait()
            first = [urlsplit(r.url).path for r in finished]
            assert "/assets/port-page.js" in first
            assert not any(p in first for p in ON_PRESS), first
            assert page.inner_text(BUTTON) == "生成 burn crate（.tar.gz）"
            # The scanner's button is still the box's first (tests/site/test_scan_page.py clicks it).
            assert page.evaluate("() => document.querySelector('#book-scan button').textContent") == "扫描"
            for fx in FIXTURES:
                runs = page.evaluate(RUNS)
                page.fill("#scan-input", fx.read_text(encoding="utf-8"))
                with page.expect_download(timeout=bu.SAFETY_MS) as dl:
                    page.click(BUTTON)
                d = dl.value
                assert d.suggested_filename == "burn-port.tar.gz"
                got[fx.name] = Path(d.path()).read_bytes()
                bu.wait_until(page, f"n => ({RUNS})() > n", runs, what="生成的状态行")
                status[fx.name] = page.inner_text("#book-scan .scan-report")
            fetched = [urlsplit(r.url).path for r in finished]
        finally:
            context.close()
    assert guard.outside == []
    assert all(p in fetched for p in ON_PRESS if p != "/assets/pyparse.js") and "/assets/pyparse.js" in fetched
    for name, data in expected.items():
        assert got[name] == data, f"{name}: 页面下载的 .tar.gz 和 --tar 写的不是同样的字节"
        assert status[name].startswith("已生成 burn-port.tar.gz：") and "todo!" in status[name], status[name]
    return f"{len(got)} archives, {sum(map(len, got.values())):,} bytes"


def test_material_button_downloads_what_port_tar_writes(browser, site, tmp_path, monkeypatch):
    print("\nMaterial, 生成 burn crate:", check_engine(browser, site, cli_archives(site, tmp_path, monkeypatch)))


def test_zensical_button_downloads_what_port_tar_writes(browser, zsite, tmp_path, monkeypatch):
    print("\nZensical, 生成 burn crate:", check_engine(browser, zsite, cli_archives(zsite, tmp_path, monkeypatch)))
