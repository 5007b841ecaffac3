"""ruling prints: a sealed ruling's PDF stored once rendered, keyed on its seal and on a digest of
what was printed (issue 23: floor.rulings.printed)

Revision ID: a6d2c8e4f1b7
Revises: e8f1a2b3c4d5
Create Date: 2026-11-24 17:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a6d2c8e4f1b7'
down_revision = 'e8f1a2b3c4d5'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table('ruling_prints',
    sa.Column('id', BigId, nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('ruling_id', BigId, nullable=False),
    sa.Column('seal', sa.String(length=64), nullable=False),
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('pdf', sa.LargeBinary(), nullable=False),
    sa.Column('made_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('kind', 'ruling_id', name='uq_ruling_prints_kind_ruling')
    )


def downgrade():
    op.drop_table('ruling_prints')
