"""What every request and every stored row goes through (issue 11): security headers, cookie
flags, limits on what a client may send, and on what the database may be asked to store.

- **Headers**: a Content-Security-Policy that allows only this site's own scripts (no inline
  script; inline *style* attributes stay allowed, the pages use a few), frames only from this site,
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin``, ``Cache-Control: no-store``
  (a shared terminal's Back shows no page of the last person's); over HTTPS (``FLOOR_HTTPS``)
  also HSTS, and the session and "keep me logged in" cookies are ``Secure``. Both cookies are
  always ``HttpOnly`` and ``SameSite=Lax``.
- **Requests**: at most ``MAX_CONTENT_LENGTH`` bytes (1 MB; 413); a JSON body nested at most
  ``FLOOR_JSON_DEPTH`` (32) levels deep; no NUL character anywhere in a path, a query, a form or a
  JSON body (PostgreSQL cannot store one, and no name at a card table has one): 400 with the
  reason, before any view runs; nor a lone UTF-16 surrogate in a JSON string (``"\\ud800"``: no
  database can store one, and the driver's error answered 500, issue 30).
- **Stored text**: every string column written is checked before each flush against its declared
  length (``String(80)``), a ``Text`` column against ``FLOOR_TEXT_MAX`` (100,000 characters), and a
  JSON column (a setup with its players' names, an event, a ruling's record) against
  ``FLOOR_JSON_MAX`` (200,000 characters as canonical JSON):
  :class:`StoredTextRefused` (a ``ValueError``: views that show the rules' refusals show this one
  too), answered 422 wherever it is not caught. SQLite would store the over-long text silently and
  PostgreSQL would refuse it with an error page; now both refuse it with a message.
- **Behind a reverse proxy** (``FLOOR_PROXIES=1``, the number of proxies in front): the client's
  address and scheme are taken from ``X-Forwarded-For`` / ``X-Forwarded-Proto`` (Werkzeug's
  ``ProxyFix``), for the login throttle and for HTTPS links.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Request, abort, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from sqlalchemy import JSON, String, event, inspect
from sqlalchemy.orm import Session
from werkzeug.middleware.proxy_fix import ProxyFix

from floor.extensions import db
from floor.seals import canonical

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'")

DEFAULTS: dict[str, Any] = {
    "MAX_CONTENT_LENGTH": 1024 * 1024,
    "FLOOR_JSON_DEPTH": 32,
    "FLOOR_TEXT_MAX": 100_000,
    "FLOOR_JSON_MAX": 200_000,
    "FLOOR_HTTPS": False,
    "FLOOR_PROXIES": 0,
    "FLOOR_LOCKOUT_FAILURES": 5,
    "FLOOR_LOCKOUT_MINUTES": 15,
    "FLOOR_LOGIN_LIMIT": "10 per minute",
    "RATELIMIT_STORAGE_URI": "floordb://",  # the app's own database: see floor.ratelimit
    "RATELIMIT_HEADERS_ENABLED": False,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "REMEMBER_COOKIE_HTTPONLY": True,
    "REMEMBER_COOKIE_SAMESITE": "Lax",
}

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
#: A JSON escape of a UTF-16 surrogate: only a body holding one is read for a lone one.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_BRACKET = re.compile(rb"[\[\]{}]")


class StoredTextRefused(ValueError):
    """A text too long for its column, or with a NUL character: nothing is stored."""


def json_depth(body: bytes) -> int:
    """How deep a JSON text nests its arrays and objects (brackets inside strings do not count).

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}'), json_depth(b'[]'), json_depth(b'7')
    (3, 1, 0)
    """
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', body)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def lone_surrogate(value: Any) -> bool:
    """Whether a JSON value holds a string (or a key) with a surrogate that pairs with nothing.

    >>> lone_surrogate({"a": ["ok", "\U0001F600"]}), lone_surrogate({"x": "\\ud800"}), lone_surrogate({"\\udc00": 1})
    (False, True, True)
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(lone_surrogate(k) or lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(lone_surrogate(v) for v in value)
    return False


def check_request() -> None:
    """Refuse a request with a NUL character, or a JSON body nested too deep (400, with the reason)."""
    # the request itself: the proxy costs a lookup per use (werkzeug's proxy is typed as the request)
    req: Request = request._get_current_object()  # type: ignore[attr-defined]
    texts = [req.path, *(req.view_args or {}).values()]
    args = req.args
    if args:
        texts += [v for values in args.listvalues() for v in values] + list(args.keys())
    if req.method in ("POST", "PUT", "PATCH") and req.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        texts += [v for values in req.form.listvalues() for v in values] + list(req.form.keys())
    if any(isinstance(t, str) and "\x00" in t for t in texts):
        abort(400, description="A NUL character (\\0) is not accepted in any field.")
    if req.is_json and req.content_length != 0:
        body = req.get_data(cache=True)
        if b"\x00" in body or b"\\u0000" in body:
            abort(400, description="A NUL character (\\u0000) is not accepted in any field.")
        if _SURROGATE.search(body) and lone_surrogate(req.get_json(silent=True)):
            abort(400, description="A lone UTF-16 surrogate (\\ud800 to \\udfff) is not text: it is not accepted "
                                   "in any field.")
        limit = current_app.config["FLOOR_JSON_DEPTH"]
        # no deeper than it has brackets: a tap's few brackets need no scan (issue 23)
        if body.count(b"[") + body.count(b"{") > limit and json_depth(body) > limit:
            abort(400, description=f"The JSON is nested more than {limit} levels deep.")


#: The headers every answer carries unless its view set its own: (name in lower case, name, value).
#: ``Cache-Control: no-store``: a floor terminal or a tablet is shared, and after a logout Back must
#: not show the last person's pages from the browser's history (the players' records, a ban's
#: reason, a ruling). Files served as files (the style sheet, the scripts) keep Flask's own rule.
HEADERS = tuple((name.lower(), name, value) for name, value in (
    ("Content-Security-Policy", CSP), ("X-Frame-Options", "SAMEORIGIN"), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"), ("Cache-Control", "no-store")))


def add_headers(response: Any) -> Any:
    headers = response.headers
    # the names the view set, read once (issue 34: a setdefault per header looked each up in turn,
    # its miss an exception inside werkzeug: half of this hook's cost, a three-hundredth of a tap)
    present = {name.lower() for name, _ in headers.items()}
    headers.extend([(name, value) for lower, name, value in HEADERS if lower not in present])
    if current_app.config["FLOOR_HTTPS"]:
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


def _limits() -> tuple[int, int]:
    """``FLOOR_TEXT_MAX`` and ``FLOOR_JSON_MAX`` (the defaults outside an app: a script)."""
    try:
        return current_app.config["FLOOR_TEXT_MAX"], current_app.config["FLOOR_JSON_MAX"]
    except RuntimeError:
        return DEFAULTS["FLOOR_TEXT_MAX"], DEFAULTS["FLOOR_JSON_MAX"]


def check_stored_json(label: str, value: Any) -> None:
    """Refuse (:class:`StoredTextRefused`) a JSON value over ``FLOOR_JSON_MAX`` characters of
    canonical JSON: the check of every flush, for a row written without the ORM's unit of work
    (a table log's entry, :func:`floor.tables.append`, which gives its payload spelled already)."""
    size, json_max = len(canonical(value)), _limits()[1]
    if size > json_max:
        raise StoredTextRefused(f"The {label} is {size} characters of data; at most {json_max} are kept.")


@event.listens_for(Session, "before_flush")
def _check_stored_text(session: Session, _context: Any, _instances: Any) -> None:
    """Every string about to be written fits its column and holds no NUL (see the module doc)."""
    text_max = _limits()[0]
    for obj in list(session.new) + list(session.dirty):
        state = inspect(obj)
        for attr in state.mapper.column_attrs:
            column = attr.columns[0]
            if not state.pending and not state.attrs[attr.key].history.has_changes():
                continue  # unchanged since it was read: it was checked when it was written
            if isinstance(column.type, JSON):
                check_stored_json(attr.key.replace("_", " "), getattr(obj, attr.key, None))
                continue
            if not isinstance(column.type, String):
                continue
            value = getattr(obj, attr.key, None)
            if not isinstance(value, str):
                continue
            limit = column.type.length or text_max
            label = attr.key.replace("_", " ")
            if len(value) > limit:
                raise StoredTextRefused(f"The {label} is {len(value)} characters long; at most {limit} are kept.")
            if "\x00" in value:
                raise StoredTextRefused(f"The {label} holds a NUL character (\\0), which cannot be stored.")


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with nothing to open when the request brings no session
    cookie: an empty session at once, as Flask's own gives then, without first building the cookie's
    signer (issue 34: a tablet's tap with a bearer token brings none, and the signer was a fortieth
    of its CPU). A request with a cookie is opened, checked and saved exactly as before."""

    def open_session(self, app: Flask, request: Any) -> SecureCookieSession | None:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def init_app(app: Flask) -> None:
    """Headers, request checks, the refusal of over-long text, the session cookie, and the proxy in
    front."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    if app.config["FLOOR_HTTPS"]:
        app.config["SESSION_COOKIE_SECURE"] = app.config["REMEMBER_COOKIE_SECURE"] = True
    proxies = int(app.config["FLOOR_PROXIES"] or 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    app.session_interface = CookieSessions()
    app.before_request(check_request)
    app.after_request(add_headers)

    @app.errorhandler(StoredTextRefused)
    def refused(exc: StoredTextRefused) -> Any:
        from floor.errors import render_error

        db.session.rollback()
        return render_error(422, "Too long to store", str(exc))
