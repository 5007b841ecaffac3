"""banked calls: a dealer's call for the floor at a banked table (issue 25)

Revision ID: f1b8c4d7e2a6
Revises: e7f3a1c9b2d4
Create Date: 2026-11-24 16:50:00

"""
from alembic import op
import sqlalchemy as sa

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # the models' int (floor.extensions)


# revision identifiers, used by Alembic.
revision = 'f1b8c4d7e2a6'
down_revision = 'e7f3a1c9b2d4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'banked_calls',
        sa.Column('id', BigId, nullable=False),
        sa.Column('table_id', BigId, nullable=False),
        sa.Column('issue', sa.String(length=40), nullable=False),
        sa.Column('box', BigId, nullable=True),
        sa.Column('called_by_id', BigId, nullable=False),
        sa.Column('called_at', sa.DateTime(), nullable=False),
        sa.Column('closed_at', sa.DateTime(), nullable=True),
        sa.Column('closed_by_id', BigId, nullable=True),
        sa.Column('ruling_id', BigId, nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['banked_tables.id']),
        sa.ForeignKeyConstraint(['called_by_id'], ['users.id']),
        sa.ForeignKeyConstraint(['closed_by_id'], ['users.id']),
        sa.ForeignKeyConstraint(['ruling_id'], ['banked_rulings.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    with op.batch_alter_table('banked_calls', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_banked_calls_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('banked_calls', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_banked_calls_table_id'))
    op.drop_table('banked_calls')
