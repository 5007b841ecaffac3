"""shift reports: the moment each stored report's record was read (as_of), under its seal (issue 34, session 44)

A request may be served a closed shift's report as the record stood at or after a moment (the
progress page's ``since``), so each stored report keeps when its key was read, sealed with it. The
stored reports are derived data (built again from the record on the next request for them, as
after floor.shift_store's pruning) and their seals would not cover the new column: they are
removed, and the column is added to the empty table.

Revision ID: b8d4f2a6c0e3
Revises: a7c3e9d1f5b2
Create Date: 2026-11-28 01:00:00

"""
from alembic import op
import sqlalchemy as sa

# revision identifiers, used by Alembic.
revision = 'b8d4f2a6c0e3'
down_revision = 'a7c3e9d1f5b2'
branch_labels = None
depends_on = None


def upgrade():
    op.execute(sa.text("DELETE FROM shift_reports"))
    # SQLite adds a NOT NULL column without a default only by copying the table (empty here)
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table('shift_reports', recreate="always" if sqlite else "auto") as batch_op:
        batch_op.add_column(sa.Column('as_of', sa.DateTime(), nullable=False))


def downgrade():
    op.execute(sa.text("DELETE FROM shift_reports"))  # sealed with as_of: their seals would not match
    with op.batch_alter_table('shift_reports') as batch_op:
        batch_op.drop_column('as_of')
