"""players as records: a row per person (name, card number, note, a ban), and the record of the player
beside the names entries and bounties keep (issue 31); the names already written become players

Every name a database holds becomes a player: the seats of the tables' setups and of the logs'
``sit`` events, the tournaments' entries and the bounties' players and winners. Names that differ
only in case or spacing are one player (a table already took "ann" for "Ann"), named as first
written (the earliest table, then the entries). Entries and bounties get the record's id beside
their sealed name; the setups and the logs stay as they are (they are sealed: a seat that names no
record is read by its name, docs/players.md).

Revision ID: a31d5e7f9b02
Revises: c3f9a1e7d2b8
Create Date: 2026-11-27 04:00:00

"""
from datetime import datetime, timezone
import json

from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'a31d5e7f9b02'
down_revision = 'c3f9a1e7d2b8'
branch_labels = None
depends_on = None


def _key(name):
    return " ".join(str(name).split()).casefold()


def _names(conn):
    """Every player name the database holds, in the order first written."""
    names = []
    for (setup,) in conn.execute(sa.text("SELECT setup FROM tables ORDER BY id")):
        setup = json.loads(setup) if isinstance(setup, str) else setup
        for seat in (setup or {}).get("seats") or []:
            if isinstance(seat, dict) and isinstance(seat.get("player"), str):
                names.append(seat["player"])
    for (payload,) in conn.execute(sa.text("SELECT payload FROM log_entries ORDER BY table_id, seq")):
        payload = json.loads(payload) if isinstance(payload, str) else payload
        if isinstance(payload, dict) and payload.get("type") == "sit" and isinstance(payload.get("player"), str):
            names.append(payload["player"])
    for query in ("SELECT player FROM tournament_entries ORDER BY id",
                  "SELECT player FROM tournament_bounties ORDER BY id",
                  "SELECT winner FROM tournament_bounties ORDER BY id"):
        names.extend(name for (name,) in conn.execute(sa.text(query)))
    return names


def upgrade():
    players = op.create_table('players',
    sa.Column('id', BigId, nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('card', sa.String(length=40), nullable=True),
    sa.Column('note', sa.Text(), server_default='', nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('created_by_id', BigId, nullable=True),
    sa.Column('banned_reason', sa.Text(), nullable=True),
    sa.Column('banned_until', sa.DateTime(), nullable=True),
    sa.Column('banned_at', sa.DateTime(), nullable=True),
    sa.Column('banned_by_id', BigId, nullable=True),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['banned_by_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('card')
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_name'), ['name'], unique=False)
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', BigId, nullable=True))
        batch_op.create_index(batch_op.f('ix_tournament_entries_player_id'), ['player_id'], unique=False)
        batch_op.create_foreign_key('fk_tournament_entries_player_id', 'players', ['player_id'], ['id'])
    with op.batch_alter_table('tournament_bounties', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', BigId, nullable=True))
        batch_op.add_column(sa.Column('winner_id', BigId, nullable=True))
        batch_op.create_foreign_key('fk_tournament_bounties_player_id', 'players', ['player_id'], ['id'])
        batch_op.create_foreign_key('fk_tournament_bounties_winner_id', 'players', ['winner_id'], ['id'])

    conn = op.get_bind()
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    first = {}
    for name in _names(conn):
        if _key(name) and _key(name) not in first:
            first[_key(name)] = " ".join(str(name).split())[:80]
    if first:
        op.bulk_insert(players, [{"name": name, "note": "", "created_at": now} for name in first.values()])
    ids = {_key(name): pid for pid, name in conn.execute(sa.text("SELECT id, name FROM players"))}
    for table, pairs in (("tournament_entries", (("player", "player_id"),)),
                         ("tournament_bounties", (("player", "player_id"), ("winner", "winner_id")))):
        for name_column, id_column in pairs:
            for row_id, name in conn.execute(sa.text(f"SELECT id, {name_column} FROM {table}")).fetchall():
                if _key(name) in ids:
                    conn.execute(sa.text(f"UPDATE {table} SET {id_column} = :pid WHERE id = :id"),
                                 {"pid": ids[_key(name)], "id": row_id})


def downgrade():
    with op.batch_alter_table('tournament_bounties', schema=None) as batch_op:
        batch_op.drop_constraint('fk_tournament_bounties_winner_id', type_='foreignkey')
        batch_op.drop_constraint('fk_tournament_bounties_player_id', type_='foreignkey')
        batch_op.drop_column('winner_id')
        batch_op.drop_column('player_id')
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.drop_constraint('fk_tournament_entries_player_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_tournament_entries_player_id'))
        batch_op.drop_column('player_id')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_name'))
    op.drop_table('players')
