"""The Flask extensions, created unbound; :func:`floor.create_app` binds them to an app."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, cast

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import BigInteger, CursorResult, Executable, Integer
from sqlalchemy.orm import DeclarativeBase, registry

#: Every ``Mapped[int]`` column is 64-bit: BIGINT (BIGSERIAL for a key) on PostgreSQL, where a
#: plain INTEGER stops at 2**31 - 1; on SQLite an INTEGER is already 64-bit and only ``INTEGER
#: PRIMARY KEY`` is the rowid that numbers itself, so SQLite keeps the plain INTEGER.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    """Declarative base of every model."""

    registry = registry(type_annotation_map={int: BigId})


db = SQLAlchemy(model_class=Base)
if TYPE_CHECKING:
    class DbModel(Base):
        """``db.Model`` as a type checker sees it: the declarative base. (mypy takes no attribute of an
        instance as a base class; at run time Flask-SQLAlchemy's class adds the session binding.)"""

        __abstract__ = True
else:
    #: The base class of every model (``class Table(DbModel)``): Flask-SQLAlchemy's ``db.Model``.
    DbModel = db.Model


def rows_changed(statement: Executable) -> int:
    """Run an UPDATE (or DELETE) in the session's transaction; how many rows it changed. The session
    answers such a statement with a cursor result, which its signature types as any result."""
    return cast("CursorResult[Any]", db.session.execute(statement)).rowcount


csrf = CSRFProtect()
login = LoginManager()
login.login_view = "auth.login"
login.login_message = "Please log in to see that page."
login.login_message_category = "info"
migrate = Migrate()
# Login throttling per client address (the address the reverse proxy reports, see FLOOR_PROXIES).
# The counts live in the app's database (RATELIMIT_STORAGE_URI "floordb://", floor.ratelimit), so
# every server process counts the same attempts; a shared store (redis://...) may be named instead.
limiter = Limiter(key_func=get_remote_address)
#: The endpoints with a limit of their own (``@limiter.limit``). Every other request skips the
#: limiter's check, which it would otherwise run before each request only to find no limit (issue
#: 23: it cost every tap about a tenth of a millisecond); tests/test_security.py keeps this set in
#: step with the decorated views.
THROTTLED = frozenset({"auth.login"})


@limiter.request_filter
def _not_throttled() -> bool:
    return request.endpoint not in THROTTLED


def throttle_only_throttled(app: Flask) -> None:
    """Run the limiter's check before a request of :data:`THROTTLED` only (after ``limiter.init_app``).
    Every other request was exempt from it already (the filter above), but still paid for the
    limiter finding that out: naming the endpoint, gathering its limits, reading the exemptions
    (issue 34: a fiftieth of a tap). Its place among the hooks is kept, and a throttled request is
    checked exactly as before."""
    hooks = app.before_request_funcs[None]
    check = limiter._check_request_limit  # the hook init_app registered (a bound method: equal, not identical)

    def check_throttled() -> None:
        if request.endpoint in THROTTLED:
            check()

    hooks[hooks.index(check)] = check_throttled
    # and after the request: the limiter's headers and the deductions of the limits it checked, then
    # its context let go. A request it did not check has neither (and the headers are off), but paid
    # for the limiter finding that out (issue 34, session 41: a hundredth of a tap)
    after = app.after_request_funcs[None]
    inject = next(hook for hook in after if isinstance(hook, partial) and hook.args == (limiter,))

    def inject_throttled(response: Any) -> Any:
        return inject(response) if request.endpoint in THROTTLED else response

    after[after.index(inject)] = inject_throttled
    teardowns = app.teardown_request_funcs[None]
    release = limiter._Limiter__release_context  # type: ignore[attr-defined]

    def release_throttled(exc: BaseException | None = None) -> None:
        if request.endpoint in THROTTLED:
            release(exc)

    teardowns[teardowns.index(release)] = release_throttled
