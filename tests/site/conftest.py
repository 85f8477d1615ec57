"""The site tests' shared fixture: one headless chromium per test module (Debian's, never a
downloaded one)."""
import pytest

import browser_util as bu


@pytest.fixture(scope="module")
def browser():
    if bu.browser_disabled():
        pytest.skip("BOOK_NO_BROWSER=1: browser tests skipped on purpose")
    problem = bu.chromium_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = bu.launch(pw)
        yield b
        b.close()
