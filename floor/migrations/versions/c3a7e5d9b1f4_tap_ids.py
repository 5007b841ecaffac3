"""tap ids: the tablet's id of the tap that logged an entry (or made a dealer's report), unique per
table, so that a tap sent again is answered with what it logged the first time (issue 33; DESIGN
part four "A tap is sent once")

Revision ID: c3a7e5d9b1f4
Revises: b9e4d2a7c1f3
Create Date: 2026-11-27 10:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3a7e5d9b1f4'
down_revision = 'b9e4d2a7c1f3'
branch_labels = None
depends_on = None

#: (table, unique index) of each record a tap makes: a jackpot table's log entry, a banked table's
#: log entry, a dealer's report for the floor. NULL (an entry logged without a tap id: the API's
#: older clients, the CLI, the demo) is never equal to another NULL, so those stay apart. A column
#: and an index, not a constraint: SQLite adds both in place, where a constraint would copy the
#: whole log (a day's entries) into a new table.
TAPPED = (("log_entries", "uq_log_entries_table_tap"), ("banked_entries", "uq_banked_entries_table_tap"),
          ("floor_calls", "uq_floor_calls_table_tap"))


def upgrade():
    for table, index in TAPPED:
        op.add_column(table, sa.Column('tap_id', sa.String(length=36), nullable=True))
        op.create_index(index, table, ['table_id', 'tap_id'], unique=True)


def downgrade():
    for table, index in TAPPED:
        op.drop_index(index, table_name=table)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('tap_id')
