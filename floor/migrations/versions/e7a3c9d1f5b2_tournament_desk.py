"""tournament desk: re-entries, the seat left, bounties paid, the desk's actions

Revision ID: e7a3c9d1f5b2
Revises: f1b8c4d7e2a6
Create Date: 2026-11-24 16:40:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'e7a3c9d1f5b2'
down_revision = 'f1b8c4d7e2a6'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reentries', BigId, server_default='0', nullable=False))
        batch_op.add_column(sa.Column('out_seat', BigId, nullable=True))

    op.create_table('tournament_bounties',
    sa.Column('id', BigId, nullable=False),
    sa.Column('tournament_id', BigId, nullable=False),
    sa.Column('player', sa.String(length=80), nullable=False),
    sa.Column('winner', sa.String(length=80), nullable=False),
    sa.Column('amount', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=True),
    sa.Column('hand', BigId, nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournament_bounties', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_bounties_tournament_id'), ['tournament_id'], unique=False)

    op.create_table('tournament_desk_actions',
    sa.Column('id', BigId, nullable=False),
    sa.Column('tournament_id', BigId, nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('player', sa.String(length=80), nullable=True),
    sa.Column('reason', sa.String(length=500), nullable=True),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('by_id', BigId, nullable=True),
    sa.ForeignKeyConstraint(['by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('tournament_desk_actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_desk_actions_tournament_id'), ['tournament_id'], unique=False)


def downgrade():
    with op.batch_alter_table('tournament_desk_actions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_desk_actions_tournament_id'))
    op.drop_table('tournament_desk_actions')
    with op.batch_alter_table('tournament_bounties', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_bounties_tournament_id'))
    op.drop_table('tournament_bounties')
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.drop_column('out_seat')
        batch_op.drop_column('reentries')
