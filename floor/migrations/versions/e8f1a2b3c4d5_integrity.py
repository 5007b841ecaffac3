"""integrity (issue 20): pot snapshots sealed, a banked table's round start under its head seal,
the login throttle's counts shared by every server process

Revision ID: e8f1a2b3c4d5
Revises: e7a3c9d1f5b2
Create Date: 2026-11-24 16:40:00

"""
from alembic import op
import sqlalchemy as sa

from floor.seals import head_content, keyed_digest, same


# revision identifiers, used by Alembic.
revision = 'e8f1a2b3c4d5'
down_revision = 'e7a3c9d1f5b2'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    with op.batch_alter_table('pot_snapshots', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seal', sa.String(length=64), nullable=False, server_default=''))
    # The snapshots already there were never sealed, and sealing them now would vouch for whatever
    # they hold: they are derived data, so they go; each table replays its log until its next pot
    # begins and a sealed snapshot is taken.
    op.execute(sa.text("DELETE FROM pot_snapshots"))

    # A banked table's head now also seals where its round in play begins: each head whose seal
    # still matches is sealed again with it (one that does not stays flagged for `flask verify`).
    bind = op.get_bind()
    banked = sa.table('banked_tables', sa.column('id', sa.Integer), sa.column('version', sa.Integer),
                      sa.column('setup', sa.JSON), sa.column('round_start', sa.Integer),
                      sa.column('head_digest', sa.String), sa.column('head_seal', sa.String))
    for table_id, version, setup, round_start, head, seal in bind.execute(sa.select(
            banked.c.id, banked.c.version, banked.c.setup, banked.c.round_start, banked.c.head_digest,
            banked.c.head_seal)).all():
        content = {**head_content(table_id, version, head, setup), "kind": "banked"}
        if same(seal, keyed_digest(content)):
            bind.execute(banked.update().where(banked.c.id == table_id).values(
                head_seal=keyed_digest({**content, "round_start": round_start})))

    op.create_table('rate_limits',
                    sa.Column('key', sa.String(length=255), nullable=False),
                    sa.Column('count', BigId, nullable=False),
                    sa.Column('expires_at', sa.Double(), nullable=False),
                    sa.PrimaryKeyConstraint('key'))


def downgrade():
    op.drop_table('rate_limits')
    with op.batch_alter_table('pot_snapshots', schema=None) as batch_op:
        batch_op.drop_column('seal')
