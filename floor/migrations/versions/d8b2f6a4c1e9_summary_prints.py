"""summary prints: a rule summary's PDF (a profile's, a banked table's) kept once made, keyed on the
rules printed and the printed page, as a ruling's print is (issue 33: floor.prints.stored)

Revision ID: d8b2f6a4c1e9
Revises: c3a7e5d9b1f4
Create Date: 2026-11-27 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd8b2f6a4c1e9'
down_revision = 'c3a7e5d9b1f4'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table('summary_prints',
    sa.Column('id', BigId, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('seal', sa.String(length=64), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('pdf', sa.LargeBinary(), nullable=False),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('kind', 'name', name='uq_summary_prints_kind_name')
    )


def downgrade():
    op.drop_table('summary_prints')
