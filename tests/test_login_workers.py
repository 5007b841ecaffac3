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
import os
import re
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from floor.extensions import db
from floor.models import User
from tests.conftest import PASSWORD
from tests.test_production_server import BIN, free_port

# several processes or a production server: seconds each (make test runs them, make test-fast not)
pytestmark = pytest.mark.slow

WORKERS = 4
REAL = "a real password for dee"


@pytest.fixture
def served(app, tmp_path):
    """The app's database served by gunicorn with four worker processes (CSRF on, as in production)."""
    port = free_port()
    instance = app.instance_path  # the same host: its seal key and its witness (issue 30)
    env = {**os.environ, "FLOOR_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "FLOOR_SECRET_KEY": "t"}
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "--workers", str(WORKERS), "--bind", f"127.0.0.1:{port}",
         f'floor:create_app(instance_path="{instance}")'],
        env=env, cwd=str(Path(__file__).parent.parent), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/api/health")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def login_form(port) -> tuple[str, str]:
    """A session cookie and the CSRF token of the login page (a GET: never counted)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/login")
    response = conn.getresponse()
    html = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    conn.close()
    return cookie, re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def post_login(port, form, username, password) -> int:
    cookie, token = form
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/login", body=urlencode({"csrf_token": token, "username": username, "password": password}),
                 headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    status = conn.getresponse().status
    conn.close()
    return status


def at_once(port, attempts) -> list[int]:
    """Send the (username, password) attempts in parallel threads, released together."""
    forms = [login_form(port) for _ in attempts]
    start = threading.Barrier(len(attempts))
    statuses: list[int] = [0] * len(attempts)

    def send(i, username, password):
        start.wait()
        statuses[i] = post_login(port, forms[i], username, password)

    threads = [threading.Thread(target=send, args=(i, *attempt)) for i, attempt in enumerate(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def test_eight_wrong_passwords_at_once_all_count_and_lock_the_account(app, served):
    with app.app_context():  # a real account's hash (scrypt): each check takes as long as in the card room
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        dee.set_password(REAL)
        db.session.commit()
    statuses = at_once(served, [("dee", f"wrong {i}") for i in range(8)])
    assert statuses == [401] * 8
    with app.app_context():
        dee = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        assert dee.locked_until is not None, "five of the eight failures should have locked the account"
    # the right password, next: the lock holds
    assert post_login(served, login_form(served), "dee", REAL) == 401
    # another account is untouched (the lock is per account)
    assert post_login(served, login_form(served), "fred", PASSWORD) == 302


def test_the_per_address_limit_is_one_count_for_every_worker(app, served):
    """Fourteen logins at once from one address (names nobody has: no account locks) over four
    workers: exactly ten are tried, four are refused with 429."""
    statuses = at_once(served, [(f"nobody{i}", "wrong password") for i in range(14)])
    assert sorted(statuses) == [401] * 10 + [429] * 4, statuses
    assert post_login(served, login_form(served), "fred", PASSWORD) == 429  # the address waits its minute
