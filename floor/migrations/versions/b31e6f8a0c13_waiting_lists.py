"""waiting lists per game and stakes, and the players on them (issue 31)

Revision ID: b31e6f8a0c13
Revises: a31d5e7f9b02
Create Date: 2026-11-27 04:20:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'b31e6f8a0c13'
down_revision = 'a31d5e7f9b02'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('waiting_lists',
    sa.Column('id', BigId, nullable=False),
    sa.Column('game', sa.String(length=80), nullable=False),
    sa.Column('stakes', sa.String(length=40), nullable=False),
    sa.Column('interest', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('created_by_id', BigId, nullable=True),
    sa.ForeignKeyConstraint(['created_by_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('waiting_list_entries',
    sa.Column('id', BigId, nullable=False),
    sa.Column('list_id', BigId, nullable=False),
    sa.Column('player_id', BigId, nullable=False),
    sa.Column('joined_at', sa.DateTime(), nullable=False),
    sa.Column('called_at', sa.DateTime(), nullable=True),
    sa.Column('removed_at', sa.DateTime(), nullable=True),
    sa.Column('reason', sa.String(length=20), nullable=True),
    sa.Column('table_id', BigId, nullable=True),
    sa.Column('seat', BigId, nullable=True),
    sa.Column('by_id', BigId, nullable=True),
    sa.ForeignKeyConstraint(['list_id'], ['waiting_lists.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['by_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('waiting_list_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_waiting_list_entries_list_id'), ['list_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_waiting_list_entries_player_id'), ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('waiting_list_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_waiting_list_entries_player_id'))
        batch_op.drop_index(batch_op.f('ix_waiting_list_entries_list_id'))
    op.drop_table('waiting_list_entries')
    op.drop_table('waiting_lists')
