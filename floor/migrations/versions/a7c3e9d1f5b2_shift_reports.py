"""shift reports: a closed shift's report built once and stored, sealed (issue 34)

Revision ID: a7c3e9d1f5b2
Revises: e5a9c2d7f3b1
Create Date: 2026-11-27 07:00:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'a7c3e9d1f5b2'
down_revision = 'e5a9c2d7f3b1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('shift_reports',
    sa.Column('id', BigId, nullable=False),
    sa.Column('start', sa.DateTime(), nullable=False),
    sa.Column('end', sa.DateTime(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('page', sa.LargeBinary(), nullable=False),
    sa.Column('print', sa.LargeBinary(), nullable=False),
    sa.Column('pdf', sa.LargeBinary(), nullable=True),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.Column('row_seal', sa.String(length=64), nullable=False, server_default=''),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('start', 'end', name='uq_shift_reports_window')
    )


def downgrade():
    op.drop_table('shift_reports')
