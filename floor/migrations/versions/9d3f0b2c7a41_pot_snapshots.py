"""pot snapshots: a table's state at the end of each pot, so that a restart replays one pot

Revision ID: 9d3f0b2c7a41
Revises: 7c1e2a9d4b10
Create Date: 2026-11-22 15:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9d3f0b2c7a41'
down_revision = '7c1e2a9d4b10'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('pot_snapshots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'version', name='uq_pot_snapshots_table_version')
    )
    with op.batch_alter_table('pot_snapshots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pot_snapshots_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('pot_snapshots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pot_snapshots_table_id'))
    op.drop_table('pot_snapshots')
