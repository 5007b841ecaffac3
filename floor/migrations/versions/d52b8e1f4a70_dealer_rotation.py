"""dealer rotation: the push schedule and the floor's moves by hand (issue 31)

Revision ID: d52b8e1f4a70
Revises: c41f7a2e9d35
Create Date: 2026-11-27 04:50:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'd52b8e1f4a70'
down_revision = 'c41f7a2e9d35'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('rotations',
    sa.Column('id', BigId, nullable=False),
    sa.Column('start', sa.DateTime(), nullable=False),
    sa.Column('minutes', BigId, nullable=False),
    sa.Column('dealer_ids', sa.JSON(), nullable=False),
    sa.Column('table_ids', sa.JSON(), nullable=False),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.Column('made_by_id', BigId, nullable=True),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['made_by_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('dealer_assignments',
    sa.Column('id', BigId, nullable=False),
    sa.Column('dealer_id', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=False),
    sa.Column('start', sa.DateTime(), nullable=False),
    sa.Column('until', sa.DateTime(), nullable=False),
    sa.Column('made_by_id', BigId, nullable=True),
    sa.ForeignKeyConstraint(['dealer_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.ForeignKeyConstraint(['made_by_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('dealer_assignments', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dealer_assignments_dealer_id'), ['dealer_id'], unique=False)


def downgrade():
    with op.batch_alter_table('dealer_assignments', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dealer_assignments_dealer_id'))
    op.drop_table('dealer_assignments')
    op.drop_table('rotations')
