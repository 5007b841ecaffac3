"""production: 64-bit ids on PostgreSQL, session nonce and lockout, user names ignoring case,
the log's hash chain and keyed seals, the health probe's row (issue 11)

Revision ID: b7e4c1d2a9f0
Revises: b4e1c7d2a915
Create Date: 2026-11-23 16:30:00

The data step seals the history that exists at the upgrade with the installation's key
(``instance/seal_key``, :mod:`floor.seals`): each table's log is chained as it stands, and each
ruling whose plain SHA-256 still matches is re-sealed with the key (one that does not match keeps
its old digest, so that ``flask --app floor verify`` reports it).
"""
import hashlib
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7e4c1d2a9f0'
down_revision = 'b4e1c7d2a915'
branch_labels = None
depends_on = None


def _integer_columns(bind):
    """(table, column) of every 32-bit integer column (PostgreSQL), and the serial sequences."""
    inspector = sa.inspect(bind)
    for table in inspector.get_table_names():
        if table == "alembic_version":
            continue
        for column in inspector.get_columns(table):
            if isinstance(column["type"], sa.Integer) and not isinstance(column["type"], (sa.BigInteger, sa.Boolean)):
                yield table, column["name"]


def _widen(bind, to):
    for table, column in list(_integer_columns(bind)) if to == "BIGINT" else _big_columns(bind):
        op.execute(sa.text(f'ALTER TABLE "{table}" ALTER COLUMN "{column}" TYPE {to}'))
        sequence = bind.execute(sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                                {"t": f'"{table}"', "c": column}).scalar()
        if sequence:
            op.execute(sa.text(f"ALTER SEQUENCE {sequence} AS {to}"))


def _big_columns(bind):
    inspector = sa.inspect(bind)
    for table in inspector.get_table_names():
        for column in inspector.get_columns(table):
            if isinstance(column["type"], sa.BigInteger):
                yield table, column["name"]


def upgrade():
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        _widen(bind, "BIGINT")  # SQLite's INTEGER is 64-bit already

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_nonce', sa.String(length=32), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('failed_logins', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('locked_until', sa.DateTime(), nullable=True))
    op.create_index('uq_users_username_lower', 'users', [sa.text('lower(username)')], unique=True)
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('head_digest', sa.String(length=64), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('head_seal', sa.String(length=64), nullable=False, server_default=''))
    with op.batch_alter_table('log_entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('prev_digest', sa.String(length=64), nullable=False, server_default=''))
        batch_op.add_column(sa.Column('digest', sa.String(length=64), nullable=False, server_default=''))
    op.create_table('health_probe',
    sa.Column('id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), nullable=False),
    sa.Column('checked_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    _seal_existing(bind)


def _seal_existing(bind):
    from floor.seals import canonical, entry_content, head_content, keyed_digest

    users_t = sa.table('users', sa.column('id', sa.Integer), sa.column('username', sa.String),
                       sa.column('session_nonce', sa.String))
    for (user_id,) in bind.execute(sa.select(users_t.c.id)).all():
        bind.execute(users_t.update().where(users_t.c.id == user_id).values(session_nonce=secrets.token_hex(16)))
    names = dict(bind.execute(sa.select(users_t.c.id, users_t.c.username)).all())

    tables_t = sa.table('tables', sa.column('id', sa.Integer), sa.column('version', sa.Integer),
                        sa.column('setup', sa.JSON), sa.column('head_digest', sa.String),
                        sa.column('head_seal', sa.String))
    log_t = sa.table('log_entries', sa.column('id', sa.Integer), sa.column('table_id', sa.Integer),
                     sa.column('seq', sa.Integer), sa.column('payload', sa.JSON),
                     sa.column('logged_by_id', sa.Integer), sa.column('logged_at', sa.DateTime),
                     sa.column('prev_digest', sa.String), sa.column('digest', sa.String))
    for table_id, version, setup in bind.execute(sa.select(tables_t.c.id, tables_t.c.version, tables_t.c.setup)).all():
        prev = ""
        rows = bind.execute(sa.select(log_t.c.id, log_t.c.seq, log_t.c.payload, log_t.c.logged_by_id,
                                      log_t.c.logged_at).where(log_t.c.table_id == table_id)
                            .order_by(log_t.c.seq)).all()
        for entry_id, seq, payload, by, at in rows:
            digest = keyed_digest(entry_content(table_id, seq, payload, by, at, prev))
            bind.execute(log_t.update().where(log_t.c.id == entry_id).values(prev_digest=prev, digest=digest))
            prev = digest
        bind.execute(tables_t.update().where(tables_t.c.id == table_id).values(
            head_digest=prev, head_seal=keyed_digest(head_content(table_id, version, prev, setup))))

    rulings_t = sa.table(
        'rulings', *(sa.column(name, sa.Integer) for name in (
            'id', 'table_id', 'deal', 'log_seq', 'issued_by_id', 'supersedes_id', 'reported_by_id',
            'confirmed_by_id')),
        sa.column('profile', sa.String), sa.column('outcome', sa.String), sa.column('facts', sa.JSON),
        sa.column('record', sa.JSON), sa.column('note', sa.Text), sa.column('issued_at', sa.DateTime),
        sa.column('by_rules', sa.Boolean), sa.column('confirmed_at', sa.DateTime),
        sa.column('confirmation_digest', sa.String), sa.column('digest', sa.String))
    for r in bind.execute(sa.select(rulings_t)).mappings().all():
        content = {
            "id": r["id"], "table_id": r["table_id"], "deal": r["deal"], "log_seq": r["log_seq"],
            "profile": r["profile"], "outcome": r["outcome"], "facts": r["facts"], "ruling": r["record"],
            "note": r["note"], "issued_by": names.get(r["issued_by_id"]),
            "issued_at": r["issued_at"].isoformat(timespec="seconds"), "supersedes": r["supersedes_id"],
            "reported_by": names.get(r["reported_by_id"]), "by_rules": bool(r["by_rules"]),
        }
        values = {}
        if hashlib.sha256(canonical(content).encode()).hexdigest() == r["digest"]:
            values["digest"] = keyed_digest(content)
        if r["confirmed_by_id"] is not None and r["confirmation_digest"]:
            confirmation = {"ruling": r["id"], "digest": r["digest"], "confirmed_by": names.get(r["confirmed_by_id"]),
                            "confirmed_at": r["confirmed_at"].isoformat(timespec="seconds") if r["confirmed_at"] else None}
            if hashlib.sha256(canonical(confirmation).encode()).hexdigest() == r["confirmation_digest"]:
                confirmation["digest"] = values.get("digest", r["digest"])
                values["confirmation_digest"] = keyed_digest(confirmation)
        if values:
            bind.execute(rulings_t.update().where(rulings_t.c.id == r["id"]).values(**values))


def downgrade():
    op.drop_table('health_probe')
    with op.batch_alter_table('log_entries', schema=None) as batch_op:
        batch_op.drop_column('digest')
        batch_op.drop_column('prev_digest')
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('head_seal')
        batch_op.drop_column('head_digest')
    op.drop_index('uq_users_username_lower', table_name='users')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('locked_until')
        batch_op.drop_column('failed_logins')
        batch_op.drop_column('session_nonce')
    # The seals stay keyed: a downgraded app reads them as changed rulings (its plain SHA-256 differs).
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        _widen(bind, "INTEGER")
