"""room settings: the card room's own settings, first its time zone (asked once by init-db,
changed at /director/settings; issue 25)

Revision ID: e7f3a1c9b2d4
Revises: d2a6f0c9e4b8
Create Date: 2026-11-24 16:40:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7f3a1c9b2d4'
down_revision = 'd2a6f0c9e4b8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'room_settings',
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('value', sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )


def downgrade():
    op.drop_table('room_settings')
