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
    # Batch mode copies the table on SQLite; from this definition (the table as d32e5a8c1f47 made
    # it), not by reflection, which would read users' expression index (a warning taken as an error).
    with op.batch_alter_table('promotion_awards', schema=None, copy_from=_awards_before()) as batch_op:
        batch_op.add_column(sa.Column('player_id', BigId, nullable=True))
        batch_op.create_foreign_key('fk_promotion_awards_player_id', 'players', ['player_id'], ['id'])


def _awards_before():
    return sa.Table('promotion_awards', sa.MetaData(),
    sa.Column('id', BigId, nullable=False),
    sa.Column('pool', sa.String(length=20), nullable=False),
    sa.Column('pool_seq', BigId, nullable=False),
    sa.Column('amount', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=False),
    sa.Column('deal', BigId, nullable=False),
    sa.Column('seat', BigId, nullable=False),
    sa.Column('player', sa.String(length=80), nullable=False),
    sa.Column('cards', sa.String(length=60), nullable=False),
    sa.Column('hand', sa.String(length=200), nullable=False),
    sa.Column('qualifier', sa.String(length=30), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('by_id', BigId, nullable=True),
    sa.Column('row_seal', sa.String(length=64), nullable=False, server_default=''),
    sa.ForeignKeyConstraint(['by_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('pool', 'pool_seq', name='uq_promotion_awards_pool_seq'),
    sa.Index('ix_promotion_awards_table_id', 'table_id'))


def downgrade():
    after = _awards_before()
    after.append_column(sa.Column('player_id', BigId, nullable=True))
    after.append_constraint(sa.ForeignKeyConstraint(['player_id'], ['players.id'],
                                                    name='fk_promotion_awards_player_id'))
    with op.batch_alter_table('promotion_awards', schema=None, copy_from=after) as batch_op:
        batch_op.drop_constraint('fk_promotion_awards_player_id', type_='foreignkey')
        batch_op.drop_column('player_id')
