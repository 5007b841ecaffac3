"""findings: what a checker outside the app (the night's referee) flagged, for the shift report
(issue 24: floor.findings)

Revision ID: b9e4d2a7c1f3
Revises: a6d2c8e4f1b7
Create Date: 2026-11-24 19:00:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b9e4d2a7c1f3'
down_revision = 'a6d2c8e4f1b7'
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade():
    op.create_table('findings',
    sa.Column('id', BigId, nullable=False),
    sa.Column('table_id', BigId, nullable=True),
    sa.Column('deal', BigId, nullable=True),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('source', sa.String(length=120), nullable=False),
    sa.Column('filed_by_id', BigId, nullable=False),
    sa.Column('filed_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id']),
    sa.ForeignKeyConstraint(['filed_by_id'], ['users.id']),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('findings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_findings_table_id'), ['table_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_findings_filed_at'), ['filed_at'], unique=False)


def downgrade():
    with op.batch_alter_table('findings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_findings_filed_at'))
        batch_op.drop_index(batch_op.f('ix_findings_table_id'))
    op.drop_table('findings')
