"""Who is asking, and whether they may: the login loaders and the role checks of every page.

Pages use the session (Flask-Login); API clients send ``Authorization: Bearer <token>``, a
per-user token issued by ``flask --app floor create-user`` or ``api-token`` (only its digest is
stored). A browser page that calls the API with its session cookie must send the CSRF token in
``X-CSRFToken`` (the API is exempt from the form check only for bearer-token clients, which no
other site can forge; see :func:`floor.jsonapi.api_role`).

The loaders are registered on the login manager when this module is imported, which
:func:`floor.auth.init_app` makes sure of before any template renders.
"""

from __future__ import annotations

import hmac
from functools import wraps
from typing import Any, Callable, TypeVar

from urllib.parse import urlsplit

from flask import abort, g, request
from flask_login import current_user
from sqlalchemy import bindparam

from floor import rows
from floor.extensions import login
from floor.inputs import is_whole
from floor.models import Role, User, token_digest
from floor.prepared import Prepared
from floor.sealed import user_problem

F = TypeVar("F", bound=Callable[..., Any])


@login.user_loader
def load_user(session_id: str) -> User | None:
    """The user a session names, when its nonce is still the user's (``User.get_id``): a cookie
    copied before a logout or a password change names an old nonce and logs nobody in."""
    user_id, _, nonce = session_id.partition(":")
    if not is_whole(user_id) or not nonce:
        return None
    user = rows.get(User, int(user_id))
    if user is None or not user.active or not hmac.compare_digest(user.session_nonce, nonce):
        return None
    if user_problem(user) is not None:  # a row changed outside the app decides nothing (issue 30)
        return None
    return user


#: The user a bearer token names (its digest is unique), built once: every tap asks it, and reads
#: the row without the ORM's query (:mod:`floor.rows`).
_BY_TOKEN = Prepared(rows.columns(User).where(User.__table__.c.token_digest == bindparam("digest")))


@login.request_loader
def load_user_from_token(req: Any) -> User | None:
    header = req.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    user = rows.first(User, _BY_TOKEN, {"digest": token_digest(token.strip())})
    if user is not None and user.active:
        problem = user_problem(user)
        if problem is not None:  # the token's row changed outside the app: it logs nobody in (issue 30)
            g.account_refused = problem
            return None
        g.bearer = True
        return user
    return None


def login_without_cookies() -> None:
    """Who a request that brings no cookie at all is, from its bearer token, at the first check of
    it (:func:`floor.jsonapi.api_role`: a tablet's tap). Without a cookie there is no session to
    name a user and no "keep me logged in" cookie, so Flask-Login's own loading would come to the
    request loader, :func:`load_user_from_token`, after its checks of both (issue 34: a fiftieth of
    a tap, the session's fingerprint among them); here it is asked at once, and the user (or
    nobody) becomes ``current_user`` as Flask-Login makes it. The token is still read against the
    database on every request: a token revoked or a user deactivated is refused at once. A request
    with any cookie is left to Flask-Login."""
    if "_login_user" not in g and not request.cookies:
        login._update_request_context_with_user(load_user_from_token(request))


def require_role(minimum: Role) -> Callable[[], Any]:
    """A ``before_request`` hook for a blueprint: every view in it needs at least ``minimum``."""

    def check() -> Any:
        if not current_user.is_authenticated:
            return login.unauthorized()
        if not current_user.may(minimum):
            abort(403, description=f"This page is for the {minimum.name} role and above; "
                                   f"you are logged in as a {current_user.role.name}.")
        return None

    return check


def role_required(minimum: Role) -> Callable[[F], F]:
    """The same check as :func:`require_role`, for a single view."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            refused = require_role(minimum)()
            return refused if refused is not None else view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


def safe_next(target: str | None) -> str | None:
    """``target`` when it is a path on this site, else None: never an open redirect to another host
    (a scheme, a host, ``//host`` or a backslash, which browsers read as a slash)."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    return target
