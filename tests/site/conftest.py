"""The site tests' shared fixtures: the two builds of the book (builds.py; once per session,
whichever worker asks first) and one headless chromium per test module (Debian's, never a
downloaded one)."""
from pathlib import Path

import pytest

import browser_util as bu
import builds


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """mkdocs-material's build of the book, for the local address. Read only."""
    return builds.shared(tmp_path_factory, "material", builds.build_material)


@pytest.fixture(scope="session")
def zsite(tmp_path_factory) -> Path:
    """Zensical's build, downloads and segmented index included. Read only."""
    return builds.shared(tmp_path_factory, "zensical", builds.build_zensical) / "site"


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
