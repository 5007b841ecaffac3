"""banked tables: the banked joker game's tables and their append-only logs

Revision ID: b4e1c7d2a915
Revises: b323aaf1c0e8
Create Date: 2026-11-23 16:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b4e1c7d2a915'
down_revision = 'b323aaf1c0e8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('banked_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('setup', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('banked_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('logged_by_id', sa.Integer(), nullable=True),
    sa.Column('logged_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['logged_by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['banked_tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'seq', name='uq_banked_entries_table_seq')
    )
    with op.batch_alter_table('banked_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_banked_entries_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('banked_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_banked_entries_table_id'))
    op.drop_table('banked_entries')
    op.drop_table('banked_tables')
