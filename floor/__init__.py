"""The floor tool: a Flask app for jacks-or-better draw with the bug.

``create_app`` is the app factory. Configuration is layered, each layer overriding the one before:

1. the defaults below;
2. ``instance/config.py`` (per installation; not committed);
3. the environment: ``FLOOR_DATABASE_URL`` (e.g. ``postgresql+psycopg://...``), ``FLOOR_SECRET_KEY``,
   ``FLOOR_TIMEZONE`` (the card room's zone for times on pages and prints, e.g. ``Europe/London``),
   ``FLOOR_PUBLIC_URL`` (the address the room's devices use, printed on rulings as where to check a seal),
   ``FLOOR_HTTPS=1`` (served over HTTPS: Secure cookies, HSTS), ``FLOOR_PROXIES=1`` (the number
   of reverse proxies in front, whose X-Forwarded-* headers are trusted; see :mod:`floor.security`),
   ``FLOOR_LOG_LEVEL``, ``FLOOR_LOG_FILE`` (see below);
4. the ``test_config`` mapping given to the factory (tests).

Logging: the app's own lines (who issued or confirmed a ruling, reset a password, moved a player,
called the floor; refusals and errors) go to ``app.logger`` at ``FLOOR_LOG_LEVEL`` (``INFO`` by
default: the audit lines are kept) through Flask's handler, which writes to the server's error
stream (stderr under gunicorn, ``flask run`` and the CLI). ``FLOOR_LOG_FILE`` (a path, relative to
the instance folder) appends them to a file as well, reopened when logrotate moves it.

The secret key, when no layer sets one, is generated once into ``instance/secret_key`` so that
sessions survive restarts and no key is ever hard-coded.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Mapping

from flask import Flask
from werkzeug.routing import IntegerConverter

from floor import security
from floor.keys import instance_key

try:
    __version__ = version("jackpot-floor")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"


#: The settings of the room's record (issue 30; docs/record.md), read from the environment too:
#: the seal key (floor.keys), the witness's store, checkpoints and collector (floor.witness).
RECORD_SETTINGS = ("FLOOR_SEAL_KEY", "FLOOR_SEAL_KEY_FILE", "FLOOR_WITNESS_URL", "FLOOR_WITNESS_ROTATE_LINES",
                   "FLOOR_CHECKPOINT_LINES", "FLOOR_CHECKPOINT_MINUTES", "FLOOR_CHECKPOINT_SYSLOG")


class BoundedInt(IntegerConverter):
    """``<int:...>`` limited to what a 64-bit database column holds, in ASCII digits (werkzeug's
    ``\\d`` also takes "١", an Arabic-Indic one: issue 30)."""

    regex = r"[0-9]+"

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", 2**63 - 1)
        super().__init__(map, *args, **kwargs)


def _tune_sqlite(engine: Any) -> None:
    """Write-ahead logging: readers never block the writer, and a commit is one append to the WAL
    instead of a rewrite of the journal (the table log's append is a commit per tap).
    ``synchronous=FULL`` keeps every acknowledged event on disk through a power cut. Writers queue
    for the write lock instead of polling for it (:mod:`floor.writelock`)."""
    from sqlalchemy import event

    from floor import writelock

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    writelock.install(engine)


#: What every line of the app's log says: when, how grave, which module, the words.
LOG_FORMAT = "[%(asctime)s] %(levelname)s in %(module)s: %(message)s"


def _configure_logging(app: Flask) -> None:
    """The app's lines at ``FLOOR_LOG_LEVEL`` on the server's error stream, and in ``FLOOR_LOG_FILE``
    when one is named. Without this the logger had no level of its own and took the root's
    (WARNING): every audit line at INFO was dropped. The logger is the process's (one per app
    name), so a file handler this function added for an earlier app is replaced, never doubled."""
    level = str(app.config["FLOOR_LOG_LEVEL"]).upper()
    if not isinstance(logging.getLevelName(level), int):
        raise ValueError(f"FLOOR_LOG_LEVEL {app.config['FLOOR_LOG_LEVEL']!r} is not a logging level "
                         "(DEBUG, INFO, WARNING, ERROR, CRITICAL)")
    logger = app.logger  # Flask adds its stderr handler here when nothing above would show the lines
    logger.setLevel(level)
    for handler in [h for h in logger.handlers if getattr(h, "floor_log_file", False)]:
        logger.removeHandler(handler)
        handler.close()
    if app.config.get("FLOOR_LOG_FILE"):
        path = os.path.join(app.instance_path, app.config["FLOOR_LOG_FILE"])
        file_handler = logging.handlers.WatchedFileHandler(path, encoding="utf-8")
        file_handler.setFormatter(logging.Formatter(LOG_FORMAT))
        file_handler.floor_log_file = True  # type: ignore[attr-defined]
        logger.addHandler(file_handler)


def _check_keys(app: Flask) -> None:
    """The seal key against the database's fingerprint (:func:`floor.keys.check_seal_key`), at the
    start: raises :class:`floor.keys.KeyRefused` naming the setting. A database that does not
    answer yet is checked at the key's first use instead."""
    from sqlalchemy.exc import OperationalError

    from floor.extensions import db
    from floor.keys import KeyRefused, check_seal_key, load_seal_key

    app.extensions["floor_seal_key_loader"] = lambda: load_seal_key(app)
    with app.app_context():
        try:
            check_seal_key(app)
        except OperationalError as exc:
            app.logger.warning("the seal key is checked at its first use: the database did not answer (%s)", exc)
        except KeyRefused:
            db.engine.dispose()  # this app goes no further: nothing of it stays connected
            raise


def create_app(test_config: Mapping[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app: config layers, logging, extensions, blueprints, CLI commands."""
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="static",
    )
    os.makedirs(app.instance_path, exist_ok=True)
    _load_config(app, test_config)
    _configure_logging(app)
    # Ids in URLs are database integers: one beyond 64 bits is simply not found (404), never an
    # overflow in the database driver.
    app.url_map.converters["int"] = BoundedInt
    _init_extensions(app)
    _register_parts(app)
    # the factory itself, for a process that makes its own app from this one's config (the shift
    # report's job: floor.shift_jobs), without importing this package back
    app.extensions["floor_factory"] = create_app
    return app


#: The environment's settings (layer 3 of the module's docstring) and the config keys they set.
ENVIRONMENT = {"FLOOR_DATABASE_URL": "SQLALCHEMY_DATABASE_URI", "FLOOR_SECRET_KEY": "SECRET_KEY",
               "FLOOR_TIMEZONE": "FLOOR_TIMEZONE", "FLOOR_PUBLIC_URL": "FLOOR_PUBLIC_URL",
               "FLOOR_LOG_LEVEL": "FLOOR_LOG_LEVEL", "FLOOR_LOG_FILE": "FLOOR_LOG_FILE",
               **{var: var for var in RECORD_SETTINGS}}  # the seal key, the witness, the collector (docs/record.md)


def _load_config(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """The four layers of the module's docstring, each over the one before, then what follows from
    them: a secret key generated once into the instance folder when none is set, the SQLite lock
    wait, the log's JSON spelled once."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "floor.sqlite"),
        SQLALCHEMY_ENGINE_OPTIONS={},
        # A house can pin its own profiles folder; by default *.toml files in instance/profiles/.
        FLOOR_PROFILES_DIR=os.path.join(app.instance_path, "profiles"),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,  # a shift is longer than an hour; the token lives with the session
        FLOOR_VERSION=__version__,
        # The card room's time zone when the room has not chosen one (floor.room): times are stored
        # in UTC and shown in the room's zone; None here means the machine's own zone.
        FLOOR_TIMEZONE=None,
        # The address the card room's devices reach the app at (https://floor.example.com), printed
        # on a ruling as where to check its seal. None: the print says how to check it in the app
        # instead; never the host that served the request (a proxy's, a tablet's LAN address).
        FLOOR_PUBLIC_URL=None,
        # The app's log (see the module's docstring): INFO keeps the audit lines; no file by default.
        FLOOR_LOG_LEVEL="INFO",
        FLOOR_LOG_FILE=None,
        # How long a request for a closed shift's report waits for it to be put together before it
        # answers a page that reloads until it is (seconds; floor.shift_jobs).
        FLOOR_REPORT_WAIT=8.0,
    )
    app.config.from_mapping(security.DEFAULTS)  # request limits, lockout, cookie flags
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    for var, key in ENVIRONMENT.items():
        if os.environ.get(var):
            app.config[key] = os.environ[var]
    if os.environ.get("FLOOR_HTTPS"):
        app.config["FLOOR_HTTPS"] = os.environ["FLOOR_HTTPS"].lower() in ("1", "true", "yes", "on")
    if os.environ.get("FLOOR_PROXIES", "").isdigit():
        app.config["FLOOR_PROXIES"] = int(os.environ["FLOOR_PROXIES"])
    if test_config is not None:
        app.config.from_mapping(test_config)
    try:  # a wrong value is named at the start, not at the first shift report asked for
        wait = float(app.config["FLOOR_REPORT_WAIT"])
    except (TypeError, ValueError):
        wait = -1.0
    if not 0 <= wait <= 50:  # a wait past gunicorn's timeout (60 s) would bring back the killed request
        raise ValueError(f"FLOOR_REPORT_WAIT {app.config['FLOOR_REPORT_WAIT']!r} is not a number of seconds "
                         "from 0 to 50")
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_key(app.instance_path, "secret_key")
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # Two dealers' tablets may write at the same moment: wait for the lock instead of failing.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"].setdefault("connect_args", {"timeout": 15})
    # a log entry's payload is stored as its seal spelled it, not spelled again (floor.seals.Spelled)
    from floor.seals import json_serializer

    app.config["SQLALCHEMY_ENGINE_OPTIONS"].setdefault("json_serializer", json_serializer)


def _init_extensions(app: Flask) -> None:
    """The database (SQLite tuned), migrations, CSRF, logins, the rate limiter, the security
    headers; then the seal key checked against the database and the witness started."""
    from floor import ratelimit, witness  # noqa: F401  (the floordb:// storage; the witness's session hooks)
    from floor.extensions import csrf, db, limiter, login, migrate, throttle_only_throttled

    db.init_app(app)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        with app.app_context():
            _tune_sqlite(db.engine)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "migrations"),
                     render_as_batch=True)  # SQLite alters tables by copying them
    csrf.init_app(app)
    login.init_app(app)
    limiter.init_app(app)
    throttle_only_throttled(app)
    security.init_app(app)
    _check_keys(app)  # a host with another seal key, or none for a sealed database, does not start
    witness.init_app(app)


def _register_parts(app: Flask) -> None:
    """The blueprints, one package each (templates/<blueprint>/ mirrors them: docs/architecture.md,
    "Layout"), and the words every page shares."""
    from floor import api, auth, banked, board, cli, dealer, director, errors, floorpages, localtime, players, prints
    from floor import rotation, rulings, tournament
    from floor import room
    from rules import words

    localtime.init_app(app)
    # a deal's part in players' words on every page (the tablet, the floor's overview and line-ups)
    app.jinja_env.filters["phase"] = words.phase_words
    # one numbering of deals and log entries on every page and print (docs/pages.md)
    app.jinja_env.filters["deal"] = words.deal_words
    app.jinja_env.filters["entry"] = words.entry_words
    app.jinja_env.filters["entry_number"] = words.entry_number  # a log index (the engine's) as people number it
    # Every part registers itself one way, its package's (or module's) init_app: its blueprints,
    # hooks and filters (director, rulings, banked and tournament import their modules only there,
    # once the package is whole: tests/test_structure.py).
    for part in (auth, errors, api, board, dealer, floorpages, prints, room, director, rulings, banked, tournament,
                 players, rotation, cli):
        part.init_app(app)
