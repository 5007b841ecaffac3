"""Issue 20: the login's limits hold under several server processes (gunicorn workers, as `make
run` serves), on the test's database (SQLite, or PostgreSQL with FLOOR_TEST_PG=1).

- Eight wrong passwords sent at once all count (one atomic UPDATE each): the account locks after
  five, and the right password sent next is refused. Before, the workers' read-then-write lost
  most of them (counted as 2) and the right password logged in.
- The per-address limit (10 logins a minute) is one count for every worker (``floordb://``,
  floor.ratelimit). Before, each worker counted in its own memory: 40 a minute with 4 workers.
"""

from __future__ import annotations

import http.client
import itertools
import re
import threading
from urllib.parse import urlencode

import pytest

from floor.extensions import db
from floor.models import User
from tests.conftest import PASSWORD
from tests.served import Gunicorn, app_for_module

# several processes or a production server: seconds each (make test runs them, make test-fast not)
pytestmark = pytest.mark.slow

WORKERS = 4
REAL = "a real password for dee"


class Served:
    """The module's app and the port gunicorn serves it on."""

    def __init__(self, app, port: int) -> None:
        self.app, self.port = app, port


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app's database served by gunicorn with four worker processes (CSRF on, as in production),
    one server for the module's tests (issue 34: a start is four workers importing the app, about
    five seconds of CPU). They share it without sharing a count: each test logs in from a loopback
    address of its own (:func:`address`: the per-address limit) and to accounts no other test locks."""
    with app_for_module(tmp_path_factory.mktemp("login-workers")) as app:
        # the same host as the app: its seal key and its witness (issue 30)
        with Gunicorn(app.instance_path, {"FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
                                          "FLOOR_SECRET_KEY": "t"}).start(workers=WORKERS) as server:
            assert server.ended is None, server.errors[-2000:]
            yield Served(app, server.port)


_addresses = itertools.count(2)


@pytest.fixture
def address():
    """A client address no other test of the module logs in from (127.0.0.2, 127.0.0.3, ...: every
    address of 127.0.0.0/8 reaches the server, which counts each apart)."""
    return f"127.0.0.{next(_addresses)}"


def _connection(port, address) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address, 0))


def login_form(port, address) -> tuple[str, str]:
    """A session cookie and the CSRF token of the login page (a GET: never counted)."""
    conn = _connection(port, address)
    conn.request("GET", "/login")
    response = conn.getresponse()
    html = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    conn.close()
    return cookie, re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def post_login(port, address, form, username, password) -> int:
    cookie, token = form
    conn = _connection(port, address)
    conn.request("POST", "/login", body=urlencode({"csrf_token": token, "username": username, "password": password}),
                 headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    status = conn.getresponse().status
    conn.close()
    return status


def login(port, address, username, password) -> int:
    return post_login(port, address, login_form(port, address), username, password)


def at_once(port, address, attempts) -> list[int]:
    """Send the (username, password) attempts from ``address`` in parallel threads, released together."""
    forms = [login_form(port, address) for _ in attempts]
    start = threading.Barrier(len(attempts))
    statuses: list[int] = [0] * len(attempts)

    def send(i, username, password):
        start.wait()
        statuses[i] = post_login(port, address, forms[i], username, password)

    threads = [threading.Thread(target=send, args=(i, *attempt)) for i, attempt in enumerate(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def test_eight_wrong_passwords_at_once_all_count_and_lock_the_account(served, address):
    app, port = served.app, served.port
    with app.app_context():  # a real account's hash (scrypt): each check takes as long as in the card room
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        dee.set_password(REAL)
        db.session.commit()
    statuses = at_once(port, address, [("dee", f"wrong {i}") for i in range(8)])
    assert statuses == [401] * 8
    with app.app_context():
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        assert dee.locked_until is not None, "five of the eight failures should have locked the account"
    # the right password, next: the lock holds
    assert login(port, address, "dee", REAL) == 401
    # another account is untouched (the lock is per account)
    assert login(port, address, "fred", PASSWORD) == 302


def test_the_per_address_limit_is_one_count_for_every_worker(served, address):
    """Fourteen logins at once from one address (names nobody has: no account locks) over four
    workers: exactly ten are tried, four are refused with 429."""
    statuses = at_once(served.port, address, [(f"nobody{i}", "wrong password") for i in range(14)])
    assert sorted(statuses) == [401] * 10 + [429] * 4, statuses
    assert login(served.port, address, "fred", PASSWORD) == 429  # the address waits its minute
