"""promotion awards: the pools the drops fund, paid by the floor (issue 32)

Revision ID: d32e5a8c1f47
Revises: d52b8e1f4a70
Create Date: 2026-11-27 05:00:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'd32e5a8c1f47'
down_revision = 'd52b8e1f4a70'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('promotion_awards',
    sa.Column('id', BigId, nullable=False),
    sa.Column('pool', sa.String(length=20), nullable=False),
    sa.Column('pool_seq', BigId, nullable=False),
    sa.Column('amount', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=False),
    sa.Column('deal', BigId, nullable=False),
    sa.Column('seat', BigId, nullable=False),
    sa.Column('player', sa.String(length=80), nullable=False),
    sa.Column('cards', sa.String(length=60), nullable=False),
    sa.Column('hand', sa.String(length=200), nullable=False),
    sa.Column('qualifier', sa.String(length=30), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('by_id', BigId, nullable=True),
    sa.Column('row_seal', sa.String(length=64), nullable=False, server_default=''),
    sa.ForeignKeyConstraint(['by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('pool', 'pool_seq', name='uq_promotion_awards_pool_seq')
    )
    with op.batch_alter_table('promotion_awards', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_promotion_awards_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('promotion_awards', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_promotion_awards_table_id'))
    op.drop_table('promotion_awards')
