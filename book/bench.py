"""make bench: how much the pipeline costs on top of the work it cannot avoid.

Measured in one run, in a scratch copy of the repo (sharing target/ and .venv), so the
committed cache is never touched:
  1. a no-op `make site` against a plain `mkdocs build`;
  2. a one-experiment edit: the pipeline against that experiment's own build, run and
     `mkdocs build`;
  3. a cold run of every experiment (empty output cache, warm cargo) against its critical
     path, the slowest single experiment;
  4. page weight: what a reader's browser downloads for a page without a diagram and for
     one with (bytes, requests), measured in Debian's chromium against the built site.

`python -m book.bench weight` measures only 4, on a fresh build of this checkout.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .paths import ROOT

EDIT_ID = "sum-order"
EDIT_FILE = "experiments/guide/sum_order.py"
EDIT_CRATE = "sum-order"


def timed(cmd, cwd, env=None) -> float:
    t0 = time.monotonic()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.monotonic() - t0


def scratch_copy() -> Path:
    d = Path(tempfile.mkdtemp(prefix="book-bench-"))
    ignore = shutil.ignore_patterns(".venv", "target", "site", "node_modules", ".git", ".bench",
                                   ".drift", ".screenshots")
    shutil.copytree(ROOT, d / "repo", ignore=ignore, symlinks=True)
    repo = d / "repo"
    for shared in (".venv", "target", "node_modules"):
        if (ROOT / shared).exists():
            (repo / shared).symlink_to(ROOT / shared)
    return repo


def page_weights(site: Path) -> None:
    """4. Bytes and requests of loading one page without a diagram and one with, in a fresh
    browser context (empty cache), served from 127.0.0.1 like `make serve`."""
    # The browser helpers live with the browser tests, so that the bench and the page-weight
    # test measure the same way.
    sys.path.insert(0, str(ROOT / "tests"))
    import browser_util as bu

    problem = bu.chromium_problem()
    if problem:
        print(f"4. 页面重量：没有测（{problem}）")
        return
    from playwright.sync_api import sync_playwright

    pages = bu.site_pages(site)
    has_diagram = {p: '<div class="diagram">' in (site / p.lstrip("/") / "index.html")
                   .read_text(encoding="utf-8") for p in pages}
    plain = next((p for p in pages if p.startswith("/10-pitfalls/") and p != "/10-pitfalls/"
                  and not has_diagram[p]), None) or next((p for p in pages if not has_diagram[p]), None)
    drawn = next((p for p in pages if has_diagram[p] and p != "/"), None)
    print("4. 页面重量（空缓存加载一页，所有响应体之和；http.server 不压缩）：")
    with bu.serve(site) as base, sync_playwright() as pw:
        browser = bu.launch(pw)
        try:
            for label, path in (("没有图的一页", plain), ("有图的一页", drawn)):
                if path is None:
                    print(f"   {label}：站点里没有这样的页面")
                    continue
                w = bu.page_weight(browser, base + path)
                part = lambda end: sum(n for u, n in w["by_url"].items() if u.endswith(end))  # noqa: E731
                print(f"   {label} {path}：{w['bytes'] / 1e6:6.2f} MB，{w['requests']} 个请求"
                      f"（mermaid.min.js {part('mermaid.min.js') / 1e6:.2f} MB，"
                      f"搜索索引 {part('search_index.json') / 1e6:.2f} MB）"
                      + (f"；站外请求 {len(w['outside'])} 个" if w["outside"] else ""))
        finally:
            browser.close()


def weight_only() -> int:
    site = Path(tempfile.mkdtemp(prefix="book-bench-site-"))
    try:
        subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-m", "mkdocs", "build", "--strict",
                        "--quiet", "-d", str(site)], cwd=ROOT, check=True,
                       env=dict(os.environ, NO_MKDOCS_2_WARNING="1"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        page_weights(site)
    finally:
        shutil.rmtree(site, ignore_errors=True)
    return 0


def main() -> int:
    if sys.argv[1:] == ["weight"]:
        return weight_only()
    repo = scratch_copy()
    py = str(ROOT / ".venv" / "bin" / "python")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    mkdocs = [py, "-m", "mkdocs", "build", "--strict", "--quiet"]
    try:
        # Warm-up, so that the first measurement does not pay for imports and page caches.
        timed(["make", "-s", "site"], repo, env)

        noop = timed(["make", "-s", "site"], repo, env)
        plain = timed(mkdocs, repo, env)
        print(f"1. 什么都没改的 make site：{noop:6.1f}s；单纯 mkdocs build：{plain:6.1f}s；"
              f"多出 {noop - plain:+.1f}s")

        script = repo / EDIT_FILE
        script.write_text(script.read_text(encoding="utf-8") + "# bench edit\n", encoding="utf-8")
        pipeline = timed(["make", "-s", "site"], repo, env)
        own = timed(["cargo", "build", "-q", "-p", EDIT_CRATE, "--release"], repo,
                    dict(env, CARGO_TARGET_DIR=str(ROOT / "target")))
        own += timed([str(ROOT / "target" / "release" / EDIT_CRATE)], repo)
        own += timed([py, "-I", str(script)], repo)
        own += timed(mkdocs, repo, env)
        print(f"2. 改一个实验（{EDIT_ID}）后的 make site：{pipeline:6.1f}s；"
              f"它自己的构建+运行+mkdocs build：{own:6.1f}s；多出 {pipeline - own:+.1f}s")

        t0 = time.monotonic()
        subprocess.run([py, "-m", "book.runner", "build", "--force"], cwd=repo, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        cold = time.monotonic() - t0
        slowest, worst = None, 0.0
        for entry in sorted((repo / "build_outputs").iterdir()):
            vol = entry / "volatile.json"
            if not vol.is_file():
                continue
            secs = json.loads(vol.read_text(encoding="utf-8"))["seconds"]
            py_s = sum(secs.get("python", {}).values())
            rs_s = sum(secs.get("burn", {}).values())
            # The two sides run one after the other inside one experiment.
            total = py_s + rs_s
            if total > worst:
                slowest, worst = entry.name, total
        n = sum(1 for e in (repo / "build_outputs").iterdir() if e.is_dir() and not e.name.startswith("."))
        print(f"3. 冷跑全部 {n} 个实验（输出缓存清空，cargo 已编译）：{cold:6.1f}s；"
              f"关键路径（最慢的单个实验 {slowest}）：{worst:6.1f}s；核数 {os.cpu_count()}")

        if not (repo / "site" / "index.html").is_file():
            subprocess.run(mkdocs, cwd=repo, env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        page_weights(repo / "site")
    finally:
        shutil.rmtree(repo.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
