"""Security that holds (issue 11; the login items of issue 16): throttling and lockout, sessions
that end at logout and at a password change, cookie flags and headers, timing that does not tell
which names exist, limits on what a client may send and on what is stored, 64-bit ids."""

from __future__ import annotations

import statistics
import time

import pytest

from floor.extensions import db
from floor.models import HouseProfile, Role, Table, User
from tests.conftest import PASSWORD, SETUP, bearer, login, make_app


def post_login(client, username, password=PASSWORD, **extra):
    return client.post("/login", data={"username": username, "password": password, **extra})


# --------------------------------------------------------------------------- user names

def test_a_login_typed_with_capitals_logs_in_the_lower_case_user(client):
    """A tablet capitalises the first letter: "Dee" and " DEE " are dee."""
    assert post_login(client, "Dee").status_code == 302
    assert client.get("/dealer/").status_code == 200
    assert post_login(client.application.test_client(), " DEE ").status_code == 302


def test_the_user_name_field_is_not_capitalised_by_the_keyboard(client):
    html = client.get("/login").get_data(as_text=True)
    field = html[html.index('name="username"') - 200: html.index('name="username"') + 200]
    assert 'autocapitalize="none"' in field


def test_a_name_differing_only_in_case_is_refused(app, runner):
    result = runner.invoke(args=["create-user", "DEE", "--role", "dealer", "--password", "long enough"])
    assert result.exit_code != 0 and "exists already" in result.output


# --------------------------------------------------------------------------- sessions end

def copy_session(app, source):
    """Another device holding a copy of ``source``'s cookies (a stolen or copied cookie)."""
    thief = app.test_client()
    for name in ("session", "remember_token"):
        cookie = source.get_cookie(name)
        if cookie is not None:
            thief.set_cookie(name, cookie.value)
    return thief


def test_a_copied_session_cookie_stops_working_at_logout(app, as_role):
    dealer = as_role("dealer")
    thief = copy_session(app, dealer)
    assert thief.get("/dealer/").status_code == 200  # the copy works while the session lives
    dealer.post("/logout")
    assert thief.get("/dealer/").status_code == 302
    assert thief.get("/api/tables/1").status_code == 401


def test_a_remembered_login_stops_working_at_logout_and_changes_at_the_next(app):
    first = app.test_client()
    assert post_login(first, "dee", remember="y").status_code == 302
    old_token = first.get_cookie("remember_token").value
    only_remembered = app.test_client()
    only_remembered.set_cookie("remember_token", old_token)
    assert only_remembered.get("/dealer/").status_code == 200  # "keep me logged in" works
    first.post("/logout")
    only_remembered = app.test_client()
    only_remembered.set_cookie("remember_token", old_token)
    assert only_remembered.get("/dealer/").status_code == 302
    again = app.test_client()
    post_login(again, "dee", remember="y")
    assert again.get_cookie("remember_token").value != old_token


def test_a_password_reset_by_the_director_ends_the_users_sessions(app, as_role):
    dealer = as_role("dealer")
    with app.app_context():
        dee = User.named("dee").id
    director = as_role("director")
    page = director.get(f"/director/users/{dee}/password")
    assert page.status_code == 200
    assert director.get(f"/director/users/{dee}").get_data(as_text=True).count(f"/director/users/{dee}/password")
    response = director.post(f"/director/users/{dee}/password",
                             data={"password": "a new secret!", "confirm": "a new secret!"})
    assert response.status_code == 302
    assert dealer.get("/dealer/").status_code == 302  # logged out
    assert post_login(app.test_client(), "dee").status_code == 401  # the old password is gone
    assert post_login(app.test_client(), "dee", "a new secret!").status_code == 302
    # a floor person may not reset anyone's password
    assert login(app.test_client(), "fred").post(
        f"/director/users/{dee}/password", data={"password": "x" * 9, "confirm": "x" * 9}).status_code == 403


def test_a_password_reset_from_the_command_line(app, runner, as_role):
    dealer = as_role("dealer")
    result = runner.invoke(args=["reset-password", "Dee"], input="another secret\nanother secret\n")
    assert result.exit_code == 0, result.output
    assert "another secret" not in result.output
    assert dealer.get("/dealer/").status_code == 302
    assert post_login(app.test_client(), "dee", "another secret").status_code == 302
    assert runner.invoke(args=["reset-password", "nobody", "--password", "long enough"]).exit_code != 0


def test_a_tablet_whose_login_ended_is_told_the_tap_was_not_logged(app, as_role, tokens):
    client = app.test_client()
    table = client.post("/api/tables", json={"name": "T", **SETUP}, headers=bearer(tokens["director"])).json
    tablet = as_role("dealer")
    as_role("dealer").post("/logout")  # the same dealer logs out on another device
    response = tablet.post(f"/dealer/tables/{table['id']}/taps", json={"event": {"type": "deal"}},
                           headers={"X-CSRFToken": "x"})
    assert response.status_code == 401
    assert "NOT logged" in response.json["message"]
    assert client.get(f"/api/tables/{table['id']}/events", headers=bearer(tokens["dealer"])).json["events"] == []


# --------------------------------------------------------------------------- guessing

def test_repeated_failures_lock_the_name_with_the_same_words_as_an_unknown_one(app):
    client = app.test_client()
    for _ in range(5):
        assert post_login(client, "dee", "wrong password").status_code == 401
    locked = post_login(client, "dee")  # the right password, but locked
    assert locked.status_code == 401
    unknown = post_login(client, "nobody-at-all")
    words = lambda r: r.get_data(as_text=True).split("flash")[1][:300]  # noqa: E731
    assert words(locked) == words(unknown)
    with app.app_context():
        assert User.named("dee").locked_until is not None
    app.test_cli_runner().invoke(args=["reset-password", "dee", "--password", PASSWORD])
    assert post_login(app.test_client(), "dee").status_code == 302  # a reset lifts the lock


def test_one_address_is_throttled(tmp_path):
    app = make_app(tmp_path, FLOOR_LOGIN_LIMIT="3 per minute")
    client = app.test_client()
    codes = [post_login(client, "nobody", "x").status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429]
    assert "Too many login attempts" in client.post("/login", data={}).get_data(as_text=True)


def test_every_view_with_a_limit_of_its_own_is_throttled(app):
    """The limiter checks only the endpoints of ``THROTTLED`` (issue 23); a view given a limit
    (``@limiter.limit``) but left out of the set would never be throttled."""
    from floor.extensions import THROTTLED

    limited = {endpoint for endpoint, view in app.view_functions.items()
               if getattr(view, "__wrapper-limiter-instance", None) is not None}
    assert limited == THROTTLED == {"auth.login"}


def test_an_unknown_name_takes_as_long_as_a_wrong_password(app):
    """Without the dummy check an unknown name answers at once, a known one after the hash."""
    from floor.accounts import create_user

    with app.app_context():
        create_user("realhash", Role.dealer, "the real password")  # Werkzeug's default hash, as in production
    client = app.test_client()

    def timed(name):
        samples = []
        for _ in range(3):
            start = time.perf_counter()
            post_login(client, name, "not the password")
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    post_login(client, "warm-up", "x")
    known, unknown = timed("realhash"), timed("nobody-here")
    assert unknown > 0.5 * known, (known, unknown)


# --------------------------------------------------------------------------- cookies and headers

def test_cookies_are_httponly_and_samesite_and_secure_over_https(tmp_path, app):
    response = post_login(app.test_client(), "dee", remember="y")
    cookies = response.headers.getlist("Set-Cookie")
    assert all("HttpOnly" in c and "SameSite=Lax" in c for c in cookies), cookies
    assert not any("Secure" in c for c in cookies)
    https = make_app(tmp_path / "https", FLOOR_HTTPS=True)
    response = post_login(https.test_client(), "dee", remember="y")
    assert all("Secure" in c for c in response.headers.getlist("Set-Cookie"))
    assert "max-age" in response.headers["Strict-Transport-Security"]


def test_every_page_sends_the_security_headers(client):
    for url in ("/login", "/api/health", "/nowhere"):
        headers = client.get(url).headers
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert "frame-ancestors 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "SAMEORIGIN"
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_no_page_nor_answer_is_kept_by_the_browser_after_it_was_shown(app, tokens):
    """A floor terminal is shared: after a logout, Back must not show the last person's pages (the
    players' records, a ban's reason) from the browser's history. Every page and API answer says
    ``no-store``; the style sheet keeps Flask's own rule (asked again each time, no store forbidden)."""
    floor = login(app.test_client(), "fred")
    for url in ("/floor/", "/floor/shift", "/rulings/", "/login"):
        response = floor.get(url)
        assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store", url
    answer = app.test_client().get("/api/players", headers=bearer(tokens["floor"]))
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    style = floor.get("/static/floor.css")
    style.close()  # a file served as a file: its handle is closed with the answer
    assert style.status_code == 200 and "no-store" not in style.headers.get("Cache-Control", "")


# --------------------------------------------------------------------------- what a client may send

def test_a_request_over_the_size_limit_is_refused(client, tokens):
    response = client.post("/api/tables", data=b"[" + b" " * (1024 * 1024 + 10) + b"]",
                           content_type="application/json", headers=bearer(tokens["director"]))
    assert response.status_code == 413


def test_json_nested_too_deep_is_refused_with_the_reason(client, tokens):
    body = "[" * 100 + "]" * 100
    response = client.post("/api/hands/evaluate", data=body, content_type="application/json",
                           headers=bearer(tokens["dealer"]))
    assert response.status_code == 400 and "nested" in response.json["message"]
    deeper = "[" * 100000 + "]" * 100000  # deep enough to overflow Python's json module
    response = client.post("/api/tables", data=deeper, content_type="application/json",
                           headers=bearer(tokens["director"]))
    assert response.status_code in (400, 413)


@pytest.mark.parametrize("send", ["json", "form", "query"])
def test_a_nul_character_is_refused_not_stored(client, tokens, send):
    if send == "json":
        response = client.post("/api/tables", json={"name": "T\x00", **SETUP}, headers=bearer(tokens["director"]))
    elif send == "form":
        response = client.post("/login", data={"username": "dee\x00", "password": PASSWORD})
    else:
        response = client.get("/api/tables/1/events?after=%00", headers=bearer(tokens["dealer"]))
    assert response.status_code == 400
    assert "NUL" in response.get_data(as_text=True)


def test_over_long_text_is_refused_with_422(app, client, tokens):
    response = client.post("/api/tables", json={"name": "T" * 500, **SETUP}, headers=bearer(tokens["director"]))
    assert response.status_code == 422 and "at most 80" in response.json["message"]
    long_name = {**SETUP, "seats": [dict(SETUP["seats"][0], player="P" * 300_000), *SETUP["seats"][1:]]}
    response = client.post("/api/tables", json={"name": "T", **long_name}, headers=bearer(tokens["director"]))
    # a seat's player is a record now (issue 31), whose name is at most 80 characters
    assert response.status_code == 422 and "a player's name is at most 80 characters" in response.json["message"]
    long_text = {**SETUP, "seats": [dict(SETUP["seats"][0], remark="P" * 300_000), *SETUP["seats"][1:]]}
    response = client.post("/api/tables", json={"name": "T", **long_text}, headers=bearer(tokens["director"]))
    assert response.status_code == 422 and "at most 200000" in response.json["message"]
    from floor.security import StoredTextRefused

    with app.app_context():
        db.session.add(HouseProfile(name="h", toml="x" * 200_000))
        with pytest.raises(StoredTextRefused, match="at most 100000"):
            db.session.commit()
        db.session.rollback()


# --------------------------------------------------------------------------- ids

def test_ids_are_64_bit(app, client, tokens):
    """2**31 and above are real ids on PostgreSQL too (BIGINT); beyond 2**63 - 1 is not found."""
    with app.app_context():
        db.session.add(Table(id=2**40, name="Far", setup={**SETUP, "profile": "cardroom"}))
        db.session.commit()
    headers = bearer(tokens["dealer"])
    assert client.get(f"/api/tables/{2**40}", headers=headers).json["name"] == "Far"
    for big in (2**31, 2**63 - 1, 2**63, 2**80):
        assert client.get(f"/api/tables/{big}", headers=headers).status_code == 404
        assert client.get(f"/api/tables/{2**40}/events?after={big}", headers=headers).status_code in (200, 400)


def test_init_db_never_prints_the_databases_password(tmp_path, monkeypatch):
    from floor import cli, create_app

    monkeypatch.setattr(cli, "upgrade", lambda directory: None)
    app = create_app({"TESTING": True, "SECRET_KEY": "t",
                      "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://floor:s3cret-pw@db.example/floor"},
                     instance_path=str(tmp_path / "instance"))
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "s3cret-pw" not in result.output and "db.example/floor" in result.output
