"""Statements a tap runs on every request, compiled once and run on the DB-API's cursor (issue 34).

A tap runs the same few statements every time: the token's user, the table, the rotation check,
the table's head moved on, the entry inserted, the room's witness record moved on. Through
SQLAlchemy's ``Connection.execute`` each cost several times what the database spent on it (in a
py-spy profile of a tap, the six executes were a quarter of its CPU and the DB-API's own work a
sixth of that): the compiled-statement cache's lookup, an execution context, the parameters
processed, a result object built. Here a statement is a Core statement as before, compiled once per
dialect (SQLite and PostgreSQL alike), and run on the cursor of the session's own connection, in the
session's transaction: the same SQL, the same parameters as SQLAlchemy would send (its own bind
and result processors: a datetime as SQLite stores it, a role as its enum), the same rows.

What the engine's listeners do at each statement still happens: :meth:`Prepared.run` tells the
engine's ``before_cursor_execute`` listeners of it (SQLite's writers queue for the write lock there,
:mod:`floor.writelock`; the tests count statements there). A driver's error is raised as SQLAlchemy
raises it (``sqlalchemy.exc.IntegrityError`` and its kin), so callers catch what they caught before.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement, Select
from sqlalchemy.sql.compiler import SQLCompiler

Processor = Callable[[Any], Any] | None


class _Compiled:
    """A statement's SQL for one dialect, the order its parameters go in (or None: by name), and the
    processors of its parameters and of its result's columns."""

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        if compiled.escaped_bind_names or compiled.literal_execute_params:
            raise ValueError("a prepared statement takes plain named parameters only")
        self.sql: str = compiled.string
        self.order: list[str] | None = list(compiled.positiontup or []) if compiled.positional else None
        #: the values the statement carries itself (a literal), by the name it is compiled with
        self.defaults: dict[str, Any] = {}
        self.binds: dict[str, Callable[[Any], Any]] = {}
        for bind, name in compiled.bind_names.items():
            if not bind.required:
                self.defaults[name] = bind.effective_value
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                self.binds[name] = process
        columns: list[Any] = list(statement.selected_columns) if isinstance(statement, Select) else []
        self.results: list[Processor] = [column.type.dialect_impl(dialect).result_processor(dialect, None)
                                         for column in columns]
        #: the columns whose values are processed (a time, a JSON value, a boolean), by place: most
        #: of a row's are given as the driver reads them
        self.processed: list[tuple[int, Callable[[Any], Any]]] = [
            (place, process) for place, process in enumerate(self.results) if process is not None]

    def parameters(self, params: dict[str, Any]) -> Any:
        values = {**self.defaults, **params} if self.defaults else dict(params)
        for name, process in self.binds.items():
            values[name] = process(values[name])
        return values if self.order is None else tuple([values[name] for name in self.order])

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        if not self.processed:
            return tuple(raw)
        values = list(raw)
        for place, process in self.processed:
            values[place] = process(values[place])
        return tuple(values)


class Prepared:
    """A Core statement (built once, at import) that a hot path runs without ``Connection.execute``.

    >>> from sqlalchemy import create_engine, literal, select
    >>> engine = create_engine("sqlite://")
    >>> with engine.connect() as connection:
    ...     Prepared(select(literal(2).label("two"), literal("x").label("x"))).first(connection, {})
    (2, 'x')
    """

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._by_dialect: dict[tuple[str, str, str], _Compiled] = {}

    def _compiled(self, dialect: Dialect) -> _Compiled:
        key = (dialect.name, dialect.driver, dialect.paramstyle)
        compiled = self._by_dialect.get(key)
        if compiled is None:
            compiled = self._by_dialect[key] = _Compiled(self.statement, dialect)
        return compiled

    def run(self, connection: Connection, params: dict[str, Any]) -> tuple[Any, _Compiled]:
        """Run the statement on ``connection``'s DB-API cursor, in its transaction: the cursor and
        the compiled form (to read the rows with)."""
        compiled = self._compiled(connection.dialect)
        values = compiled.parameters(params)
        cursor = connection.connection.cursor()
        dialect = connection.dialect
        try:
            # what Connection.execute tells the engine's listeners before each statement
            connection.dispatch.before_cursor_execute(connection, cursor, compiled.sql, values, None, False)
            cursor.execute(compiled.sql, values)
        except dialect.loaded_dbapi.Error as exc:
            # as Connection.execute does: a connection the database dropped is not given back to the
            # pool, and the driver's error is raised as SQLAlchemy's (an IntegrityError is the log's
            # backstop against a second entry of one tap: floor.tables.append_all catches SQLAlchemy's)
            dropped = dialect.is_disconnect(exc, connection.connection.dbapi_connection, cursor)
            cursor.close()
            if dropped:
                connection.invalidate(exc)
            raise DBAPIError.instance(compiled.sql, values, exc, dialect.loaded_dbapi.Error,
                                      connection_invalidated=dropped, dialect=dialect) from exc
        except BaseException:  # a listener's refusal (floor.writelock's): the cursor is not kept open
            cursor.close()
            raise
        return cursor, compiled

    def first(self, connection: Connection, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The statement's first row (its values as SQLAlchemy would give them), or None."""
        cursor, compiled = self.run(connection, params)
        try:
            raw = cursor.fetchone()
        finally:
            cursor.close()
        return None if raw is None else compiled.row(raw)

    def rowcount(self, connection: Connection, params: dict[str, Any]) -> int:
        """Run a write; the number of rows it changed."""
        cursor, _ = self.run(connection, params)
        try:
            return int(cursor.rowcount)
        finally:
            cursor.close()
