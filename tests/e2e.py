"""Shared helpers for browser tests: a live server in a thread and Debian's chromium through Playwright.

Use them from any ``tests/test_e2e_*.py``; the fixtures must be imported into the test module
(they are not in conftest.py)::

    import pytest
    from tests.e2e import browser, live_app, live_server, open_page, log_in  # noqa: F401 (fixtures)

    @pytest.mark.e2e
    def test_something(live_server, open_page):
        page = open_page("floor")                 # a fresh browser context, logged in as the floor user
        page.goto(live_server.url + "/floor/")

Fixtures:

- ``live_app``: the app with CSRF on (as in production), a fresh SQLite file and the test users of
  conftest (``dana`` director, ``fred`` floor, ``dee`` dealer, password ``conftest.PASSWORD``).
  Override it in a test module to serve another app.
- ``live_server``: ``live_app`` served by werkzeug's ``make_server("127.0.0.1", 0, app, threaded=True)``
  in a thread; ``.url`` is its base URL, ``.app`` the app. Shut down and closed after the test.
- ``browser``: Debian's ``/usr/bin/chromium`` launched headless with :data:`ARGS` (no sandbox, no
  network of its own: docs/testing.md), once per test process (conftest's ``chromium``: issue 34,
  it was launched again for each module). Skips the test, saying why, when chromium or playwright
  is missing. Never run ``playwright install``.
- ``open_page(role=None, viewport=TABLET)``: a new browser context (its own cookies: a separate
  device) and page, logged in as the role's test user when ``role`` is given. Every context is
  closed after the test, before the server stops.

Plain helpers: :func:`log_in` (the real login form), :func:`serve` (a context manager for a live
server of any app), :data:`CHROMIUM` (``FLOOR_E2E_CHROMIUM`` overrides the path), :data:`ARGS`,
:data:`TABLET` (1024x768), :data:`TABLET_PORTRAIT` (820x1180).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.conftest import PASSWORD, USERS, make_app

CHROMIUM = os.environ.get("FLOOR_E2E_CHROMIUM", "/usr/bin/chromium")  # Debian's; never `playwright install`
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
TABLET = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 820, "height": 1180}
USER_OF_ROLE = {role: name for name, role in USERS.items()}


@dataclass
class LiveServer:
    url: str
    app: Any


@contextmanager
def serve(app: Any) -> Iterator[LiveServer]:
    """Serve ``app`` on 127.0.0.1 (a free port) from a thread; stop and close the socket on exit."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(f"http://127.0.0.1:{server.server_port}", app)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def log_in(page: Any, base_url: str, username: str, password: str = PASSWORD) -> None:
    """Log a page in through the login form (CSRF token and all) and wait for the home page."""
    page.goto(base_url + "/login")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("main button[type=submit]")  # not the header's "Log out"
    page.wait_for_url(lambda url: "/login" not in url)


@pytest.fixture
def live_app(tmp_path):
    """The app with CSRF protection on, as the browser meets it in production."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    from floor import tables
    from floor.extensions import db

    tables.cache.clear()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def live_server(live_app):
    """``live_app`` served from a thread; ``live_server.url`` is the base URL."""
    with serve(live_app) as server:
        yield server


def launch() -> Iterator[Any]:
    """Debian's chromium, headless, through Playwright, until the generator is closed (skips the
    test with the reason when it cannot run)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a test dependency
        pytest.skip("browser tests need the playwright Python package (make test installs it)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """The test process's chromium (conftest's ``chromium``, launched on first use): each test's
    pages are in contexts of their own (``open_page``), so modules share it as separate devices."""
    return chromium


@pytest.fixture
def open_page(browser, live_server) -> Iterator[Callable[..., Any]]:
    """``open_page(role=None, viewport=TABLET)``: a page in a new context (a separate device)."""
    contexts = []

    def make(role: str | None = None, viewport: dict[str, int] | None = None) -> Any:
        context = browser.new_context(viewport=viewport or TABLET)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        if role is not None:
            log_in(page, live_server.url, USER_OF_ROLE[role])
        return page

    yield make
    for context in contexts:
        context.close()
