"""banked log chain: each banked log entry sealed to the one before it, the table's head sealed,
and where the round in play begins (issue 11's tamper-evident history, for banked tables too)

Revision ID: d2a6f0c9e4b8
Revises: c5d8e2f1a7b3
Create Date: 2026-11-23 17:40:00

"""
from alembic import op
import sqlalchemy as sa

from floor.seals import entry_content, head_content, keyed_digest


# revision identifiers, used by Alembic.
revision = 'd2a6f0c9e4b8'
down_revision = 'c5d8e2f1a7b3'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    with op.batch_alter_table('banked_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_start', BigId, nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('head_digest', sa.String(length=64), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('head_seal', sa.String(length=64), nullable=False, server_default=''))
    with op.batch_alter_table('banked_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('prev_digest', sa.String(length=64), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('digest', sa.String(length=64), nullable=False, server_default=''))

    # Seal the banked history already in the database, as the production migration did for the
    # jackpot tables (the same key, floor.seals), and find where each table's round in play begins.
    bind = op.get_bind()
    tables_t = sa.table('banked_tables', sa.column('id', sa.Integer), sa.column('version', sa.Integer),
                        sa.column('setup', sa.JSON), sa.column('round_start', sa.Integer),
                        sa.column('head_digest', sa.String), sa.column('head_seal', sa.String))
    log_t = sa.table('banked_entries', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                     sa.column('seq', sa.Integer), sa.column('payload', sa.JSON),
                     sa.column('logged_by_id', sa.Integer), sa.column('logged_at', sa.DateTime),
                     sa.column('prev_digest', sa.String), sa.column('digest', sa.String))
    for table_id, version, setup in bind.execute(sa.select(tables_t.c.id, tables_t.c.version, tables_t.c.setup)).all():
        prev, round_start = "", 0
        rows = bind.execute(sa.select(log_t.c.id, log_t.c.seq, log_t.c.payload, log_t.c.logged_by_id,
                                      log_t.c.logged_at).where(log_t.c.table_id == table_id)
                            .order_by(log_t.c.seq)).all()
        for entry_id, seq, payload, by, at in rows:
            digest = keyed_digest({**entry_content(table_id, seq, payload, by, at, prev), "kind": "banked"})
            bind.execute(log_t.update().where(log_t.c.id == entry_id).values(prev_digest=prev, digest=digest))
            prev = digest
            if (payload or {}).get("type") == "deal":
                round_start = seq
        # every table's head is sealed, an empty one too (as the app seals a table when it is set up)
        values = {"round_start": round_start, "head_digest": prev,
                  "head_seal": keyed_digest({**head_content(table_id, version, prev, setup), "kind": "banked"})}
        bind.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))


def downgrade():
    with op.batch_alter_table('banked_entries', schema=None) as batch_op:
        batch_op.drop_column('digest')
        batch_op.drop_column('prev_digest')
    with op.batch_alter_table('banked_tables', schema=None) as batch_op:
        batch_op.drop_column('head_seal')
        batch_op.drop_column('head_digest')
        batch_op.drop_column('round_start')
