"""Rows every tap reads, read without the ORM's query (issue 34).

A tap reads two rows before it can log anything: the user its bearer token (or its session) names,
and the table. Through the ORM (``session.get``, a ``select(User)``) each cost a tap more than the
statement itself: the ORM's compile of the query, its loading machinery and its bookkeeping, about
a tenth of a tap apiece in a profile. Here the statement is a Core ``select`` of the model's
columns, built once and run on the DB-API's cursor (:mod:`floor.prepared`: not even
``Connection.execute``), and the row read becomes the persistent object the rest of the request uses
(relationships load lazily as before, a change is flushed as before): the same row, read in the
same transaction, with nothing cached between requests, so whatever the database holds now (a
token revoked, a role changed, a seal broken) decides this very request.
"""

from __future__ import annotations

from typing import Any, TypeVar

from flask import abort
from sqlalchemy import Select, bindparam, inspect, select
from sqlalchemy.orm import configure_mappers
from sqlalchemy.orm.attributes import instance_dict, instance_state, set_committed_value

from floor.extensions import db
from floor.prepared import Prepared

M = TypeVar("M")


def columns(model: type[Any]) -> Select[Any]:
    """A Core ``select`` of every column of ``model``'s table, to be read by :func:`first` (made a
    :class:`floor.prepared.Prepared`, once)."""
    return select(*inspect(model).local_table.c)


class _Shape:
    """What :func:`first` needs of a model to fill one from a row, looked up once per model: its
    mapper, the attribute of each column of its table (in the table's order) and the places of its
    primary key's columns in that order."""

    __slots__ = ("mapper", "keys", "primary", "width")

    def __init__(self, model: type[Any]) -> None:
        mapper = inspect(model)
        keys = [mapper.get_property_by_column(c).key for c in mapper.local_table.c]
        # every column attribute is among them, none deferred: a row read holds all the object's
        # columns, as :func:`first` makes it (an attribute left out would read as None, not load)
        missing = {attr.key for attr in mapper.column_attrs if attr.deferred} | (
            {attr.key for attr in mapper.column_attrs} - set(keys))
        if missing:
            raise TypeError(f"floor.rows reads {model.__name__}'s table columns only; not {sorted(missing)}")
        self.mapper, self.keys, self.width = mapper, keys, len(keys)
        self.primary = [keys.index(mapper.get_property_by_column(c).key) for c in mapper.primary_key]


#: Per model, its :class:`_Shape`.
_SHAPES: dict[type, _Shape] = {}


def _shape(model: type[Any]) -> _Shape:
    shape = _SHAPES.get(model)
    if shape is None:
        shape = _SHAPES[model] = _Shape(model)
    return shape


def _keys(model: type[Any]) -> list[str]:
    """The attribute of each column of ``model``'s table, in the table's order."""
    return _shape(model).keys


def first(model: type[M], statement: Prepared, params: dict[str, Any]) -> M | None:
    """The first row ``statement`` (a :func:`columns` select, prepared) reads, as the persistent
    ``model`` of this request's session, or None. A row the session already holds (a request within
    a longer application context: a command, a test) is that object, brought up to the row as read
    now unless the session has changed it."""
    found = first_with(model, statement, params)
    return None if found is None else found[0]


def first_with(model: type[M], statement: Prepared, params: dict[str, Any]) -> tuple[M, tuple[Any, ...]] | None:
    """:func:`first` of a statement that reads more than the model's row: a :func:`columns` select
    with further columns after the table's (``add_columns``), answered in the same statement (a
    tap's table read with the rotation's question, :func:`floor.rotation.table_to_tap`). The object,
    and the values of those further columns; None when no row is read."""
    session = db.session()
    row = statement.first(session.connection(), params)
    if row is None:
        return None
    shape = _shape(model)
    mapper = shape.mapper
    key = mapper.identity_key_from_primary_key([row[i] for i in shape.primary])
    held = session.identity_map.get(key)
    if held is not None:
        if not session.is_modified(held):
            for name, value in zip(shape.keys, row):
                set_committed_value(held, name, value)
        return held, row[shape.width:]
    if not mapper.configured:  # a worker's first request may come before any ORM query made the attributes
        configure_mappers()
    obj = mapper.class_manager.new_instance()
    # Made persistent in this session as a query's loading makes a new object
    # (sqlalchemy.orm.loading._instance, SQLAlchemy 2.1): its identity, its session, the object in
    # the session's identity map, then its attributes' values, none of them a change; relationships
    # load lazily when read. (make_transient_to_detached and Session.add came to the same object,
    # through a walk of every attribute and of the cascades a row just read cannot have: issue 34,
    # session 41, 0.12 of a tap's 2.95 ms for its two rows. tests/test_tap_reads.py holds the object
    # equal to a query's.)
    state = instance_state(obj)
    state.key, state.identity_token = key, key[2]
    state.session_id = session.hash_key
    session.identity_map._add_unpresent(state, key)
    instance_dict(obj).update(zip(shape.keys, row))  # the model's columns: the row's first values
    return obj, row[shape.width:]


def transient(model: type[M], **values: Any) -> M:
    """A new ``model`` object holding ``values``, in no session, filled as a query's loading fills
    one (its attributes' values, none of them a change) rather than through the constructor's
    instrumented assignments: for a row a statement of its own writes (the table log's entry,
    :func:`floor.tables._write_entry`), which the request keeps as its answer. Relationships among
    ``values`` are read back as given."""
    obj: M = inspect(model).class_manager.new_instance()
    instance_dict(obj).update(values)
    return obj


def by_id(model: type[Any]) -> Select[Any]:
    """:func:`columns` of ``model`` whose id is the parameter ``id``."""
    table = inspect(model).local_table
    return columns(model).where(table.c.id == bindparam("id"))


#: Per model, its :func:`by_id` statement, built once.
_BY_ID: dict[type, Prepared] = {}


def get(model: type[M], row_id: int) -> M | None:
    """``session.get(model, row_id)`` without the ORM's query (see the module)."""
    statement = _BY_ID.get(model)
    if statement is None:
        statement = _BY_ID[model] = Prepared(by_id(model))
    return first(model, statement, {"id": row_id})


def get_or_404(model: type[M], row_id: int) -> M:
    """:func:`get`, or the request answers 404 (as ``db.get_or_404``)."""
    found = get(model, row_id)
    if found is None:
        abort(404)
    return found
