"""The card room's own settings, stored in the database: for now its time zone (issue 25).

The zone is asked once: ``flask --app floor init-db`` asks for it the first time (its default is
the machine's own zone, or ``FLOOR_TIMEZONE`` when the configuration names one), and a director
may change it at ``/director/settings``. Every page and print shows times in it
(:mod:`floor.localtime`).

Which zone is used, first found: the stored setting (the room's choice), ``FLOOR_TIMEZONE`` (the
configuration, for an installation not yet asked), the machine's zone, UTC.
"""

from __future__ import annotations

import functools
import os
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from flask import Blueprint, Flask, current_app, flash, g, redirect, render_template, request, url_for
from sqlalchemy import String
from sqlalchemy.exc import OperationalError, ProgrammingError
from sqlalchemy.orm import Mapped, mapped_column

from floor.auth.access import require_role
from floor.extensions import DbModel, db
from floor.models import Role

__all__ = ["RoomSetting", "known_zones", "machine_zone", "stored_zone", "zone_name", "set_zone", "check_zone", "bp"]

ZONE = "time_zone"


class RoomSetting(DbModel):
    """One setting of the card room: a name and its text value (one row a setting)."""

    __tablename__ = "room_settings"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


def check_zone(name: str) -> str:
    """``name`` if it is a time zone this machine knows (an IANA name), else ValueError saying so."""
    name = (name or "").strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r}: use a name such as 'Europe/London' or "
                         "'America/Las_Vegas'") from None
    return name


@functools.cache
def known_zones() -> tuple[str, ...]:
    """The zones this machine knows (IANA names), sorted: the settings page's choices. Read once per
    process: the zone files are walked for it, about 10 ms at every view and post of the page (a zone
    installed later is offered after a restart; :func:`check_zone` accepts it at once).

    >>> "Europe/London" in known_zones() and known_zones() == tuple(sorted(known_zones()))
    True
    """
    return tuple(sorted(available_timezones()))


def machine_zone() -> str:
    """The machine's own zone, as an IANA name: ``TZ``, /etc/timezone, the /etc/localtime link; UTC."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    try:
        with open("/etc/timezone", encoding="utf-8") as fh:
            candidates.append(fh.read().strip())
    except OSError:
        pass
    try:
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:  # pragma: no cover - realpath rarely fails
        pass
    for name in candidates:
        try:
            return check_zone(name)
        except ValueError:
            continue
    return "UTC"


def stored_zone() -> str | None:
    """The zone the room chose (None before it was asked, or before the database has the table)."""
    try:
        row = db.session.get(RoomSetting, ZONE)
    except (OperationalError, ProgrammingError):  # a database not yet upgraded (or not reachable): none chosen
        db.session.rollback()
        return None
    return row.value if row is not None else None


def default_zone() -> str:
    """What the room is offered when asked: the configuration's zone, else the machine's."""
    return current_app.config.get("FLOOR_TIMEZONE") or machine_zone()


def zone_name() -> str:
    """The zone every page and print uses now (read once a request)."""
    if "room_zone" not in g:
        g.room_zone = stored_zone() or default_zone()
    return g.room_zone


def set_zone(name: str) -> str:
    """Store the room's zone (checked); returns it."""
    name = check_zone(name)
    row = db.session.get(RoomSetting, ZONE)
    if row is None:
        db.session.add(RoomSetting(name=ZONE, value=name))
    else:
        row.value = name
    db.session.commit()
    g.pop("room_zone", None)
    return name


# --------------------------------------------------------------------------- the director's page

bp = Blueprint("room", __name__, url_prefix="/director/settings")
bp.before_request(require_role(Role.director))


def init_app(app: Flask) -> None:
    """Register the room's settings page."""
    app.register_blueprint(bp)


@bp.route("/", methods=["GET", "POST"])
def settings() -> Any:
    """The card room's settings: its time zone, from the list of zones this machine knows."""
    from flask_wtf.csrf import validate_csrf  # the form is plain HTML; the token is checked here
    from wtforms import ValidationError

    zones = known_zones()
    error, status = "", 200
    if request.method == "POST":
        try:
            if current_app.config.get("WTF_CSRF_ENABLED", True):
                validate_csrf(request.form.get("csrf_token", ""))
            chosen = set_zone(request.form.get("zone", ""))
        except ValidationError:
            error, status = "The form expired; reload the page and try again.", 400
        except ValueError as exc:
            error, status = f"Not saved: {exc}.", 400
        else:
            flash(f"The card room's time zone is {chosen}: every page and print shows times in it.", "success")
            return redirect(url_for("room.settings"))
    return render_template("director/settings.html", zones=zones, current=zone_name(), stored=stored_zone(),
                           machine=machine_zone(), error=error), status
