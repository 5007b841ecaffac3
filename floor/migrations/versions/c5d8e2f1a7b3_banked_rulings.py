"""banked rulings: the floor's sealed rulings on banked tables' disputes (issue 15)

Revision ID: c5d8e2f1a7b3
Revises: b7e4c1d2a9f0
Create Date: 2026-11-23 17:05:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5d8e2f1a7b3'
down_revision = 'b7e4c1d2a9f0'
branch_labels = None
depends_on = None

# 64-bit on PostgreSQL, as every integer column since the production migration; INTEGER on SQLite
# (its INTEGER PRIMARY KEY is the row id).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table('banked_rulings',
    sa.Column('id', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=False),
    sa.Column('round', BigId, nullable=False),
    sa.Column('log_seq', BigId, nullable=True),
    sa.Column('profile', sa.String(length=80), nullable=False),
    sa.Column('outcome', sa.String(length=40), nullable=False),
    sa.Column('facts', sa.JSON(), nullable=False),
    sa.Column('record', sa.JSON(), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('issued_by_id', BigId, nullable=False),
    sa.Column('issued_at', sa.DateTime(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['issued_by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['banked_tables.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('banked_rulings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_banked_rulings_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('banked_rulings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_banked_rulings_table_id'))
    op.drop_table('banked_rulings')
