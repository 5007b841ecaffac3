"""shift reports: the moment each stored report's record was read (as_of), under its seal (issue 34, session 44)

A request may be served a closed shift's report as the record stood at or after a moment (the
progress page's ``since``), so each stored report keeps when its key was read, sealed with it. The
stored reports are derived data (built again from the record on the next request for them, as
after floor.shift_store's pruning) and their seals would not cover the new column: the table is
made again, empty.

Revision ID: b8d4f2a6c0e3
Revises: a7c3e9d1f5b2
Create Date: 2026-11-28 01:00:00

"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'b8d4f2a6c0e3'
down_revision = 'a7c3e9d1f5b2'
branch_labels = None
depends_on = None


def _create(with_as_of: bool) -> None:
    op.create_table('shift_reports',
    sa.Column('id', BigId, nullable=False),
    sa.Column('start', sa.DateTime(), nullable=False),
    sa.Column('end', sa.DateTime(), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    *([sa.Column('as_of', sa.DateTime(), nullable=False)] if with_as_of else []),
    sa.Column('page', sa.LargeBinary(), nullable=False),
    sa.Column('print', sa.LargeBinary(), nullable=False),
    sa.Column('pdf', sa.LargeBinary(), nullable=True),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.Column('row_seal', sa.String(length=64), nullable=False, server_default=''),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('start', 'end', name='uq_shift_reports_window')
    )


def upgrade():
    op.drop_table('shift_reports')
    _create(with_as_of=True)


def downgrade():
    op.drop_table('shift_reports')
    _create(with_as_of=False)
