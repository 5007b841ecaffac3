"""The browser tests' devices (tests/e2e.py's ``open_page``, issue 34): a context a finished test
leaves behind is handed to the next test only once it holds nothing of the last one, and a role's
session made by the login route is a real login (the pages open as that user's)."""

from __future__ import annotations

import pytest

from tests.e2e import browser, clean_device, live_app, live_server, open_page  # noqa: F401 (fixtures)

pytestmark = pytest.mark.e2e

LEFT_BEHIND = """() => {
  localStorage.setItem('floor-sound', '1');
  sessionStorage.setItem('left', 'behind');
  document.cookie = 'left=behind; path=/';
}"""
READ = "() => [localStorage.length, sessionStorage.length, document.cookie]"


def test_a_device_handed_on_holds_nothing_of_the_last_test(open_page, live_server):
    page = open_page("floor")
    page.goto(live_server.url + "/floor/")
    page.evaluate(LEFT_BEHIND)
    page.context.set_offline(True)
    page.route("**/floor/", lambda route: route.abort())
    extra = page.context.new_page()
    assert clean_device(page.context, page, live_server.url)
    assert extra.is_closed() and page.url == "about:blank" and page.context.cookies() == []
    response = page.goto(live_server.url + "/floor/")  # online, not routed, and logged out
    assert response.ok and "/login" in page.url
    assert page.evaluate(READ) == [0, 0, ""]


def test_a_role_s_page_opens_as_that_user(open_page, live_server):
    for role, name, home in (("dealer", "dee", "/dealer/"), ("floor", "fred", "/floor/"),
                             ("director", "dana", "/director/")):
        page = open_page(role)
        assert page.url == "about:blank"
        page.goto(live_server.url + "/")
        assert page.url == live_server.url + home
        assert name in page.locator("header").inner_text()
