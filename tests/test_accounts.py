"""Accounts, roles, login and CSRF (issue: foundation)."""

from __future__ import annotations

import pytest

from floor.extensions import db
from floor.models import Role, User
from tests.conftest import PASSWORD, bearer, csrf_token_from, login


def test_passwords_and_tokens_are_never_stored_in_clear(app, tokens):
    with app.app_context():
        user = db.session.scalars(db.select(User).where(User.username == "fred")).one()
        assert PASSWORD not in user.password_hash
        assert user.password_hash.startswith(("scrypt:", "pbkdf2:"))
        assert user.check_password(PASSWORD) and not user.check_password("wrong password")
        assert tokens["floor"] not in user.token_digest and len(user.token_digest) == 64
        raw = db.session.execute(db.text("select * from users")).all()
    assert not any(PASSWORD in str(row) or tokens["floor"] in str(row) for row in raw)


def test_a_real_account_is_hashed_with_werkzeugs_default_not_the_tests_cheap_hash():
    """The test accounts share one cheap PBKDF2 hash (conftest); ``set_password`` keeps the default."""
    user = User(username="x")
    user.set_password("long enough password")
    assert user.password_hash.startswith("scrypt:") and user.check_password("long enough password")


def test_short_passwords_are_refused():
    with pytest.raises(ValueError, match="at least 8"):
        User(username="x").set_password("short")


@pytest.mark.parametrize("username,home", [("dana", "/director/"), ("fred", "/floor/"), ("dee", "/dealer/")])
def test_each_role_lands_on_its_home_page(client, username, home):
    response = client.post("/login", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == home
    assert client.get("/").headers["Location"] == home


def test_wrong_password_is_refused_with_a_message(client):
    response = client.post("/login", data={"username": "fred", "password": "nope nope nope"})
    assert response.status_code == 401
    assert b"wrong password" in response.data


def test_inactive_accounts_cannot_log_in(app, client):
    with app.app_context():
        user = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        user.active = False
        db.session.commit()
    response = client.post("/login", data={"username": "dee", "password": PASSWORD})
    assert response.status_code == 401


def test_login_never_redirects_off_site(client):
    response = client.post("/login?next=https://evil.example/x", data={"username": "dee", "password": PASSWORD})
    assert response.headers["Location"] == "/dealer/"
    client.post("/logout")
    response = client.post("/login?next=/floor/", data={"username": "dee", "password": PASSWORD})
    assert response.headers["Location"] == "/floor/"  # then refused there with 403: see the access table


def test_logout_ends_the_session(client):
    login(client, "dee")
    assert client.get("/dealer/").status_code == 200
    client.post("/logout")
    assert client.get("/dealer/").status_code == 302


def test_login_form_without_csrf_token_is_refused_and_with_it_passes(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/login", data={"username": "dee", "password": PASSWORD})
    assert response.status_code == 400
    assert b"CSRF token is missing" in response.data
    token = csrf_token_from(client.get("/login").data)
    response = client.post("/login", data={"username": "dee", "password": PASSWORD, "csrf_token": token})
    assert response.status_code == 302


def test_logout_needs_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").data)
    client.post("/login", data={"username": "dee", "password": PASSWORD, "csrf_token": token})
    assert client.post("/logout").status_code == 400
    page = client.get("/dealer/").data
    assert client.post("/logout", data={"csrf_token": csrf_token_from(page)}).status_code == 302


def test_api_with_a_session_needs_the_csrf_header_but_bearer_clients_do_not(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").data)
    client.post("/login", data={"username": "dee", "password": PASSWORD, "csrf_token": token})
    body = {"cards": "As Ah Kd 7c 2s"}
    assert client.post("/api/hands/evaluate", json=body).status_code == 400
    page_token = csrf_token_from(client.get("/dealer/").data)
    assert client.post("/api/hands/evaluate", json=body, headers={"X-CSRFToken": page_token}).status_code == 200
    with csrf_app.app_context():
        user = db.session.scalars(db.select(User).where(User.username == "dee")).one()
        api_token = user.new_api_token()
        db.session.commit()
    assert csrf_app.test_client().post("/api/hands/evaluate", json=body,
                                       headers=bearer(api_token)).status_code == 200


def test_a_wrong_bearer_token_is_401(client):
    response = client.get("/api/tables/1", headers=bearer("not-a-token"))
    assert response.status_code == 401
    assert response.json["error"] == "Unauthorized"


def test_role_order():
    assert Role.dealer < Role.floor < Role.director
    assert Role.parse(" Floor ") is Role.floor
    with pytest.raises(ValueError, match="unknown role"):
        Role.parse("croupier")
