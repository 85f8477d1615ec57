"""make bench: how much the pipeline costs on top of the work it cannot avoid.

Measured in one run, in a scratch copy of the repo (sharing target/ and .venv), so the
committed cache is never touched. Each line gives the ratio to its floor:
  1. a no-op `make site` against what it cannot skip (book.commands.site_stamp's check), with a
     plain `mkdocs build` beside it;
  2. a one-page edit: `make site` against a `mkdocs build` with nothing to redo (the render
     pass every build pays) plus rendering that page alone;
  3. a one-experiment edit: the pipeline against that experiment's own build and run plus
     the render the edit needs (mkdocs after the same edit, the runner run apart);
  4. a cold run of every experiment (empty output cache, warm cargo) against its floor:
     max(the slowest experiment, the exclusive ones' time + the rest's time / cores);
  5. page weight: what each page's first view downloads, plain and gzip-compressed, measured
     in Debian's chromium against the built site; and the search index, fetched on search;
  6. the Zensical build (make site ENGINE=zensical), twice, beside mkdocs'.

  7. `make test` on a fresh clone of HEAD (the environment of a `make site` shared, an empty
     target/: the suite's one burn compile included), then again, warm.
  8. 扫描你的脚本: a generated 1,000-line script scanned on the page in chromium with its CPU
     slowed 4× (a phone's), from the click to the report on screen; the issue's bound is 1 s.
  9. 生成 burn crate: the same script, 「生成 burn crate（.tar.gz）」 pressed on the scan page, CPU
     slowed 4×, from the click to the browser's download event: the first press (it fetches the
     parser, the generator, targz.js and the rules; bound 2 s) and again; and the scan page's
     first view, gzip-compressed (bound 400 KB, test_scan_page's).

`python -m book.commands.bench weight` measures only 5, on a fresh build of this checkout;
`python -m book.commands.bench scan` only 8, on a fresh build of this checkout;
`python -m book.commands.bench port` only 9, on a fresh build of this checkout;
`python -m book.commands.bench edits` only 1–3; `python -m book.commands.bench suite` only 7.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..paths import ROOT

EDIT_ID = "l03-loss"
EDIT_FILE = "experiments/loss/loss.py"  # used by this experiment only
EDIT_CRATE = "l03-loss"
EDIT_PAGE = "docs/10-pitfalls/kldiv-reduction.md"


def exclusive_ids(repo: Path) -> set[str]:
    from ..experiments.manifest import discover
    from ..paths import Book
    return {e.id for e in discover(Book(repo)) if e.exclusive}


def median(measure, n: int = 5) -> float:
    return sorted(measure() for _ in range(n))[n // 2]


def timed(cmd, cwd, env=None) -> float:
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:  # a failed run is no timing: say what failed
        raise SystemExit(f"{' '.join(cmd)} 在 {cwd} 失败（退出码 {p.returncode}），最后的输出：\n"
                         + "\n".join(p.stdout.splitlines()[-40:]))
    return time.monotonic() - t0


def scratch_copy() -> Path:
    d = Path(tempfile.mkdtemp(prefix="book-bench-"))
    # The repo's own top-level folders only: ignore_patterns would drop book/site/ as well.
    top = {".venv", "target", "site", "node_modules", ".git", ".bench", ".drift", ".screenshots"}
    ignore = lambda folder, names: [n for n in names if n in top and Path(folder) == ROOT]  # noqa: E731
    shutil.copytree(ROOT, d / "repo", ignore=ignore, symlinks=True)
    repo = d / "repo"
    for shared in (".venv", "target", "node_modules"):
        if (ROOT / shared).exists():
            (repo / shared).symlink_to(ROOT / shared)
    # make site's skip asks git which files are inputs.
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    return repo


def page_weights(site: Path) -> None:
    """4. What each page's first view downloads in a fresh browser context (empty cache),
    served from 127.0.0.1 like `make serve`: plain and gzip-compressed, as a server would send
    it. The search index is apart: it comes only when the reader searches."""
    # The browser helpers live with the browser tests, so that the bench and the page-weight
    # test measure the same way.
    sys.path.insert(0, str(ROOT / "tests" / "site"))
    import gzip

    import browser_util as bu

    problem = bu.chromium_problem()
    if problem:
        print(f"4. 页面重量：没有测（{problem}）")
        return
    from playwright.sync_api import sync_playwright

    pages = bu.site_pages(site)
    with bu.serve(site) as base, sync_playwright() as pw:
        browser = bu.launch(pw)
        try:
            weights = {p: bu.page_weight(browser, base + p, settle_ms=100) for p in pages}
        finally:
            browser.close()
    gz = sorted(w["gzip"] for w in weights.values())
    heavy = max(weights, key=lambda p: weights[p]["gzip"])
    outside = sum(len(w["outside"]) for w in weights.values())
    index = (site / "search" / "search_index.json").read_bytes()
    print(f"4. 页面重量（{len(pages)} 页，各自空缓存加载首屏；gzip 后）：中位数 {gz[len(gz) // 2] / 1e3:.0f} KB，"
          f"最重 {gz[-1] / 1e3:.0f} KB（{heavy}，不压缩 {weights[heavy]['bytes'] / 1e3:.0f} KB，"
          f"{weights[heavy]['requests']} 个请求）；搜索索引搜索时才下载："
          f"{len(index) / 1e6:.2f} MB，gzip {len(gzip.compress(index, 6, mtime=0)) / 1e3:.0f} KB"
          + (f"；站外请求 {outside} 个" if outside else ""))


SCAN_LINES = 1000
SCAN_THROTTLE = 4  # Emulation.setCPUThrottlingRate: 4× slower, a phone-class CPU
SCAN_BOUND_MS = 1000
# Click the page's button and time until the report is in the page and laid out.
CLICK_AND_TIME = """() => new Promise(resolve => {
  const out = document.querySelector('#book-scan .scan-report');
  const runs = Number(out.dataset.runs || 0);
  const t0 = performance.now();
  new MutationObserver((_, obs) => {
    if (Number(out.dataset.runs || 0) <= runs) return;
    obs.disconnect();
    void out.offsetHeight;
    resolve([performance.now() - t0, window.BookScan.last.summary.calls]);
  }).observe(out, {attributes: true});
  document.querySelector('#book-scan button').click();
})"""


def thousand_lines() -> str:
    """All the fixture scripts (tests/scan/fixtures/) whole, as many times as they fit, then
    lines of torch calls up to SCAN_LINES: a long script of the kinds porters bring."""
    fixtures = [f.read_text(encoding="utf-8").splitlines()
                for f in sorted((ROOT / "tests" / "scan" / "fixtures").glob("*.py"))]
    lines, k = [], 0
    while len(lines) + len(fixtures[k % len(fixtures)]) <= SCAN_LINES:
        lines += fixtures[k % len(fixtures)]
        k += 1
    while len(lines) < SCAN_LINES:
        i = len(lines)
        lines.append(f"y{i} = torch.randn({i % 7 + 1}, 4).softmax(dim=-1).sum(dim=1, keepdim=True)")
    return "\n".join(lines) + "\n"


def scan_speed(site: Path) -> None:
    """8. The scan page on a built site: the first scan, pressed right after the paste that starts
    loading the rules and the parser, and two more."""
    sys.path.insert(0, str(ROOT / "tests" / "site"))
    import browser_util as bu

    problem = bu.chromium_problem()
    if problem:
        print(f"8. 扫描你的脚本：没有测（{problem}）")
        return
    from playwright.sync_api import sync_playwright

    with bu.serve(site) as base, sync_playwright() as pw:
        browser = bu.launch(pw)
        try:
            context = browser.new_context(viewport=bu.DESKTOP)
            bu.Guard(context)
            page = context.new_page()
            page.goto(base + "/scan/", wait_until="load")
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SCAN_THROTTLE})
            page.fill("#scan-input", thousand_lines())
            runs = [page.evaluate(CLICK_AND_TIME) for _ in range(3)]
        finally:
            browser.close()
    first, again = runs[0][0], min(ms for ms, _ in runs[1:])
    verdict = "在预算内" if first < SCAN_BOUND_MS else "超出预算"
    print(f"8. 扫描你的脚本：{SCAN_LINES} 行（{runs[0][1]} 个 torch 调用），chromium，CPU 降速 {SCAN_THROTTLE}×，"
          f"点按钮到报告画好：贴进脚本后马上点的第一次（规则和解析器在贴的时候开始下载）{first:.0f} ms，再扫 {again:.0f} ms；"
          f"预算 {SCAN_BOUND_MS} ms，{verdict}")


PORT_BOUND_MS = 2000  # the port issue's, for the first press
FIRST_VIEW_GZIP_BOUND = 400_000  # tests/site/test_scan_page.py's (every page's, test_browser.py)
PORT_BUTTON = "#book-scan button[data-book-port]"
# Press the port button from inside the page: no actionability checks in the timed span.
PRESS_PORT = f"() => document.querySelector({json.dumps(PORT_BUTTON)}).click()"
PORT_RUNS = "() => Number(document.querySelector('#book-scan .scan-report').dataset.portRuns || 0)"


def port_speed(site: Path) -> None:
    """9. 「生成 burn crate（.tar.gz）」 on the scan page of a built site: the first press (the
    parser, the generator, the archiver and the rules come with it) and two more; and the page's
    first view, weighed as test_scan_page.py weighs it (every request routed, none cached)."""
    sys.path.insert(0, str(ROOT / "tests" / "site"))
    import browser_util as bu

    problem = bu.chromium_problem()
    if problem:
        print(f"9. 生成 burn crate：没有测（{problem}）")
        return
    from playwright.sync_api import sync_playwright

    script = thousand_lines()
    classes = sum(1 for line in script.splitlines()
                  if line.startswith("class ") and "nn.Module" in line)
    with bu.serve(site) as base, sync_playwright() as pw:
        browser = bu.launch(pw)
        try:
            context = browser.new_context(viewport=bu.DESKTOP, accept_downloads=True)
            guard = bu.Guard(context)
            page = context.new_page()
            settle = bu.Settle(page)
            finished = []
            page.on("requestfinished", lambda r: finished.append(r))
            page.goto(base + "/scan/", wait_until="load")
            settle.wait()
            first_view = bu.weigh(finished)
            bu.wait_until(page, f"() => document.querySelector({json.dumps(PORT_BUTTON)})",
                          what="「生成 burn crate」按钮")
            page.fill("#scan-input", script)  # before the throttle: a 4× slower fill takes 20 s here
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SCAN_THROTTLE})
            runs, size = [], 0
            for _ in range(3):
                before = page.evaluate(PORT_RUNS)
                with page.expect_download(timeout=bu.SAFETY_MS) as download:
                    t0 = time.monotonic()
                    page.evaluate(PRESS_PORT)
                # expect_download returns once the download event has come.
                runs.append((time.monotonic() - t0) * 1000)
                size = Path(download.value.path()).stat().st_size
                bu.wait_until(page, f"n => ({PORT_RUNS})() > n", before, what="生成的状态行")
            status = page.inner_text("#book-scan .scan-report")
        finally:
            browser.close()
    if guard.outside:
        raise SystemExit(f"9. 生成 burn crate：有请求离开了 127.0.0.1：{guard.outside}")
    if not status.startswith("已生成 burn-port.tar.gz"):
        raise SystemExit(f"9. 生成 burn crate：页面没有生成 crate：{status}")
    first, again = runs[0], min(runs[1:])
    verdict = "在预算内" if first < PORT_BOUND_MS else "超出预算"
    weight = "在预算内" if first_view["gzip"] < FIRST_VIEW_GZIP_BOUND else "超出预算"
    print(f"9. 生成 burn crate：{SCAN_LINES} 行（{classes} 个 nn.Module 类），chromium，CPU 降速 {SCAN_THROTTLE}×，"
          f"点按钮到下载开始：第一次（含下载解析器、生成器、targz.js 和规则）{first:.0f} ms，"
          f"再点 {again:.0f} ms；预算 {PORT_BOUND_MS} ms，{verdict}（{size / 1e3:.0f} KB 的 .tar.gz，"
          f"{status.split('：', 1)[-1]}）；扫描页首屏 gzip 后 {first_view['gzip'] / 1e3:.0f} KB"
          f"（{first_view['requests']} 个请求），预算 {FIRST_VIEW_GZIP_BOUND // 1000} KB，{weight}")


def built_site(measure) -> int:
    """A fresh mkdocs build of this checkout, measured, then removed."""
    site = Path(tempfile.mkdtemp(prefix="book-bench-site-"))
    try:
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "mkdocs", "build", "--strict",
                        "--quiet", "-d", str(site)], cwd=ROOT, check=True,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        measure(site)
    finally:
        shutil.rmtree(site, ignore_errors=True)
    return 0


def weight_only() -> int:
    return built_site(page_weights)


def suite() -> int:
    """7. make test from a fresh clone: a new target/ (burn compiled once, for the suite's one
    feature set), then the same clone again. The budgets are the trust issue's: 10 and 4 min."""
    d = Path(tempfile.mkdtemp(prefix="book-bench-suite-"))
    try:
        repo = d / "repo"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True)
        for shared in (".venv", "node_modules"):  # what make site set up
            (repo / shared).symlink_to(ROOT / shared)
        (repo / "target").mkdir()
        for stamp in (repo / ".venv" / ".stamp", repo / "node_modules" / ".stamp",
                      repo / "target" / ".fetched", repo / "target" / ".system"):
            stamp.touch()  # newer than the clone's lock files: make does not set up again
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
        fresh = timed(["make", "-s", "test"], repo, env)
        warm = timed(["make", "-s", "test"], repo, env)
        print(f"7. make test，新克隆（空的 target/，含一次 burn 编译）：{fresh / 60:5.1f} 分钟（预算 10）；"
              f"再跑一次：{warm / 60:5.1f} 分钟（预算 4）")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return 0


def main() -> int:
    if sys.argv[1:] == ["weight"]:
        return weight_only()
    if sys.argv[1:] == ["suite"]:
        return suite()
    if sys.argv[1:] == ["scan"]:
        return built_site(scan_speed)
    if sys.argv[1:] == ["port"]:
        return built_site(port_speed)
    # `edits`: only 1–3 (the no-op and the two edits), without the cold run's minutes.
    edits_only = sys.argv[1:] == ["edits"]
    repo = scratch_copy()
    py = str(ROOT / ".venv" / "bin" / "python")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    mkdocs = [py, "-m", "mkdocs", "build", "--strict", "--quiet"]
    try:
        # Warm-up, so that the first measurement does not pay for imports and page memos; and
        # the edited experiment run once from this copy (cargo's fingerprints and the machine
        # facts the runner remembers are keyed on paths, and the copy's are new).
        timed(["make", "-s", "site"], repo, env)
        timed([py, "-m", "book.commands.runner", "build", EDIT_ID, "--force"], repo, env)
        timed(["make", "-s", "site"], repo, env)

        # Tenths of a second: the median of five.
        noop = median(lambda: timed(["make", "-s", "site"], repo, env))
        check = median(lambda: timed([py, "-m", "book.commands.site_stamp", "check"], repo, env))
        plain = timed(mkdocs + ["-d", str(repo.parent / "plain")], repo,
                      dict(env, BOOK_RENDER_MEMO="0"))
        print(f"1. 什么都没改的 make site：{noop:6.2f}s；它省不掉的检查：{check:6.2f}s"
              f"（{noop / check:.2f}×）；没有任何缓存的 mkdocs build：{plain:6.1f}s")

        # The render floor: a build that finds every page in the memo.
        floor = timed(mkdocs, repo, env)
        page = repo / EDIT_PAGE
        page.write_text(page.read_text(encoding="utf-8") + "\n<!-- bench edit -->\n", encoding="utf-8")
        edited = timed(["make", "-s", "site"], repo, env)
        # What that page alone costs to render: the same edit again, timed without the rest.
        page.write_text(page.read_text(encoding="utf-8") + "\n<!-- bench edit 2 -->\n", encoding="utf-8")
        again = timed(mkdocs, repo, env)
        alone = max(again - floor, 0.0)
        print(f"2. 改一页（{EDIT_PAGE}）后的 make site：{edited:6.1f}s；渲染下限（什么都不用重做的"
              f" mkdocs build {floor:.1f}s + 这一页 {alone:.1f}s）：{floor + alone:6.1f}s"
              f"（{edited / (floor + alone):.2f}×）")

        script = repo / EDIT_FILE
        script.write_text(script.read_text(encoding="utf-8") + "# bench edit\n", encoding="utf-8")
        pipeline = timed(["make", "-s", "site"], repo, env)
        own = timed(["cargo", "build", "-q", "-p", EDIT_CRATE, "--release"], repo,
                    dict(env, CARGO_TARGET_DIR=str(ROOT / "target")))
        own += timed([str(ROOT / "target" / "release" / EDIT_CRATE)], repo)
        own += timed([py, "-I", str(script)], repo)
        # The render this edit needs: the same edit again, the runner run apart, then mkdocs
        # alone (the memo gives back every page that does not show the experiment).
        script.write_text(script.read_text(encoding="utf-8") + "# bench edit 2\n", encoding="utf-8")
        runner_s = timed([py, "-m", "book.commands.runner", "build"], repo, env)
        render = timed(mkdocs, repo, env)
        print(f"3. 改一个实验（{EDIT_ID}）后的 make site：{pipeline:6.1f}s；它自己的构建+运行 {own:.1f}s"
              f" + 这次要的渲染 {render:.1f}s：{own + render:6.1f}s（{pipeline / (own + render):.2f}×；"
              f"其中 runner {runner_s:.1f}s）")

        if edits_only:
            return 0
        t0 = time.monotonic()
        subprocess.run([py, "-m", "book.commands.runner", "build", "--force"], cwd=repo, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        cold = time.monotonic() - t0
        exclusive = exclusive_ids(repo)
        slowest, worst, shared, alone_s = None, 0.0, 0.0, 0.0
        for entry in sorted((repo / "build_outputs").iterdir()):
            vol = entry / "volatile.json"
            if not vol.is_file():
                continue
            secs = json.loads(vol.read_text(encoding="utf-8"))["seconds"]
            # The two sides run one after the other inside one experiment.
            total = sum(secs.get("python", {}).values()) + sum(secs.get("burn", {}).values())
            if entry.name in exclusive:
                alone_s += total
            else:
                shared += total
            if total > worst:
                slowest, worst = entry.name, total
        cores = os.cpu_count() or 1
        cold_floor = max(worst, alone_s + shared / cores)
        n = sum(1 for e in (repo / "build_outputs").iterdir() if e.is_dir() and not e.name.startswith("."))
        print(f"4. 冷跑全部 {n} 个实验（输出缓存清空，cargo 已编译）：{cold:6.1f}s；下限 {cold_floor:6.1f}s"
              f" = max(最慢的单个实验 {slowest} {worst:.1f}s，独占的 {alone_s:.1f}s + 其余 {shared:.1f}s"
              f" / {cores} 核)（{cold / cold_floor:.2f}×）")

        if not (repo / "site" / "index.html").is_file():
            subprocess.run(mkdocs, cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        print("5. 页面大小：")
        page_weights(repo / "site")
        scan_speed(repo / "site")
        port_speed(repo / "site")

        # The same book by Zensical (make site ENGINE=zensical), last: it writes site/ too.
        zenv = dict(env, PYTHONPATH=str(repo))
        zen = [py, "-m", "zensical", "build", "--strict", "-f", str(repo / "mkdocs.yml")]
        z1 = timed(zen, repo, zenv)
        z2 = timed(zen, repo, zenv)
        print(f"6. Zensical 构建：{z1:6.1f}s，什么都没改再构建一次：{z2:6.1f}s；"
              f"mkdocs（渲染下限，记忆全部命中）：{floor:6.1f}s，没有缓存：{plain:6.1f}s")
    finally:
        shutil.rmtree(repo.parent, ignore_errors=True)
    return suite()


if __name__ == "__main__":
    sys.exit(main())
