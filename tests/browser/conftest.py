"""Fixtures for the end-to-end browser tests: Debian's Chromium driven by sync Playwright.

No network is available, so Playwright's own browser download is never used: the tests
launch /usr/bin/chromium and are skipped when it is not installed.
"""

import os
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's async-safety check
# would otherwise refuse the database access made by the test and the live server.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's Chromium at {CHROMIUM}, which is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """Factory: new_page() opens a page in a fresh context (own cookies), i.e. one person."""
    contexts = []

    def open_page(locale: str = "en-US"):
        context = browser.new_context(locale=locale)
        context.set_default_timeout(5_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def typed(monkeypatch):
    """Every value typed into a field in the browser (Page.fill and Locator.fill)."""
    from playwright.sync_api import Locator, Page

    seen: list[str] = []
    page_fill, locator_fill = Page.fill, Locator.fill

    def fill_page(self, selector, value, **kwargs):
        seen.append(selector)
        return page_fill(self, selector, value, **kwargs)

    def fill_locator(self, value, **kwargs):
        seen.append(str(self))
        return locator_fill(self, value, **kwargs)

    monkeypatch.setattr(Page, "fill", fill_page)
    monkeypatch.setattr(Locator, "fill", fill_locator)
    return seen


@pytest.fixture
def clicks(monkeypatch):
    """Every click in the browser (a button, a link, a choice made in a select, a box checked)."""
    from playwright.sync_api import Locator, Page

    seen: list[str] = []
    originals = {name: getattr(Locator, name) for name in ("click", "select_option", "check")}
    page_click = Page.click

    def counted(name):
        def act(self, *args, **kwargs):
            seen.append(f"{name} {self}")
            return originals[name](self, *args, **kwargs)

        return act

    def click_page(self, selector, **kwargs):
        seen.append(f"click {selector}")
        return page_click(self, selector, **kwargs)

    for name in originals:
        monkeypatch.setattr(Locator, name, counted(name))
    monkeypatch.setattr(Page, "click", click_page)
    return seen
