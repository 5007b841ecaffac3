"""Fixtures for the app's tests: a fresh SQLite app, clients logged in by role, the CLI runner.

Rules tests need none of this: they import ``rules`` only and never start Flask. So this module
imports the app (and with it Flask) only inside the fixtures that build one, never at the top:
collecting a rules test loads no Flask (``tests/test_purity.py`` checks it).

The test accounts share one password hash, computed once per run with a cheap method
(:func:`password_hash`); the app itself keeps Werkzeug's default (scrypt) for real accounts.

What the suite's time went to, and what keeps it down (issues 23 and 34; docs/testing.md, "What the
suite's time goes to"):

- Every commit of the app fsyncs its SQLite file (``PRAGMA synchronous=FULL``): on this machine's
  disk a fresh app's schema alone cost a tenth of a second. The run's temporary files therefore
  live in memory (``/dev/shm``) when the machine has it and nobody chose another place
  (``TMPDIR`` or ``--basetemp``): :func:`pytest_configure`. The app and its pragmas are unchanged;
  only the disk under them is faster.
- ``make test`` runs the tests in as many processes as the machine has cores (pytest-xdist, the
  Makefile's ``TEST_JOBS``); each worker makes its own schema copy and, on PostgreSQL, starts its
  own throwaway server.
- Each test still gets a fresh database, but its schema is copied from one made once per process
  (:func:`_sqlite_schema`, as tests/pg.py clones a template database on PostgreSQL) instead of
  being created table by table.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

from tests import pg

PASSWORD = "correct horse battery"
#: The test accounts: user name -> role name (``floor.models.Role``).
USERS = {"dana": "director", "fred": "floor", "dee": "dealer"}


@functools.cache
def password_hash() -> str:
    """The hash of :data:`PASSWORD` every test account carries: PBKDF2 with 1,000 rounds takes
    under a millisecond to make and to check, where the default takes a tenth of a second each
    time (three accounts per app, one check per login, hundreds of apps per run)."""
    from werkzeug.security import generate_password_hash

    return generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000")


#: Where the run's temporary files go when nobody chose (a tmpfs: no fsync reaches a disk).
MEMORY_TMP = "/dev/shm"


def pytest_configure(config) -> None:
    """The run's temporary files (``tmp_path``, the throwaway PostgreSQL server, the browser's
    profile) in memory, unless ``TMPDIR`` or ``--basetemp`` says where. xdist's workers and the
    servers the tests start inherit the choice through the environment."""
    if os.environ.get("TMPDIR") or config.option.basetemp or not os.access(MEMORY_TMP, os.W_OK | os.X_OK):
        return
    os.environ["TMPDIR"] = MEMORY_TMP
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_collection_finish(session) -> None:
    """What the test process holds once it has collected the suite (every module imported, the
    tests' objects) is moved out of the cyclic garbage collector's sight, and the collector runs
    less often: each full collection walked all of it again (``FLOOR_TEST_GC=default`` keeps
    Python's settings, to measure against)."""
    if os.environ.get("FLOOR_TEST_GC") == "default":
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


#: The PostgreSQL server of this run (``FLOOR_TEST_PG=1``, see tests/pg.py), else None: SQLite.
POSTGRES: pg.Cluster | None = None
#: The apps made during the current test, whose connections are closed after it.
_APPS: list = []


@functools.cache
def _url_builders_compiled_once() -> None:
    """Werkzeug compiles two URL builders for every rule of every app it makes (an AST built and
    compiled into a function), and the suite makes thousands of apps of the same 112 rules: about
    40 of an app's 48 ms of CPU. A builder is a pure function of what it is compiled from (the rule,
    its parsed parts, the names of its defaults, whether unknown arguments are appended; bound to
    its rule when called), so each is compiled once per test process and reused; a rule whose
    default fills one of its own parts is compiled as werkzeug does (that part becomes a constant
    through the rule's converter). A server the tests start runs werkzeug unchanged."""
    from werkzeug.routing.rules import Rule

    compile_builder = Rule._compile_builder
    compiled: dict[tuple, object] = {}

    def compile_once(self, append_unknown: bool = True):  # type: ignore[no-untyped-def]
        defaults = self.defaults or {}
        if defaults and any(dynamic and name in defaults for dynamic, name in self._trace):
            return compile_builder(self, append_unknown)
        key = (self.rule, append_unknown, tuple(self._trace), tuple(str(k) for k in defaults))
        if key not in compiled:
            compiled[key] = compile_builder(self, append_unknown)
        return compiled[key]

    Rule._compile_builder = compile_once  # type: ignore[method-assign]

    # Parsing each rule's text into its parts (a regular expression per part, its weight, the
    # converters' names and arguments) is the same for every app too: about 6 of the 17 ms a new
    # app spends adding its routes (issue 34, session 40). Parsed once per rule text and set of
    # converter classes; each rule still gets converter objects of its own, made by its map.
    parse_rule = Rule._parse_rule
    parsed: dict[tuple, tuple] = {}

    def parse_once(self, rule: str):  # type: ignore[no-untyped-def]
        key = (rule, tuple(sorted(self.map.converters.items())))
        if key not in parsed:
            made: list[tuple] = []
            get_converter = self.get_converter

            def recording(variable, converter, args, kwargs):  # type: ignore[no-untyped-def]
                made.append((variable, converter, args, dict(kwargs)))
                return get_converter(variable, converter, args, kwargs)

            trace_from = len(self._trace)
            self.get_converter = recording
            try:
                parts = list(parse_rule(self, rule))
            finally:
                del self.get_converter
            parsed[key] = (parts, self._trace[trace_from:], made)
            return parts
        parts, trace, made = parsed[key]
        self._trace.extend(trace)
        for variable, converter, args, kwargs in made:
            self._converters[variable] = self.get_converter(variable, converter, args, kwargs)
            self.arguments.add(variable)
        return list(parts)  # a part is never changed once made (werkzeug makes new ones): shared, not copied

    Rule._parse_rule = parse_once  # type: ignore[method-assign]


@functools.cache
def _templates_compiled_once() -> None:
    """Jinja compiles each template the first time an app renders it (lexed, parsed, turned into
    Python source and compiled by ``compile()``), and keeps it in that app's environment only: every
    test's app compiled again every page it showed, about a third of a page test's CPU (issue 34,
    session 40). Jinja's own hook for this, a bytecode cache (``Environment.bytecode_cache``), is
    given to every app the test process makes, one kept in memory: a template is compiled once per
    process and each app builds its ``Template`` from that code, as from a fresh compile. The code is
    kept by template name, file, source and every setting of the environment the compiler reads (its
    syntax, whether it escapes that template, its extensions, the functions of its filters and tests),
    so an app configured otherwise compiles its own. A server the tests start compiles as the app does."""
    from flask import Flask
    from jinja2.bccache import BytecodeCache, Bucket

    class CompiledOnce(BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[tuple, object] = {}

        def get_bucket(self, environment, name, filename, source):  # type: ignore[no-untyped-def]
            bucket = Bucket(environment, "", "")
            bucket.key = (name, filename, source, _settings(environment, name))  # type: ignore[assignment]
            bucket.code = self.code.get(bucket.key)  # type: ignore[arg-type]
            return bucket

        def set_bucket(self, bucket) -> None:  # type: ignore[no-untyped-def]
            self.code[bucket.key] = bucket.code

    def _settings(env, name):  # type: ignore[no-untyped-def]
        autoescape = env.autoescape(name) if callable(env.autoescape) else env.autoescape
        return (env.block_start_string, env.block_end_string, env.variable_start_string,
                env.variable_end_string, env.comment_start_string, env.comment_end_string,
                env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
                env.newline_sequence, env.keep_trailing_newline, env.optimized, env.is_async,
                _function(env.finalize), autoescape, tuple(sorted(env.extensions)), env.sandboxed,
                getattr(env, "intercepted_binops", None), getattr(env, "intercepted_unops", None),
                _functions(env, "filters"), _functions(env, "tests"))

    def _functions(env, kind):  # type: ignore[no-untyped-def]
        """The key of an environment's filters (or tests), worked out again only when they changed
        since the environment's last template: a page loads several templates, each keyed by the
        app's hundred filters. The mapping is compared with ``==``, true for the very same
        functions only (a function equals itself alone)."""
        functions = getattr(env, kind)
        known = env.__dict__.get(f"_floor_test_{kind}")
        if known is None or known[0] != functions:
            known = (dict(functions), frozenset((name, _function(f)) for name, f in functions.items()))
            env.__dict__[f"_floor_test_{kind}"] = known
        return known[1]

    def _function(f):  # type: ignore[no-untyped-def]
        """A filter by what it runs (the compiler reads how it is called and may run it on
        constants): a method by its function (its app differs), a function made again for each app
        (a lambda in an ``init_app``) by its code and the very objects it reads, any other by itself."""
        f = getattr(f, "__func__", f)
        code = getattr(f, "__code__", None)
        if code is None:
            return _Same(f)
        return (code, _Same(f.__globals__), tuple(_Same(cell.cell_contents) for cell in f.__closure__ or ()),
                _Same(f.__defaults__), _Same(f.__kwdefaults__), getattr(f, "jinja_pass_arg", None))

    class _Same:
        """An object as a key by its identity (a dict is not hashable), held so its id stays its own."""

        __slots__ = ("obj",)

        def __init__(self, obj: object) -> None:
            self.obj = obj

        def __hash__(self) -> int:
            return id(self.obj)

        def __eq__(self, other: object) -> bool:
            return isinstance(other, _Same) and other.obj is self.obj

    compiled = CompiledOnce()
    create_environment = Flask.create_jinja_environment

    def create_with_shared_code(self):  # type: ignore[no-untyped-def]
        environment = create_environment(self)
        environment.bytecode_cache = compiled
        return environment

    Flask.create_jinja_environment = create_with_shared_code  # type: ignore[method-assign]


def _create_schema(url: str, instance_path: str | None = None) -> None:
    _url_builders_compiled_once()
    _templates_compiled_once()
    from floor import create_app
    from floor.extensions import db

    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url},
                     instance_path=instance_path)
    with app.app_context():
        db.create_all()
        db.engine.dispose()


@functools.cache
def _sqlite_schema() -> bytes:
    """An SQLite database file holding the schema and nothing else, made once per process (the
    models cannot change during a run): every test's database starts as a copy of it."""
    folder = tempfile.mkdtemp(prefix="floor-schema-")
    try:
        path = os.path.join(folder, "schema.sqlite")
        _create_schema(f"sqlite:///{path}", instance_path=os.path.join(folder, "instance"))
        return Path(path).read_bytes()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _postgres():
    """With ``FLOOR_TEST_PG=1``: a throwaway PostgreSQL server for the whole run."""
    global POSTGRES
    if not os.environ.get("FLOOR_TEST_PG"):
        yield None
        return
    cluster = pg.Cluster()
    cluster.start()
    try:
        cluster.make_template(_create_schema)
        POSTGRES = cluster
        yield cluster
    finally:
        POSTGRES = None
        cluster.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium through Playwright, launched once per test process on the first browser
    test (tests/e2e.py's ``browser``; issue 34: each module launched its own, a driver and a
    browser start each time). Imported here only when a browser test asks for it."""
    from tests import e2e

    yield from e2e.launch()


@pytest.fixture(autouse=True)
def _close_apps():
    """After each test: every app's connections closed, and on PostgreSQL its database dropped."""
    yield
    from floor.extensions import db

    while _APPS:
        app = _APPS.pop()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
            app.extensions["floor_witness"].store.close()  # a witness database's connections (issue 30)
    if POSTGRES is not None:
        POSTGRES.drop_databases()


def database_url(tmp_path) -> str:
    """A fresh database with the schema: on the run's PostgreSQL server, else a SQLite file."""
    if POSTGRES is not None:
        return POSTGRES.new_database()
    path = Path(tmp_path) / "test.sqlite"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_sqlite_schema())
    return f"sqlite:///{path}"


def make_app(tmp_path, **config):
    _url_builders_compiled_once()
    _templates_compiled_once()
    from floor import create_app
    from floor.extensions import db
    from floor.models import Role, User

    settings = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        # a closed shift's report is put together in a process of its own (floor.shift_jobs: its
        # interpreter alone starts in 1 to 2 s): a test that means to be served waits for it even on
        # a loaded machine; the progress page's tests set their own wait
        "FLOOR_REPORT_WAIT": 50,
    }
    settings.update(config)
    settings.setdefault("SQLALCHEMY_DATABASE_URI", database_url(tmp_path))
    app = create_app(settings, instance_path=str(tmp_path / "instance"))
    _APPS.append(app)
    with app.app_context():
        db.create_all()
        for name, role in USERS.items():
            user = User(username=name, password_hash=password_hash())
            user.role = Role[role]
            db.session.add(user)
        db.session.commit()
    return app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    from floor import tables

    tables.cache.clear()


@pytest.fixture
def csrf_app(tmp_path):
    """The same app with CSRF protection on, as in production."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    yield app
    from floor import tables

    tables.cache.clear()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def login(client, username):
    """Log a test client in through the real login form."""
    response = client.post("/login", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.data
    return client


@pytest.fixture
def as_role(app):
    """``as_role("floor")`` gives a client logged in as that role's test user."""
    by_role = {role: name for name, role in USERS.items()}

    def make(role):
        return login(app.test_client(), by_role[role])

    return make


@pytest.fixture
def dealer(as_role):
    """A client logged in as the test dealer (the tablet's user)."""
    return as_role("dealer")


@pytest.fixture
def table_id(app):
    """The id of a cash table "Table 1" set up with :data:`SETUP` (a module that wants another table,
    a banked one or a live server's, defines its own ``table_id``)."""
    from floor import tables

    with app.app_context():
        return tables.create_table("Table 1", SETUP).id


@pytest.fixture
def tokens(app):
    """A bearer token per role, issued the way the CLI issues them."""
    from floor.extensions import db
    from floor.models import User

    issued = {}
    with app.app_context():
        for name, role in USERS.items():
            user = db.session.scalars(db.select(User).where(User.username == name)).one()
            issued[role] = user.new_api_token()
        db.session.commit()
    return issued


@contextlib.contextmanager
def statements_run(app):
    """The SQL statements the app's engine runs inside the ``with`` block (SQLAlchemy's
    ``before_cursor_execute``), in a list filled as they run: for the tests that bound them."""
    import sqlalchemy as sa

    from floor.extensions import db

    with app.app_context():
        engine = db.engine
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def user(name: str):
    """The test account ``name`` (``USERS``: dee, fred, dana), read in the app context open now."""
    from floor.extensions import db
    from floor.models import User

    return db.session.scalars(db.select(User).where(User.username == name)).one()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def csrf_token_from(html: bytes) -> str:
    match = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        rb'name="csrf-token" content="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1).decode()


SETUP = {
    "profile": "cardroom", "ante": 5, "small_bet": 10, "big_bet": 20, "button": 1,
    "seats": [{"seat": 1, "player": "Ann", "stack": 500}, {"seat": 2, "player": "Bob", "stack": 500},
              {"seat": 3, "player": "Cleo", "stack": 500}, {"seat": 4, "player": "Dev", "stack": 500}],
}
