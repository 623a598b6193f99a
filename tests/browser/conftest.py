"""Fixtures for the end-to-end browser tests: Debian's Chromium driven by sync Playwright.

No network is available, so Playwright's own browser download is never used: the tests
launch /usr/bin/chromium and are skipped when it is not installed.
"""

import os
import threading
from pathlib import Path

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer

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


class OneRequestAtATime:
    """A WSGI app wrapper: one request at a time, held until its answer has been sent."""

    def __init__(self, app):
        self.app = app
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        self.lock.acquire()
        try:
            answer = self.app(environ, start_response)
        except BaseException:
            self.lock.release()
            raise
        return _ReleasedOnClose(answer, self.lock)


class _ReleasedOnClose:
    def __init__(self, answer, lock):
        self.answer, self.lock, self.held = answer, lock, True

    def __iter__(self):
        return iter(self.answer)

    def close(self):
        try:
            if hasattr(self.answer, "close"):
                self.answer.close()
        finally:
            if self.held:
                self.held = False
                self.lock.release()


class SerialWSGIServer(ThreadedWSGIServer):
    """Django's live server with its threads (a browser's idle preconnections must not block
    it), running one request's application at a time: they share one SQLite connection."""

    def set_app(self, application):
        super().set_app(OneRequestAtATime(application))


@pytest.fixture(scope="session")
def live_server(request, django_db_setup):
    """pytest-django's live server, started only once the test database exists.

    pytest sets session fixtures up before function ones, so its own `live_server` starts before
    `transactional_db` has created the in-memory SQLite database; it then sees a file database,
    shares no connection, and every request thread opens its own connection to the shared
    cache, where a read during another thread's write fails with "database table is locked".
    Started after `django_db_setup`, the server shares the test's connection; one connection
    cannot hold two threads' transactions, so on in-memory SQLite it runs one request at a time
    (on PostgreSQL each request thread keeps its own connection, as in production).
    """
    from pytest_django.live_server_helper import LiveServer

    addr = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    if server.thread.connections_override:
        server.thread.server_class = SerialWSGIServer
    server.start()
    yield server
    server.stop()


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
