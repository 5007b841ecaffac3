"""the record anchored (issue 30): the seal key's fingerprint, the database's record of the room's
witness and its checkpoints, sealed rows (users, ruling prints, tournaments and their entries, clock
moves, desk actions and bounties), API tokens as keyed digests, each ruling's witness line

The upgrade checks the host's seal key against the history (:func:`floor.keys.check_seal_key`: a key
that does not verify it stops the upgrade, naming the setting) and records its fingerprint; keys the
tokens' stored SHA-256 digests with it (the tokens handed out keep working); seals every row of the
kinds above as it stands (as the upgrade of issue 11 sealed the logs: trust at the upgrade, checks
from then on); and records the database as it stands in the room's witness (an ``upgrade`` line),
which the database's record of the witness then anchors.

Revision ID: c3f9a1e7d2b8
Revises: d8b2f6a4c1e9
Create Date: 2026-11-27 12:00:00

"""
import hashlib
import hmac
import os

from typing import Any

from alembic import op

import sqlalchemy as sa
from flask import current_app

from floor.keys import check_seal_key, token_key
from floor.sealed import plain
from floor.seals import keyed_digest, set_member, sum_text


# revision identifiers, used by Alembic.
revision = 'c3f9a1e7d2b8'
down_revision = 'd8b2f6a4c1e9'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SEALED_TABLES = ("users", "ruling_prints", "tournaments", "tournament_entries", "tournament_clock_moves",
                 "tournament_desk_actions", "tournament_bounties")
CHILDREN = ("tournament_entries", "tournament_clock_moves", "tournament_desk_actions", "tournament_bounties")
# what each row's seal covers, as its model names it (attribute: column and type), at this revision
SEALED: dict[str, dict[str, tuple[str, Any]]] = {
    "users": {"username": ("username", sa.String), "role_name": ("role", sa.String), "active": ("active", sa.Boolean),
              "password_hash": ("password_hash", sa.String), "token_digest": ("token_digest", sa.String)},
    "ruling_prints": {"kind": ("kind", sa.String), "ruling_id": ("ruling_id", BigId), "seal": ("seal", sa.String),
                      "key": ("key", sa.String), "pdf": ("pdf", sa.LargeBinary)},
    "tournament_entries": {name: (name, kind) for name, kind in (
        ("tournament_id", BigId), ("player", sa.String), ("entered_at", sa.DateTime), ("rebuys", BigId),
        ("add_ons", BigId), ("out_order", BigId), ("out_at", sa.DateTime), ("out_table_id", BigId),
        ("out_hand", BigId), ("out_chips", BigId), ("reentries", BigId), ("out_seat", BigId))},
    "tournament_clock_moves": {name: (name, kind) for name, kind in (
        ("tournament_id", BigId), ("action", sa.String), ("at", sa.DateTime), ("by_id", BigId))},
    "tournament_desk_actions": {name: (name, kind) for name, kind in (
        ("tournament_id", BigId), ("kind", sa.String), ("player", sa.String), ("reason", sa.String),
        ("data", sa.JSON), ("at", sa.DateTime), ("by_id", BigId))},
    "tournament_bounties": {name: (name, kind) for name, kind in (
        ("tournament_id", BigId), ("player", sa.String), ("winner", sa.String), ("amount", BigId),
        ("table_id", BigId), ("hand", BigId), ("at", sa.DateTime))},
    "tournaments": {name: (name, kind) for name, kind in (
        ("event_id", BigId), ("structure", sa.JSON), ("drawn_at", sa.DateTime), ("final_seats", sa.JSON),
        ("children", sa.String))},
}


def upgrade():
    op.create_table('room_keys',
                    sa.Column('name', sa.String(length=20), nullable=False),
                    sa.Column('fingerprint', sa.String(length=64), nullable=False),
                    sa.Column('recorded_at', sa.DateTime(), nullable=False),
                    sa.PrimaryKeyConstraint('name'))
    op.create_table('witness_reach',
                    sa.Column('id', BigId, autoincrement=False, nullable=False),
                    sa.Column('n', BigId, nullable=False),
                    sa.Column('link', sa.String(length=64), nullable=False),
                    sa.Column('checkpoint', BigId, nullable=False),
                    sa.Column('pending', sa.JSON(), nullable=False),
                    sa.Column('at', sa.DateTime(), nullable=False),
                    sa.Column('seal', sa.String(length=64), nullable=False),
                    sa.PrimaryKeyConstraint('id'))
    op.create_table('witness_checkpoints',
                    sa.Column('n', BigId, autoincrement=False, nullable=False),
                    sa.Column('kind', sa.String(length=16), nullable=False),
                    sa.Column('at', sa.DateTime(), nullable=False),
                    sa.Column('link', sa.String(length=64), nullable=False),
                    sa.Column('line', sa.JSON(), nullable=False),
                    sa.PrimaryKeyConstraint('n'))
    for name in SEALED_TABLES:
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.add_column(sa.Column('row_seal', sa.String(length=64), nullable=False, server_default=''))
            if name == "tournaments":
                batch_op.add_column(sa.Column('children', sa.String(length=64), nullable=False, server_default=''))
    for name in ("rulings", "banked_rulings"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.add_column(sa.Column('witness_line', BigId, nullable=True))

    bind = op.get_bind()
    key = check_seal_key(current_app, bind)  # refuses (naming FLOOR_SEAL_KEY) a key that is not the history's
    if key is None:  # pragma: no cover - the table was made above
        raise RuntimeError("room_keys is missing")
    current_app.extensions["floor_seal_key"] = key
    # the tokens handed out keep working: their SHA-256 digests are keyed as floor.models.token_digest keys them
    users = sa.table("users", sa.column("id", BigId), sa.column("token_digest", sa.String))
    tokens = token_key(key)
    for user_id, digest in bind.execute(sa.select(users.c.id, users.c.token_digest)).all():
        if digest:
            bind.execute(users.update().where(users.c.id == user_id).values(
                token_digest=hmac.new(tokens, digest.encode(), hashlib.sha256).hexdigest()))
    children: dict[int, int] = {}
    for name in (*CHILDREN, "users", "ruling_prints", "tournaments"):
        _seal_rows(bind, name, key, children)
    from floor.witness.anchor import upgrade_epoch

    upgrade_epoch(bind, f"upgrade to revision {revision}: the sealed rows of issue 30 sealed as they stood",
                  os.environ.get("SUDO_USER") or os.environ.get("USER") or "?")


def _seal_rows(bind, name, key, children):
    """Seal every row of ``name`` as it stands (a tournament with the sum of its children's seals)."""
    columns = {attr: spec for attr, spec in SEALED[name].items() if attr != "children"}
    extra = (sa.column("children", sa.String),) if name == "tournaments" else ()
    table = sa.table(name, sa.column("id", BigId), sa.column("row_seal", sa.String), *extra,
                     *(sa.column(column, kind) for column, kind in columns.values()))
    for row in bind.execute(sa.select(table.c.id, *(table.c[column] for column, _ in columns.values()))).all():
        values = {attr: row._mapping[column] for attr, (column, _) in columns.items()}
        update = {}
        if name == "tournaments":
            values["children"] = update["children"] = sum_text(children.get(row.id, 0))
        update["row_seal"] = seal = keyed_digest({"of": name, "id": row.id,
                                                  **{k: plain(v) for k, v in values.items()}}, key)
        bind.execute(table.update().where(table.c.id == row.id).values(**update))
        if name in CHILDREN:
            owner = values["tournament_id"]
            children[owner] = children.get(owner, 0) + set_member(name, row.id, seal, key)


def downgrade():
    # (the tokens' digests stay keyed: after a downgrade every API token must be issued again)
    for name in ("rulings", "banked_rulings"):
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.drop_column('witness_line')
    for name in SEALED_TABLES:
        with op.batch_alter_table(name, schema=None) as batch_op:
            batch_op.drop_column('row_seal')
            if name == "tournaments":
                batch_op.drop_column('children')
    op.drop_table('witness_checkpoints')
    op.drop_table('witness_reach')
    op.drop_table('room_keys')
