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
- ``open_page(role=None, viewport=TABLET, *, fresh=False)``: a browser context of its own (its
  own cookies and storage: a separate device) and its page on ``about:blank``, holding a session
  of the role's test user when ``role`` is given (logged in through the app's login route by
  :func:`session_cookies`). After the test its contexts are cleaned and kept for the process's
  next test (a new context costs chromium ten page loads); ``fresh=True`` for a context of the
  test's own, closed after it.

Plain helpers: :func:`screenshot` (saved only when ``FLOOR_E2E_SHOTS`` is set), :func:`fits` (nothing
scrolls sideways), :func:`at_each_size` (a page's layout checked at a phone's, a tablet's and a
desktop's size, the tablet upright too, the flow played once), :func:`log_in`
(the real login form in the browser: tests of the login itself use it), :func:`session_cookies`,
:func:`clean_device`, :func:`serve` (a context manager for a live server of any app),
:data:`CHROMIUM` (``FLOOR_E2E_CHROMIUM`` overrides the path), :data:`ARGS`, :data:`TABLET`
(1024x768), :data:`TABLET_PORTRAIT` (820x1180), :data:`PHONE` (390x844), :data:`DESKTOP` (1440x900),
:data:`SIZES` (the four by name).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.conftest import PASSWORD, USERS, make_app

CHROMIUM = os.environ.get("FLOOR_E2E_CHROMIUM", "/usr/bin/chromium")  # Debian's; never `playwright install`
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
TABLET = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 820, "height": 1180}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
# issue 25: where the tablet's pages are used; the tablet upright (820x1180) is the dealer's device
SIZES = {"phone": PHONE, "tablet": TABLET, "tablet upright": TABLET_PORTRAIT, "desktop": DESKTOP}
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


def screenshot(page: Any, path: str, *, full_page: bool = False) -> None:
    """Save the page as the PNG ``path`` names, to be looked at, when ``FLOOR_E2E_SHOTS`` is set;
    nothing otherwise. No test reads the image, and a screenshot costs chromium about what a page
    load does (issue 34): ``FLOOR_E2E_SHOTS=/tmp/shots make test`` when someone will look."""
    if os.environ.get("FLOOR_E2E_SHOTS"):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        page.screenshot(path=path, full_page=full_page)


def fits(page: Any, size: str = "") -> None:
    """Nothing on the page scrolls sideways (its content no wider than the window)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], (
        f"{page.url} scrolls sideways{' on a ' + size if size else ''}: {width}px in {page.viewport_size['width']}px")


# Each element a selector names can take a finger's tap where it stands: scrolled into view, it has
# a size, is not disabled, and the point at its centre is the element's (nothing covers it): what
# Playwright checks before a click, for a whole group of controls in one script. It answers how many
# elements the selector found and what is wrong with each that cannot be tapped.
UNTAPPABLE = """els => [els.length, els.flatMap(el => {
  el.scrollIntoView({block: 'center', inline: 'center'});
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const name = el.outerHTML.slice(0, 80);
  if (!r.width || !r.height) return [name + ' has no size'];
  if (el.disabled) return [name + ' is disabled'];
  if (hit && (hit === el || el.contains(hit))) return [];
  return [name + ' is covered by ' + (hit ? hit.outerHTML.slice(0, 80) : 'nothing')];
})]"""


def at_each_size(page: Any, *, taps: tuple[Any, ...] = (), groups: tuple[tuple[str, int], ...] = (),
                 check: Callable[[str], None] | None = None, sizes: dict[str, dict[str, int]] = SIZES) -> None:
    """What differs by the window's size, checked on the page as it stands, at each of ``sizes`` in
    turn (a phone, a tablet both ways, a desktop), then back to the page's own size: nothing scrolls sideways
    (:func:`fits`); each locator in ``taps`` (what the flow taps next) can be tapped at that size:
    Playwright's checks before a click (visible, enabled, steady, not covered by anything) with the
    tap itself not made (``click(trial=True)``); each of ``groups`` (a selector and how many
    controls it names: a picker's cards) the same in one script (:data:`UNTAPPABLE`); then
    ``check(name)``, for anything else that depends on the size (a box's measures, a screenshot).

    Issue 34: the tablet's flows were played once at each size, three times the page loads and the
    server's work for the same taps. No script of the app reads the window's size (the layout is
    the CSS's alone, which answers a resize as it would a fresh load: docs/testing.md), so a flow
    is played once, at a phone's size, and every step where a page is looked at is checked at each
    size on the same page."""
    own = dict(page.viewport_size)
    try:
        for name, size in sizes.items():
            page.set_viewport_size(size)
            fits(page, name)
            for control in taps:
                try:
                    control.click(trial=True)
                except Exception as error:  # Playwright's words say why; these say where
                    error.add_note(f"{page.url}: {control} cannot be tapped on a {name}")
                    raise
            for selector, count in groups:
                found, faults = page.eval_on_selector_all(selector, UNTAPPABLE)
                assert (found, faults) == (count, []), (page.url, name, selector, found, faults)
            if check is not None:
                check(name)
    finally:
        page.set_viewport_size(own)


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
            _IDLE.pop(id(chromium), None)
            chromium.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """The test process's chromium (conftest's ``chromium``, launched on first use): each test's
    pages are in contexts of their own (``open_page``), so modules share it as separate devices."""
    return chromium


def session_cookies(server: LiveServer, username: str, password: str = PASSWORD) -> list[dict[str, Any]]:
    """Log ``username`` in through the app's login route (its form's fields and CSRF token, posted
    by Flask's test client, no browser) and return the session cookies it set, ready for a
    browser context's ``add_cookies``: the browser then holds a session the login made, as if its
    own form had been sent (issue 34: the form in chromium cost two page loads a device)."""
    client = server.app.test_client()
    form = client.get("/login").get_data(as_text=True)
    token = re.search(r'<input[^>]*name="csrf_token"[^>]*value="([^"]*)"', form)
    data = {"username": username, "password": password, "csrf_token": token.group(1) if token else ""}
    response = client.post("/login", data=data)
    assert response.status_code == 302 and "/login" not in response.location, (username, response.status)
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.getlist("Set-Cookie"):
        jar.load(header)
    assert jar, f"the login of {username} set no cookie"
    return [{"name": morsel.key, "value": morsel.value, "url": server.url, "httpOnly": bool(morsel["httponly"]),
             "sameSite": (morsel["samesite"] or "Lax").capitalize()} for morsel in jar.values()]


# The contexts a test process's finished tests left clean, by browser: the next test's devices.
_IDLE: dict[int, list[tuple[Any, Any]]] = {}


def clean_device(context: Any, page: Any, origin: str) -> bool:
    """Make a finished test's context a blank device again: extra pages closed, routes gone, the
    network back, the page on ``about:blank`` (its scripts and polls stopped), no cookie, nothing
    stored for ``origin``. False (the context is then closed) if any of it fails."""
    try:
        if page.is_closed():
            return False
        for other in context.pages:
            if other is not page:
                other.close()
        page.unroute_all(behavior="ignoreErrors")
        context.unroute_all(behavior="ignoreErrors")
        context.set_offline(False)
        page.goto("about:blank")
        context.clear_cookies()
        cdp = context.new_cdp_session(page)
        try:  # localStorage (the tablet's queue of taps), sessionStorage, caches: the next server may reuse the port
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        finally:
            cdp.detach()
        return True
    except Exception:  # noqa: BLE001 - a context that cannot be cleaned is closed, never reused
        return False


@pytest.fixture
def open_page(browser, live_server, request) -> Iterator[Callable[..., Any]]:
    """``open_page(role=None, viewport=TABLET, *, fresh=False)``: a page in a context of its own
    (a separate device: its own cookies and storage), logged in as the role's test user when
    ``role`` is given (:func:`session_cookies`; the page is on ``about:blank``: go where the test
    starts).

    Issue 34: a new context's first page and first page load cost chromium about a second of CPU (a
    renderer process started, then another for the site), a later page load a tenth of that. So a
    test's contexts are kept after it, cleaned (:func:`clean_device`), and handed to the next test of
    the process as its devices; a test that failed leaves none behind. ``fresh=True`` asks for a
    new context, closed after the test: for a test that changes its context for good
    (``page.clock.install()`` stays installed for every later page load)."""
    idle = _IDLE.setdefault(id(browser), [])
    used: list[tuple[Any, Any, bool]] = []
    failures = request.session.testsfailed

    def make(role: str | None = None, viewport: dict[str, int] | None = None, *, fresh: bool = False) -> Any:
        if idle and not fresh:
            context, page = idle.pop()
            page.set_viewport_size(viewport or TABLET)
        else:
            context = browser.new_context(viewport=viewport or TABLET)
            page = context.new_page()
        context.set_default_timeout(10_000)
        used.append((context, page, not fresh))
        if role is not None:
            context.add_cookies(session_cookies(live_server, USER_OF_ROLE[role]))
        return page

    yield make
    keep = request.session.testsfailed == failures
    for context, page, reusable in used:
        if keep and reusable and clean_device(context, page, live_server.url):
            idle.append((context, page))
        else:
            context.close()
