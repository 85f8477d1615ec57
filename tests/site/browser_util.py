"""Browser helpers for tests/site/test_browser.py and `make bench`.

A built site is served on 127.0.0.1 by a threaded http.server; pip's playwright drives
Debian's chromium (never a browser playwright downloads). Every request the browser makes
goes through one route: requests to 127.0.0.1 go on, anything else is recorded and aborted.
"""
import contextlib
import gzip
import http.server
import os
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
HOST = "127.0.0.1"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# How long a wait for a condition may last: a safety net against a page that hangs, never a
# measure of speed (speed is make bench's). Reaching it fails the test and says so.
SAFETY_MS = 180_000


def safety_net(what: str) -> str:
    return (f"安全网：{what}，等了 {SAFETY_MS // 1000} 秒仍未出现。这个上限只防挂住，"
            "不衡量快慢：页面多半是卡住或出错了")


def wait_until(page, js: str, arg=None, what: str = "条件"):
    """page.wait_for_function with the safety net as its bound, polling every animation frame."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        return page.wait_for_function(js, arg=arg, timeout=SAFETY_MS, polling="raf")
    except PlaywrightTimeout:
        raise AssertionError(safety_net(what)) from None


def settled(page, js: str, arg=None, quiet_ms: int = 600, what: str = "结果"):
    """The value of js once it is non-empty and has stayed the same for quiet_ms: results a
    page renders in steps (a search worker's), read when they are done, however slow."""
    last, since, end = None, time.monotonic(), time.monotonic() + SAFETY_MS / 1000
    while time.monotonic() < end:
        now = page.evaluate(js, arg) if arg is not None else page.evaluate(js)
        if now != last:
            last, since = now, time.monotonic()
        elif now and time.monotonic() - since >= quiet_ms / 1000:
            return now
        page.wait_for_timeout(100)
    raise AssertionError(safety_net(what))


def chromium_problem() -> str | None:
    """None when the browser can be launched, else what to do about it."""
    if not CHROMIUM.exists():
        return (f"{CHROMIUM} is missing: run `bash tools/system-packages.sh` (make test's setup "
                "runs it) to install Debian's chromium and fonts-noto-cjk. Set BOOK_NO_BROWSER=1 "
                "to skip the browser tests on purpose.")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "pip's playwright is not in .venv: run `make setup` (requirements.lock pins it)."
    return None


def launch(pw):
    return pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)


def site_pages(site: Path) -> list[str]:
    """URL paths of every page of a built site ("/", "/01-tensor/", ...), sorted."""
    out = []
    for p in site.rglob("index.html"):
        rel = p.parent.relative_to(site).as_posix()
        out.append("/" if rel == "." else f"/{rel}/")
    return sorted(out)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A page left mid-download (the next page of a walk) closes its socket: not an error.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(directory: Path):
    """Serve a folder on 127.0.0.1 and a free port; yields the base URL without the slash."""
    handler = lambda *a, **k: _QuietHandler(*a, directory=str(directory), **k)  # noqa: E731
    server = _QuietServer((HOST, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOST}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True  # never leaves the browser
    return parts.hostname == HOST


class Guard:
    """Route every request of a browser context: 127.0.0.1 goes on, the rest is aborted
    and recorded as (label, url); label is whatever the caller set (the page being walked).

    `overrides` maps a URL path to a body served instead of the file (HTML, or JSON for a
    .json path): the self-tests put a broken page in front of the checks with it, and the
    walk swaps the search index for an empty one with the same config.
    """

    def __init__(self, context):
        self.outside: list[tuple[str, str]] = []
        self.label = ""
        self.overrides: dict[str, str] = {}
        context.route("**", self._route)

    def _route(self, route):
        url = route.request.url
        if not is_local(url):
            self.outside.append((self.label, url))
            route.abort()
            return
        path = urlsplit(url).path
        if path in self.overrides:
            kind = "application/json" if path.endswith(".json") else "text/html; charset=utf-8"
            route.fulfill(status=200, content_type=kind, body=self.overrides[path])
            return
        route.continue_()

    def body_of(self, url: str) -> bytes:
        """The bytes this guard lets through for a local URL: its override, or the file as
        the local server sends it again."""
        import urllib.request
        path = urlsplit(url).path
        if path in self.overrides:
            return self.overrides[path].encode()
        with urllib.request.urlopen(url) as r:
            return r.read()


# The diagrams of a page (book/site/diagrams.py draws them at build time; each figure.diagram
# carries an svg per mermaid theme and book.css shows one): one entry per figure. `kind` is
# mermaid's aria-roledescription ("flowchart-v2", ..., "error" for its syntax-error picture);
# `scale` is the shown svg's drawn width over its own width; `font` the smallest label's size
# in CSS px as drawn; `box`/`scroll`: the scrolling box's width and content width; `hint`: the
# height of the "scroll sideways" hint (0 while hidden).
DIAGRAMS_JS = """() => [...document.querySelectorAll('figure.diagram')].map(d => {
  const svgs = [...d.querySelectorAll(':scope > .diagram-scroll > svg')];
  const shown = svgs.filter(s => getComputedStyle(s).display !== 'none' && s.getBoundingClientRect().width > 0);
  const svg = shown[0] || null;
  const box = svg ? svg.getBoundingClientRect() : null;
  const vb = svg && svg.viewBox && svg.viewBox.baseVal;
  const scale = box && vb && vb.width ? box.width / vb.width : null;
  const texts = svg ? [...svg.querySelectorAll('text')] : [];
  const labels = texts.map(e => e.textContent.trim()).filter(Boolean);
  const scroller = d.querySelector('.diagram-scroll');
  const hint = d.querySelector('.diagram-hint');
  return {svg: !!svg, svgs: svgs.length, shown: shown.map(s => s.getAttribute('class')),
          kind: svg ? svg.getAttribute('aria-roledescription') : null,
          shapes: svg ? svg.querySelectorAll('g, path, rect, polygon, circle, text').length : 0,
          labels: labels.slice(0, 20),
          width: box ? box.width : 0, height: box ? box.height : 0, scale,
          font: texts.length && scale ? Math.min(...texts.map(t => parseFloat(getComputedStyle(t).fontSize))) * scale : null,
          box: scroller ? scroller.clientWidth : 0, scroll: scroller ? scroller.scrollWidth : 0,
          overflowX: scroller ? getComputedStyle(scroller).overflowX : null,
          hint: hint ? hint.getBoundingClientRect().height : 0,
          hintText: hint ? hint.textContent.trim() : '',
          text: svg ? '' : (d.textContent || '').trim().slice(0, 200)};
})"""


def wait_for_diagrams(page, timeout_ms: int = 30000) -> list[dict]:
    """Describe the page's diagrams. They are in the HTML already (drawn at build time):
    nothing to wait for; the name stays for the callers."""
    return page.evaluate(DIAGRAMS_JS)


class Settle:
    """Tracks a page's requests in flight, so that a walk can move on once the page has
    gone quiet (the search worker's fetches included) without networkidle's fixed 500 ms."""

    def __init__(self, page):
        self.page = page
        self.inflight = 0
        self.last = time.monotonic()
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)

    def _start(self, _):
        self.inflight += 1
        self.last = time.monotonic()

    def _end(self, _):
        self.inflight = max(0, self.inflight - 1)
        self.last = time.monotonic()

    def reset(self):
        self.inflight = 0
        self.last = time.monotonic()

    def wait(self, quiet_ms: int = 150):
        end = time.monotonic() + SAFETY_MS / 1000
        while time.monotonic() < end:
            self.page.wait_for_timeout(50)  # lets playwright deliver the events
            if self.inflight == 0 and time.monotonic() - self.last >= quiet_ms / 1000:
                return
        raise AssertionError(safety_net(f"{self.page.url} 的请求全部结束"))


_GZIP: dict = {}


def gzip_size(body: bytes) -> int:
    """What a compressing server would send for these bytes; each distinct body compressed
    once (every page of a walk loads the same bundles)."""
    import hashlib
    key = hashlib.sha256(body).digest()
    if key not in _GZIP:
        _GZIP[key] = len(gzip.compress(body, compresslevel=6, mtime=0))
    return _GZIP[key]


def page_weight(browser, url: str, settle_ms: int = 500) -> dict:
    """Load one page in a fresh context (empty cache) and add up what came over the wire.

    Returns {"bytes": response bodies in total, "gzip": the same bodies gzip-compressed (what
    a server that compresses sends; http.server sends them plain), "requests": count,
    "by_url": {url: bytes}, "gzip_by_url", "outside": requests that tried to leave 127.0.0.1}.
    The search worker's fetches count too.
    """
    context = browser.new_context(viewport=DESKTOP)
    guard = Guard(context)
    guard.label = url
    finished = []
    try:
        page = context.new_page()
        page.on("requestfinished", lambda r: finished.append(r))
        page.goto(url, wait_until="load")
        wait_for_diagrams(page)
        page.wait_for_load_state("networkidle")
        time.sleep(settle_ms / 1000)
        return dict(weigh(finished), outside=list(guard.outside))
    finally:
        context.close()


def weigh(finished, guard: "Guard | None" = None) -> dict:
    """What these finished requests brought: {"bytes", "gzip", "requests", "by_url",
    "gzip_by_url"} (see page_weight). Read before the page navigates on: bodies go with it.
    Chromium may still drop a body it holds (CI saw "No resource with given identifier"):
    then the guard serves the same bytes again (see Guard.body_of)."""
    from playwright.sync_api import Error
    by_url, gz = {}, {}
    for req in finished:
        size = req.sizes()["responseBodySize"]
        by_url[req.url] = by_url.get(req.url, 0) + max(size, 0)
        resp = req.response()
        try:
            body = resp.body() if resp is not None else b""
        except Error:
            if guard is None:
                raise
            body = guard.body_of(req.url)
        gz[req.url] = gz.get(req.url, 0) + gzip_size(body)
    return {"bytes": sum(by_url.values()), "gzip": sum(gz.values()), "requests": len(finished),
            "by_url": by_url, "gzip_by_url": gz}


def browser_disabled() -> bool:
    return os.environ.get("BOOK_NO_BROWSER") == "1"
