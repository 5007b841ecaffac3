"""the floor's word: who reported, ruled by the rules, confirmations; calls carrying a report

Revision ID: 7c1e2a9d4b10
Revises: 50147dd8de60
Create Date: 2026-11-22 14:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7c1e2a9d4b10'
down_revision = '50147dd8de60'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('rulings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reported_by_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('by_rules', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('confirmed_by_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('confirmed_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('confirmation_digest', sa.String(length=64), nullable=False, server_default=''))
        batch_op.create_foreign_key('fk_rulings_reported_by_id_users', 'users', ['reported_by_id'], ['id'])
        batch_op.create_foreign_key('fk_rulings_confirmed_by_id_users', 'users', ['confirmed_by_id'], ['id'])

    with op.batch_alter_table('floor_calls', schema=None) as batch_op:
        batch_op.add_column(sa.Column('event', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('proposal', sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table('floor_calls', schema=None) as batch_op:
        batch_op.drop_column('proposal')
        batch_op.drop_column('version')
        batch_op.drop_column('event')

    with op.batch_alter_table('rulings', schema=None) as batch_op:
        batch_op.drop_constraint('fk_rulings_confirmed_by_id_users', type_='foreignkey')
        batch_op.drop_constraint('fk_rulings_reported_by_id_users', type_='foreignkey')
        batch_op.drop_column('confirmation_digest')
        batch_op.drop_column('confirmed_at')
        batch_op.drop_column('confirmed_by_id')
        batch_op.drop_column('by_rules')
        batch_op.drop_column('reported_by_id')
