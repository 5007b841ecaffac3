"""promotion awards name the player's record (the seat's player_id in the sealed log)

Revision ID: e5a9c2d7f3b1
Revises: d32e5a8c1f47
Create Date: 2026-11-27 07:00:00

An award paid before this revision keeps ``player_id`` empty: its seal was made without it and
stands as it is (floor.promotions.PromotionAward.seal_of).
"""
from alembic import op
import sqlalchemy as sa

# Whole numbers are 64-bit on PostgreSQL, as the models map ``int`` (floor.extensions.BigId).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# revision identifiers, used by Alembic.
revision = 'e5a9c2d7f3b1'
down_revision = 'd32e5a8c1f47'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('promotion_awards', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', BigId, nullable=True))
        batch_op.create_foreign_key('fk_promotion_awards_player_id', 'players', ['player_id'], ['id'])


def downgrade():
    with op.batch_alter_table('promotion_awards', schema=None) as batch_op:
        batch_op.drop_constraint('fk_promotion_awards_player_id', type_='foreignkey')
        batch_op.drop_column('player_id')
