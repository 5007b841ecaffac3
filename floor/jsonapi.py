"""What every JSON route of the app shares: the role check, errors and reading the input.

The JSON API (:mod:`floor.api`), the tablet's tap (:mod:`floor.dealer.taps`), the tournament's API
(:mod:`floor.tournament.api`) and logging a posted event (:mod:`floor.posting`) answer the same way.
Clients authenticate with ``Authorization: Bearer <token>``; the app's own pages call it with
their session and the CSRF token in ``X-CSRFToken``. Errors are JSON ``{"error", "message"}``:
401 without a login, 403 for a role that may not, 404, 409 for a stale ``expected_version``,
422 when the rules refuse an event (with the rules' own message). Nothing is written on an error.
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

import orjson
from flask import Response, abort, current_app, g, jsonify, request, url_for
from flask_login import current_user

from floor.auth.access import login_without_cookies
from floor.extensions import csrf
from floor.inputs import BadNumber, whole, whole_or_none
from floor.models import Role

F = TypeVar("F", bound=Callable[..., Any])


def problem(status: int, title: str, message: str, **extra: Any) -> tuple[dict[str, Any], int]:
    """An error answer's body and status: for a caller that adds to the body before sending it (the
    tablet's tap adds its panel, :mod:`floor.dealer.taps`)."""
    return {"error": title, "message": message, "status": status, **extra}, status


#: How a tap's answer is written (:func:`answer`): seat numbers as keys (JSON's keys are text, as
#: Flask writes them), keys sorted as Flask sorts them, and times, dates and dataclasses left to
#: Flask's own ``default``, so that any of them is spelled as in every other answer.
_ANSWER = (orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
           | orjson.OPT_PASSTHROUGH_DATACLASS)


def answer(body: dict[str, Any], status: int) -> Response:
    """A tap's answer (the table's whole state with it) as JSON, written by orjson: the same JSON
    as ``jsonify`` (the same keys and values, text in UTF-8 rather than escaped to ASCII), in half
    its CPU within a tap and a fifth alone (issue 34: ``jsonify`` was a twentieth of a tap). A value
    orjson cannot write (a whole number beyond 64 bits) is answered by ``jsonify``, as before."""
    try:
        data = orjson.dumps(body, default=getattr(current_app.json, "default", None), option=_ANSWER)
    except TypeError:  # orjson's JSONEncodeError
        response = jsonify(body)
        response.status_code = status
        return response
    return current_app.response_class(data + b"\n", status=status, mimetype="application/json")


def error(status: int, title: str, message: str, **extra: Any) -> Any:
    """An error answer, sent as JSON (its body: :func:`problem`)."""
    body, status = problem(status, title, message, **extra)
    return jsonify(body), status


def api_role(minimum: Role) -> Callable[[F], F]:
    """Every API route but the health check names the least role that may call it."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            login_without_cookies()  # a bearer client's user, read at once (Flask-Login's own way otherwise)
            if not current_user.is_authenticated:
                if request.cookies.get(current_app.config["SESSION_COOKIE_NAME"]) and not g.get("bearer"):
                    # A tablet whose login ended (logged out elsewhere, password changed, expired):
                    # the dealer must know that the tap was not logged.
                    words = ("Your login has ended, so this was NOT logged. Log in again, check the table, "
                             "and tap again if it is still right." if request.method not in ("GET", "HEAD")
                             else "Your login has ended: log in again.")
                    return error(401, "Unauthorized", words, login=url_for("auth.login"))
                if g.get("account_refused"):
                    return error(401, "Unauthorized", f"This token logs nobody in: {g.account_refused}")
                return error(401, "Unauthorized", "Log in, or send 'Authorization: Bearer <token>'.")
            if not current_user.may(minimum):
                return error(403, "Forbidden",
                             f"This needs the {minimum.name} role; {current_user.username} is a "
                             f"{current_user.role.name}.")
            if request.method not in ("GET", "HEAD", "OPTIONS") and not g.get("bearer"):
                csrf.protect()  # a session cookie alone could be ridden by another site's form
            return view(*args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorate


def json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="Send a JSON object (Content-Type: application/json).")
    return data


def body_whole(data: dict[str, Any], key: str) -> int | None:
    """A whole number of a JSON body (an id, a version), or None when absent; ``ValueError`` with
    the reason otherwise (a boolean is no number; nothing beyond what a database id can be)."""
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"'{key}' must be a whole number")
    return whole(value, f"'{key}'")


def body_text(data: dict[str, Any], key: str, default: str = "") -> str:
    """A text field of a JSON body (``default`` when absent or null); 400 naming the field when it is
    a list, an object or a number: ``str()`` would have made "['Ann']" a player's name (issue 30)."""
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        abort(400, description=f"'{key}' must be text, not {value!r:.40}.")
    return value


def unknown_fields(data: dict[str, Any], allowed: set[str] | frozenset[str]) -> Any | None:
    """The 400 answer naming a body's fields the route does not take, or None when there are none."""
    unknown = sorted(set(data) - set(allowed))
    if not unknown:
        return None
    return error(400, "Bad request", f"unknown field(s): {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


class BadQuery(ValueError):
    """A query parameter that cannot be read (answered 400 with the message)."""


def query_int(name: str, default: int | None, low: int, high: int) -> int | None:
    """A whole-number query parameter between ``low`` and ``high``, or ``default`` when absent."""
    try:
        value = whole_or_none(request.args.get(name), f"'{name}'", low, high)  # ASCII digits only
    except BadNumber as exc:
        raise BadQuery(str(exc)) from None
    return default if value is None else value
